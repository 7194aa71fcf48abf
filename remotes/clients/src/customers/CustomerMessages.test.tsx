import { screen, within, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { customers, type CustomerMessage } from '@mizan/contracts';
import { recordElement } from '@mizan/ui';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { App, ConfigProvider } from 'antd';
import arEG from 'antd/locale/ar_EG';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createQueryClient } from '@mizan/sdk';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { startClientsServer, type ClientsServerSpec } from '../test/server';

let server: Awaited<ReturnType<typeof startClientsServer>>;

beforeEach(() => {
  localStorage.clear();
  captureToasts();
});
afterEach(() => server.close());

const waiting: CustomerMessage = {
  id: 9,
  customerId: 3,
  lawsuitId: null,
  event: 'hearingPostponed',
  channel: 'whatsapp',
  to: '+201001234567',
  subject: null,
  body: 'تأجلت الجلسة',
  state: 'queued',
  reason: 'HTTP 503: service unavailable',
  attempts: 1,
  providerId: null,
  createdBy: null,
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-01T09:00:00.000Z',
};

async function openTab(permissions: string[], spec: ClientsServerSpec = {}) {
  signIn(permissions);
  server = await startClientsServer([customers], {
    rows: { customers: [{ id: 3, name: 'أحمد إبراهيم علي', kind: 'person' }] },
    ...spec,
  });
  pointSdkAt(server.url);
  render(
    <ConfigProvider direction="rtl" locale={arEG} wave={{ disabled: true }}>
      <App>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={[`${customers.route}/3?tab=messages`]}>
            <Routes>
              <Route
                path={`${customers.route}/:id`}
                element={recordElement(customers, ENTITY_OVERRIDES.customers)}
              />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
  await screen.findByRole('heading', { name: 'أحمد إبراهيم علي' });
}

describe('client page: communications tab', () => {
  it("lists the client's messages with their state and the provider's reason", async () => {
    await openTab(['customers.view'], { messages: [waiting] });
    const panel = screen.getByRole('tabpanel');
    expect(await within(panel).findByText('تأجلت الجلسة')).toBeInTheDocument();
    expect(within(panel).getByText('في الانتظار')).toBeInTheDocument();
    expect(within(panel).getByText('HTTP 503: service unavailable')).toBeInTheDocument();
    // Without the permission to edit the client, no form to send.
    expect(within(panel).queryByRole('button', { name: 'إرسال' })).not.toBeInTheDocument();
  });

  it("sends a one-off message, and shows the server's refusal on its field", async () => {
    await openTab(['customers.view', 'customers.update'], {
      sendMessage: () => ({
        status: 422,
        body: { message: 'خطأ', errors: { channel: ['لم يوافق الموكل على المراسلة عبر هذه القناة'] } },
      }),
    });
    const panel = screen.getByRole('tabpanel');
    await userEvent.type(await within(panel).findByLabelText('نص الرسالة'), 'موعدكم غدا');
    await userEvent.click(within(panel).getByRole('button', { name: 'إرسال' }));
    expect(await within(panel).findByText('لم يوافق الموكل على المراسلة عبر هذه القناة')).toBeInTheDocument();
    const sent = server.calls('POST', '/api/admin/customers/3/messages').at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({ channel: 'sms', body: 'موعدكم غدا' });
  });
});
