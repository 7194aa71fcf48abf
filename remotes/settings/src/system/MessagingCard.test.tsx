import { SMS_DEFAULTS, WHATSAPP_DEFAULTS, type MessagingSettings, MESSAGE_ROUTES } from '@mizan/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { MessagingCard } from './MessagingCard';

const stored: MessagingSettings = {
  sms: { ...SMS_DEFAULTS, authHeaderSet: false },
  whatsapp: { ...WHATSAPP_DEFAULTS, tokenSet: false, appSecretSet: false, verifyTokenSet: false },
  emailConfigured: true,
  deadlineNoticeDays: 3,
};
const path = `/api${MESSAGE_ROUTES.providers.path}`;
let server: Awaited<ReturnType<typeof startApiServer>>;

beforeAll(async () => {
  server = await startApiServer({
    [`GET ${path}`]: () => ({ body: { data: stored } }),
    [`PUT ${path}`]: (req) => {
      const body = JSON.parse(req.body) as { deadlineNoticeDays: number };
      return { body: { data: { ...stored, deadlineNoticeDays: body.deadlineNoticeDays } } };
    },
  });
  pointSdkAt(server.url);
});
afterAll(() => server.close());

describe('messaging settings', () => {
  it("shows and saves the clients' deadline notice with the providers", async () => {
    captureToasts();
    signIn([]);
    renderScreen(<MessagingCard canEdit />);
    const days = await screen.findByLabelText("Clients' deadline notice");
    expect(days).toHaveValue('3');
    expect(await screen.findByText('3 days before the deadline')).toBeInTheDocument();
    fireEvent.change(days, { target: { value: '0' } });
    expect(await screen.findByText('Not sent')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save messaging settings' }));
    await waitFor(() => expect(server.calls('PUT', path)).toHaveLength(1));
    expect(JSON.parse(server.calls('PUT', path)[0]!.body)).toMatchObject({ deadlineNoticeDays: 0 });
  });
});
