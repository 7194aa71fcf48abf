import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { API_BASE, FINANCE_REPORTS, branches, customers, type ReportAnswer } from '@mizan/contracts';
import { startApiServer, type TestServer } from '@mizan/sdk/testing/apiServer';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { ALL_PERMISSIONS } from '../test/fixtures';
import { renderRoute, switchLanguage } from '../test/render';
import { ReportPage } from './ReportPage';

jest.setTimeout(120_000);

const report = FINANCE_REPORTS.revenueByMonth;
const ANSWER: ReportAnswer = {
  currency: 'SAR',
  from: '2026-01-01',
  to: null,
  rows: [
    { month: '2026-01', invoiced: 100_000, credited: 0, revenue: 100_000, vat: 15_000, collected: 50_000 },
    { month: '2026-02', invoiced: 20_000, credited: 5_000, revenue: 15_000, vat: 2_250, collected: 0 },
  ],
  totals: { invoiced: 120_000, credited: 5_000, revenue: 115_000, vat: 17_250, collected: 50_000 },
};

const BRANCHES = [
  { id: 2, name: 'فرع الدقي' },
  { id: 3, name: 'فرع جدة' },
];

let server: TestServer;
beforeEach(async () => {
  localStorage.clear();
  captureToasts();
  signIn(ALL_PERMISSIONS);
  server = await startApiServer({
    [`GET ${API_BASE}${report.path}`]: { body: { data: ANSWER } },
    [`GET ${API_BASE}${branches.path}`]: {
      body: { data: { items: BRANCHES, total: BRANCHES.length, page: 1, pageSize: 20 } },
    },
    ...Object.fromEntries(
      BRANCHES.map((branch) => [`GET ${API_BASE}${branches.path}/${branch.id}`, { body: { data: branch } }]),
    ),
  });
  pointSdkAt(server.url);
});
afterEach(() => server.close());

const open = () => renderRoute(`${report.path}?from=2026-01-01`, report.path, <ReportPage report={report} />);

describe('a finance report', () => {
  it('shows its rows, money in the language, the totals and the count with plural agreement (Arabic)', async () => {
    await switchLanguage('ar');
    open();
    expect(await screen.findByRole('heading', { name: 'الإيرادات حسب الشهر' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getByText('يناير ٢٠٢٦')).toBeInTheDocument());
    expect(within(table).getAllByText('١٬٠٠٠٫٠٠').length).toBeGreaterThan(0);
    expect(within(table).getByText('الإجمالي')).toBeInTheDocument();
    expect(within(table).getByText('١٬١٥٠٫٠٠')).toBeInTheDocument();
    expect(screen.getByText(/^سطران · المبالغ بعملة SAR$/)).toBeInTheDocument();
    // The filter in the address went to the server.
    expect(server.calls('GET', `${API_BASE}${report.path}`)[0]!.query.get('from')).toBe('2026-01-01');
  });

  it('reads in English too, with its export button', async () => {
    await switchLanguage('en');
    open();
    expect(await screen.findByRole('heading', { name: 'Revenue by month' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('February 2026')).toBeInTheDocument());
    expect(screen.getByText('2 lines · amounts in SAR')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Net revenue' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Export/ })).toBeEnabled();
  });

  it('says so when the range starts after it ends, and asks the server nothing (the shared range filter)', async () => {
    await switchLanguage('ar');
    renderRoute(`${report.path}?from=2026-05-01&to=2026-04-01`, report.path, <ReportPage report={report} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('يجب ألا يقع تاريخ البداية بعد تاريخ النهاية');
    expect(screen.getByLabelText('من تاريخ')).toBeInTheDocument();
    expect(screen.getByLabelText('إلى تاريخ')).toBeInTheDocument();
    expect(server.calls('GET', `${API_BASE}${report.path}`)).toHaveLength(0);
    // The client picker's list asked (nothing left in flight when the server stops).
    await waitFor(() => expect(server.calls('GET', `${API_BASE}${customers.path}`)).toHaveLength(1));
  });

  it('sends the branch of the address, and the one picked, keeping the other filters', async () => {
    await switchLanguage('ar');
    signIn([...ALL_PERMISSIONS, 'branches.view']);
    const { location } = renderRoute(
      `${report.path}?from=2026-01-01&branchId=2`,
      report.path,
      <ReportPage report={report} />,
    );
    const calls = () => server.calls('GET', `${API_BASE}${report.path}`);
    await waitFor(() => expect(calls()).toHaveLength(1));
    expect(Object.fromEntries(calls()[0]!.query)).toEqual({ from: '2026-01-01', branchId: '2' });
    const picker = screen.getByRole('combobox', { name: 'الفرع' });
    // The address's branch shown by name.
    expect(
      await screen.findByText('فرع الدقي', { selector: '.ant-select-content *, .ant-select-content' }),
    ).toBeInTheDocument();
    fireEvent.mouseDown(picker);
    fireEvent.click(await screen.findByText('فرع جدة', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(calls().at(-1)!.query.get('branchId')).toBe('3'));
    expect(calls().at(-1)!.query.get('from')).toBe('2026-01-01');
    expect(location()).toContain('branchId=3');
    // Its answer shown (nothing left in flight when the server stops).
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
  });

  it('offers no branch picker without the right to see branches', async () => {
    await switchLanguage('ar');
    open();
    expect(await screen.findByText('يناير ٢٠٢٦')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'الفرع' })).not.toBeInTheDocument();
  });
});
