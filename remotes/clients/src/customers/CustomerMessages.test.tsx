import { fireEvent, screen, waitFor, within, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { customers, lawsuits, type CustomerMessage } from '@mizan/contracts';
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
  server = await startClientsServer([customers, lawsuits], {
    rows: {
      customers: [{ id: 3, name: 'أحمد إبراهيم علي', kind: 'person' }],
      lawsuits: [
        { id: 7, fileNumber: 'ق-٢٠٢٦-٠٠٧', customerIds: [3] },
        { id: 8, fileNumber: 'ق-٢٠٢٦-٠٠٨', customerIds: [4] },
      ],
    },
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

  it("sends a message about one of the client's lawsuits, offered only the client's", async () => {
    await openTab(['customers.view', 'customers.update', 'lawsuits.view']);
    const panel = screen.getByRole('tabpanel');
    fireEvent.mouseDown(await within(panel).findByRole('combobox', { name: 'الدعوى' }));
    const option = await screen.findByText('ق-٢٠٢٦-٠٠٧', { selector: '.ant-select-item-option-content' });
    expect(screen.queryByText('ق-٢٠٢٦-٠٠٨', { selector: '.ant-select-item-option-content' })).toBeNull();
    await userEvent.click(option);
    await userEvent.type(within(panel).getByLabelText('نص الرسالة'), 'موعدكم غدا');
    await userEvent.click(within(panel).getByRole('button', { name: 'إرسال' }));
    await waitFor(() => expect(server.calls('POST', '/api/admin/customers/3/messages')).toHaveLength(1));
    const sent = server.calls('POST', '/api/admin/customers/3/messages').at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({ channel: 'sms', body: 'موعدكم غدا', lawsuitId: 7 });
  });
});
