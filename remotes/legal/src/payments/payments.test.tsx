import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LAWSUIT_FEES_CHANGED, lawsuitPayments, lawsuits, LEGAL_ROUTES } from '@mizan/contracts';
import { recordElement } from '@mizan/ui';
import { connectFakeSocket } from '@mizan/ui/testing/fakeSocket';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { withId } from '../api';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { ALL_PERMISSIONS, BENCH, LAWSUIT, LEGAL_ENTITIES } from '../test/fixtures';
import { renderRoute, switchLanguage } from '../test/render';
import { startLegalServer, type LegalServer, type Row } from '../test/server';

jest.setTimeout(240_000);

let server: LegalServer;

/** 5,000.00 paid of the 15,000.00 agreed. */
const PAYMENT: Row = { id: 60, lawsuitId: 7, amount: 500_000, paidOn: '2026-02-01', method: 'cash' };

async function openPayments(rows: Record<string, Row[]> = {}) {
  server = await startLegalServer(LEGAL_ENTITIES, {
    rows: { ...BENCH, lawsuits: [LAWSUIT], lawsuitPayments: [PAYMENT], ...rows },
  });
  pointSdkAt(server.url);
  renderRoute(
    `${lawsuits.route}/7?tab=payments`,
    `${lawsuits.route}/:id`,
    recordElement(lawsuits, ENTITY_OVERRIDES.lawsuits),
  );
  return screen.findByRole('region', { name: /^(الأتعاب|Fees)$/ });
}
/** The figure under one title of the panel, as shown. */
const figure = (panel: HTMLElement, title: string) =>
  (within(panel).getByText(title).closest('.ant-statistic') as HTMLElement).querySelector(
    '.ant-statistic-content',
  )?.textContent;
const feeReads = () => server.to('GET', withId(LEGAL_ROUTES.lawsuitFees.path, 7));
const rowReads = () => server.to('GET', withId(LEGAL_ROUTES.lawsuitFeeRows.path, 7));

beforeEach(async () => {
  localStorage.clear();
  captureToasts();
  signIn(ALL_PERMISSIONS);
  await switchLanguage('ar');
});
afterEach(() => server.close());

describe('fees panel', () => {
  it('shows the figures as money in Arabic-Indic digits above the payments, and reads them again after a payment is saved', async () => {
    const panel = await openPayments();
    await waitFor(() => expect(figure(panel, 'الأتعاب المتفق عليها')).toBe('١٥٬٠٠٠٫٠٠'));
    expect(figure(panel, 'المدفوع')).toBe('٥٬٠٠٠٫٠٠');
    expect(figure(panel, 'المتبقي')).toBe('١٠٬٠٠٠٫٠٠');
    expect(figure(panel, 'المدفوع زيادةً')).toBe('٠٫٠٠');
    expect(within(panel).getByRole('progressbar', { name: 'نسبة التحصيل' })).toHaveAttribute(
      'aria-valuenow',
      '33',
    );
    expect(within(panel).getByText(/٣٣٪/)).toBeInTheDocument();
    // The payments list under it, without the lawsuit column.
    expect(await screen.findByRole('columnheader', { name: 'رقم الإيصال' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'الدعوى' })).toBeNull();
    // One row per payment that counts, with where it came from.
    const table = screen.getByRole('table', { name: 'المدفوع من الأتعاب' });
    expect(await within(table).findByText('سجل الأتعاب')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'المصدر' })).toBeInTheDocument();
    const reads = feeReads().length;

    fireEvent.click(screen.getByRole('button', { name: /إضافة دفعة/ }));
    const drawer = (await screen.findByText('إضافة دفعة', { selector: '.ant-drawer-title' })).closest(
      '.ant-drawer',
    ) as HTMLElement;
    const item = (label: string) =>
      within(drawer).getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;
    fireEvent.change(within(item('المبلغ')).getByRole('spinbutton'), { target: { value: '2500' } });
    const date = within(item('تاريخ الدفع')).getByRole('textbox');
    fireEvent.mouseDown(date);
    fireEvent.change(date, { target: { value: '3/1/2026' } });
    fireEvent.keyDown(date, { key: 'Enter', code: 'Enter' });
    fireEvent.click(within(drawer).getByRole('button', { name: /حفظ/ }));

    await waitFor(() => expect(server.to('POST', lawsuitPayments.path)).toHaveLength(1));
    expect(server.body(server.to('POST', lawsuitPayments.path)[0]!)).toMatchObject({
      lawsuitId: 7,
      amount: 250_000,
      paidOn: '2026-03-01',
    });
    await waitFor(() => expect(figure(panel, 'المدفوع')).toBe('٧٬٥٠٠٫٠٠'));
    expect(figure(panel, 'المتبقي')).toBe('٧٬٥٠٠٫٠٠');
    expect(within(panel).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    expect(feeReads().length).toBeGreaterThan(reads);
  });

  it('reads in English left to right, and says when no fee is agreed', async () => {
    await switchLanguage('en');
    const panel = await openPayments({ lawsuits: [{ ...LAWSUIT, agreedFee: null }] });
    await waitFor(() => expect(figure(panel, 'Paid')).toBe('5,000.00'));
    expect(figure(panel, 'Agreed fee')).toBe('0.00');
    expect(figure(panel, 'Overpaid')).toBe('5,000.00');
    expect(within(panel).queryByRole('progressbar')).toBeNull();
    expect(within(panel).getByText(/No agreed fee is recorded/)).toBeInTheDocument();
    expect(document.querySelector('.ant-card-rtl')).toBeNull();
  });

  it('reads its rows and figures again when a payment of the lawsuit is recorded under Finance, in another browser', async () => {
    const live = await connectFakeSocket();
    try {
      const panel = await openPayments();
      await waitFor(() => expect(figure(panel, 'المدفوع')).toBe('٥٬٠٠٠٫٠٠'));
      await waitFor(() =>
        expect(live.socket.sent).toContainEqual({ type: 'subscribe', channel: lawsuitPayments.name }),
      );
      const reads = rowReads().length;
      // Someone else's payment of 1,000.00 towards the lawsuit (the stand-in server lists it as a row).
      server.store.get('lawsuitPayments')!.push({
        id: 61,
        lawsuitId: 7,
        amount: 100_000,
        paidOn: '2026-03-05',
        method: 'bankTransfer',
      });
      live.event(lawsuitPayments.name, LAWSUIT_FEES_CHANGED, { lawsuitId: 7 });
      await waitFor(() => expect(figure(panel, 'المدفوع')).toBe('٦٬٠٠٠٫٠٠'));
      await waitFor(() => expect(rowReads().length).toBeGreaterThan(reads));
      const table = screen.getByRole('table', { name: 'المدفوع من الأتعاب' });
      await waitFor(() => expect(within(table).getAllByText('سجل الأتعاب')).toHaveLength(2));
    } finally {
      live.restore();
    }
  });
});
