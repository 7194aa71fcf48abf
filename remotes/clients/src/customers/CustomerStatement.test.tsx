import { render, screen, waitFor, within } from '@testing-library/react';
import { act } from 'react';
import { customers, type CustomerStatement } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { createQueryClient } from '@mizan/sdk';
import { recordElement } from '@mizan/ui';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { App, ConfigProvider } from 'antd';
import arEG from 'antd/locale/ar_EG';
import enUS from 'antd/locale/en_US';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { startClientsServer } from '../test/server';

jest.setTimeout(120_000);

let server: Awaited<ReturnType<typeof startClientsServer>>;
beforeEach(() => {
  localStorage.clear();
  captureToasts();
});
afterEach(async () => {
  server.close();
  await act(() => i18n.changeLanguage('ar'));
});

const STATEMENT: CustomerStatement = {
  customerId: 3,
  currency: 'SAR',
  opening: 0,
  entries: [
    {
      date: '2026-03-01',
      kind: 'invoice',
      id: 11,
      number: 'INV-2026-1',
      debit: 115_000,
      credit: 0,
      balance: 115_000,
      retainer: 0,
    },
    {
      date: '2026-03-05',
      kind: 'payment',
      id: 4,
      number: 'R-7',
      debit: 0,
      credit: 15_000,
      balance: 100_000,
      retainer: 0,
    },
  ],
  invoiced: 115_000,
  credited: 0,
  paid: 15_000,
  balance: 100_000,
  retainer: 0,
};

async function openTab(permissions: string[], lng: 'ar' | 'en' = 'ar') {
  await act(() => i18n.changeLanguage(lng));
  signIn(permissions);
  server = await startClientsServer([customers], {
    rows: { customers: [{ id: 3, name: 'أحمد إبراهيم علي', kind: 'person' }] },
    statement: () => STATEMENT,
  });
  pointSdkAt(server.url);
  render(
    <ConfigProvider
      direction={lng === 'ar' ? 'rtl' : 'ltr'}
      locale={lng === 'ar' ? arEG : enUS}
      wave={{ disabled: true }}
    >
      <App>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={[`${customers.route}/3?tab=statement`]}>
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

describe('client page: statement tab', () => {
  it('lists invoices and payments with the running balance, the sums and a print button (Arabic)', async () => {
    await openTab(['customers.view', 'invoices.view']);
    const panel = await screen.findByRole('region', { name: 'كشف الحساب' });
    expect(await within(panel).findByText('INV-2026-1')).toBeInTheDocument();
    expect(within(panel).getByText('فاتورة')).toBeInTheDocument();
    expect(within(panel).getByText('دفعة')).toBeInTheDocument();
    expect(within(panel).getAllByText('١٬٠٠٠٫٠٠').length).toBeGreaterThan(0);
    expect(within(panel).getByText(/حركتان/)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: /طباعة/ })).toBeEnabled();
    expect(within(panel).getByRole('button', { name: /تصدير/ })).toBeEnabled();
  });

  it('reads in English', async () => {
    await openTab(['customers.view', 'invoices.view'], 'en');
    const panel = await screen.findByRole('region', { name: 'Statement' });
    expect(await within(panel).findByText('Payment')).toBeInTheDocument();
    expect(within(panel).getByText(/2 entries · Amounts in SAR/)).toBeInTheDocument();
    expect(within(panel).getByRole('columnheader', { name: 'Balance due' })).toBeInTheDocument();
    await waitFor(() =>
      expect(server.calls('GET', '/api/admin/finance/customers/3/statement').length).toBe(1),
    );
  });

  it('is not shown without the permission to view invoices', async () => {
    await openTab(['customers.view']);
    expect(screen.queryByRole('tab', { name: 'كشف الحساب' })).not.toBeInTheDocument();
  });
});
