import { AREA_PERMISSIONS, DEFAULT_THEME_CONFIG, type Dashboard } from '@mizan/contracts';
import { queryClient, sdkStore } from '@mizan/sdk';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { DashboardPage } from '../pages/DashboardPage';
import { SETTINGS_ANSWER, serveApiForFile, type Answer } from '../test/apiServer';
import { makeUser, resetPage, signIn } from '../test/renderApp';
import { ThemeProvider } from '../theme/ThemeProvider';
import { themeConfigAtom } from '../theme/themeConfig';
import { setPlatformAPI } from 'echarts/core';
import { monthLabel } from './format';
import { prefetchDashboardOnSignIn } from './prefetch';

// jsdom has no canvas to measure chart text with: an estimate stands in (the browser measures).
setPlatformAPI({ measureText: (text = '') => ({ width: text.length * 7 }) });

const FULL: Dashboard = {
  counts: { customers: 12, lawsuits: 5, employees: 4, sessions: 9, activeLawsuits: 3, completedLawsuits: 2 },
  rates: { successRate: 67 },
  upcomingSessions: [
    {
      id: 7,
      date: '2026-06-20',
      time: '10:00',
      lawsuit: { id: 3, fileNumber: '2026/0003' },
      court: { id: 1, name: 'North Cairo Court' },
      lawyer: { id: 2, name: 'Lawyer Two' },
    },
  ],
  recentLawsuits: [
    {
      id: 3,
      fileNumber: '2026/0003',
      filingDate: '2026-04-05',
      state: 'active',
      court: { id: 1, name: 'North Cairo Court' },
      lawsuitCase: { id: 4, name: 'First instance', outcome: 'ongoing' },
      createdAt: '2026-04-05T08:00:00.000Z',
    },
  ],
  lawsuitStatusDistribution: [
    { lawsuitCaseId: 4, name: 'First instance', color: '#1d4ed8', outcome: 'ongoing', count: 3 },
    { lawsuitCaseId: null, name: null, color: null, outcome: null, count: 2 },
  ],
  monthlyLawsuitTrend: Array.from({ length: 12 }, (_, i) => ({
    month: `2025-${String(i + 1).padStart(2, '0')}`,
    count: i % 3,
  })),
  courtTypeDistribution: [
    { courtType: 'criminal', count: 3 },
    { courtType: null, count: 2 },
  ],
  employeePerformance: [
    {
      employeeId: 2,
      name: 'Lawyer Two',
      lawsuits: 3,
      won: 1,
      lost: 1,
      hearings: 4,
      hearingsAttended: 2,
      tasksDone: 0,
    },
  ],
  financialStatistics: { totalFees: 180_000, paidFees: 111_000, pendingFees: 70_000, collectionRate: 62 },
  invoicing: {
    revenue: 550_000,
    collected: 100_000,
    unbilled: 35_000,
    receivables: 450_000,
    overdue: 20_000,
  },
};

const {
  employeePerformance: _performance,
  financialStatistics: _fees,
  invoicing: _invoicing,
  ...PLAIN
} = FULL;

const everything = makeUser([
  AREA_PERMISSIONS.dashboardView,
  AREA_PERMISSIONS.dashboardPerformance,
  'lawsuits.view',
  'sessions.view',
  'customers.view',
  'employees.view',
  AREA_PERMISSIONS.dashboardFinance,
]);
const viewerOnly = makeUser([AREA_PERMISSIONS.dashboardView]);

let dashboardAnswer: Answer = { body: { data: FULL } };
let user = everything;
const api = serveApiForFile({
  'GET /api/auth/systemSettings': SETTINGS_ANSWER,
  'POST /api/auth/check': () => ({ body: { data: { user, token: 'test-token' } } }),
  'GET /api/admin/dashboard': () => dashboardAnswer,
});
const dashboardCalls = () => api.server!.calls('GET', '/api/admin/dashboard');

/** The dashboard page alone (the shell's providers, no layout), signed in as `as`, in `locale`. */
async function open(path = '/admin/dashboard', as = everything, locale: 'en' | 'ar' = 'en') {
  user = as;
  await resetPage();
  sdkStore.set(themeConfigAtom, {
    ...DEFAULT_THEME_CONFIG,
    locale,
    direction: locale === 'ar' ? 'rtl' : 'ltr',
  });
  await signIn(as);
  await renderPage(path);
}

/** The page rendered with the session and query cache as they are. */
async function renderPage(path: string) {
  await act(async () => {
    render(
      <JotaiProvider store={sdkStore}>
        <QueryClientProvider client={queryClient}>
          <ThemeProvider>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                <Route path="/admin/dashboard" element={<DashboardPage />} />
              </Routes>
            </MemoryRouter>
          </ThemeProvider>
        </QueryClientProvider>
      </JotaiProvider>,
    );
  });
}

const figure = (key: string) => screen.findByTestId(`figure-${key}`);

describe('dashboard page', () => {
  beforeEach(() => {
    dashboardAnswer = { body: { data: FULL } };
  });

  it('shows the counts and rates as cards, each opening its filtered list', async () => {
    await open('/admin/dashboard?from=2026-01-01&to=2026-03-31&branchId=2');
    expect(await figure('lawsuits')).toHaveTextContent('5');
    expect(await figure('successRate')).toHaveTextContent('67%');
    const active = await figure('activeLawsuits');
    expect(active).toHaveTextContent('3');
    expect(active.closest('a')).toHaveAttribute(
      'href',
      '/admin/lawsuits?branchId=2&filedFrom=2026-01-01&filedTo=2026-03-31&state=active',
    );
    expect((await figure('sessions')).closest('a')).toHaveAttribute(
      'href',
      '/admin/lawsuits/sessions?from=2026-01-01&to=2026-03-31',
    );
    expect((await figure('customers')).closest('a')).toHaveAttribute('href', '/admin/customers?branchId=2');
    // The filter of the URL is the filter of the call.
    const call = dashboardCalls().at(-1)!;
    expect(Object.fromEntries(call.query)).toEqual({ from: '2026-01-01', to: '2026-03-31', branchId: '2' });
  });

  it('lists the upcoming hearings and recent lawsuits linking to their record pages', async () => {
    await open();
    const hearing = await screen.findByTestId('upcoming-session');
    expect(within(hearing).getByRole('link')).toHaveAttribute('href', '/admin/lawsuits/sessions/7');
    expect(hearing).toHaveTextContent('Lawsuit 2026/0003');
    expect(hearing).toHaveTextContent('Lawyer Two');
    // Its day in both calendars, as everywhere else, not the first calendar alone.
    const day = hearing.querySelector('.mizan-dual-date')!;
    expect(day.querySelectorAll('bdi')).toHaveLength(2);
    const lawsuit = await screen.findByTestId('recent-lawsuit');
    expect(within(lawsuit).getByRole('link', { name: '2026/0003' })).toHaveAttribute(
      'href',
      '/admin/lawsuits/3',
    );
    expect(lawsuit).toHaveTextContent('First instance');
  });

  it('shows fees and lawyers to a user holding their permissions', async () => {
    await open();
    const fees = await figure('fees');
    expect(fees).toHaveTextContent('1,800.00');
    expect(fees).toHaveTextContent('62%');
    const invoicing = await figure('invoicing');
    expect(invoicing).toHaveTextContent('Net revenue5,500.00');
    expect(invoicing).toHaveTextContent('Owed by clients4,500.00');
    const performance = await figure('performance');
    expect(performance).toHaveTextContent('Lawyer Two');
  });

  it('leaves out fees and lawyers when the answer has none (a user without those permissions)', async () => {
    dashboardAnswer = { body: { data: PLAIN } };
    await open('/admin/dashboard', viewerOnly);
    expect(await figure('lawsuits')).toHaveTextContent('5');
    expect(screen.queryByTestId('figure-fees')).toBeNull();
    expect(screen.queryByTestId('figure-invoicing')).toBeNull();
    expect(screen.queryByTestId('figure-performance')).toBeNull();
    // Without the list's permission a card is a figure, not a link.
    expect((await figure('lawsuits')).closest('a')).toBeNull();
  });

  it('draws the charts in their own chunk', async () => {
    await open();
    // The chunk's first load in a test worker compiles ECharts: give it time.
    expect(
      await screen.findByRole('img', { name: 'Lawsuits filed per month' }, { timeout: 45_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Lawsuits by case' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Lawsuits by type of court' })).toBeInTheDocument();
  }, 90_000);

  it('shows the all-zero fallback when the call fails, and the figures after a retry', async () => {
    dashboardAnswer = { status: 404, body: { message: 'Not found' } };
    await open();
    const fallback = await screen.findByTestId('dashboard-fallback');
    expect(await figure('lawsuits')).toHaveTextContent('0');
    expect(await figure('successRate')).toHaveTextContent('0%');
    expect(screen.queryByTestId('upcoming-session')).toBeNull();
    dashboardAnswer = { body: { data: FULL } };
    fireEvent.click(within(fallback).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByTestId('dashboard-fallback')).toBeNull());
    expect(await figure('lawsuits')).toHaveTextContent('5');
  });

  it('asks for the figures the moment a user is signed in on the way to it; the page reads them from the cache', async () => {
    await resetPage();
    const at = (href: string) => new URL(href, 'http://office.test') as unknown as Location;
    const stops = [
      prefetchDashboardOnSignIn(at('/login?redirect=/admin/lawsuits')),
      prefetchDashboardOnSignIn(at('/admin/customers')),
    ];
    const before = dashboardCalls().length;
    // Not bound for the dashboard: nothing asked.
    await signIn(everything);
    await resetPage();
    stops.push(prefetchDashboardOnSignIn(at('/login')));
    // Without dashboard.view: nothing asked either.
    await signIn(makeUser(['lawsuits.view']));
    await resetPage();
    expect(dashboardCalls()).toHaveLength(before);
    await signIn(everything);
    await waitFor(() => expect(dashboardCalls()).toHaveLength(before + 1));
    expect(Object.fromEntries(dashboardCalls().at(-1)!.query)).toEqual({});
    await waitFor(() => expect(queryClient.getQueryData(['dashboard', {}])).toEqual(FULL));
    await renderPage('/admin/dashboard');
    expect(await figure('lawsuits')).toHaveTextContent('5');
    expect(dashboardCalls()).toHaveLength(before + 1);
    stops.forEach((stop) => stop());
  });

  it('reads in Arabic with Arabic-Indic digits and Arabic month names', async () => {
    await open('/admin/dashboard', everything, 'ar');
    expect(await figure('lawsuits')).toHaveTextContent('٥');
    expect(await figure('successRate')).toHaveTextContent('٦٧٪');
    expect(monthLabel('2026-01', 'ar')).toMatch(/يناير/);
    expect(monthLabel('2026-01', 'ar')).toMatch(/٢٠٢٦/);
  });
});
