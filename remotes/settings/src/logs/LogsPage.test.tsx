import { AREA_PERMISSIONS, LOG_ROUTES } from '@mizan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { LogsPage } from './LogsPage';
import type { DayStats, ErrorGroup, LogEntry, RouteStat } from './types';

const base = `/api${LOG_ROUTES.latest.path}`;

/** A day as the server's log reader summarises it (server/src/system/logs/analysis.ts). */
const stats: DayStats & { date: string } = {
  date: '2026-11-21',
  lines: 130,
  totals: { requests: 120, errors: 6, clientErrors: 4, avgDuration: 12.5 },
  hours: Array.from({ length: 24 }, (_, hour) => ({
    hour,
    requests: hour === 9 ? 80 : hour === 10 ? 40 : 0,
    errors: hour === 10 ? 6 : 0,
    clientErrors: 0,
    avgDuration: null,
  })),
  levels: [
    { level: 'info', value: 30, count: 110 },
    { level: 'warn', value: 40, count: 14 },
    { level: 'error', value: 50, count: 6 },
  ],
};
const routeStats: RouteStat[] = [
  {
    method: 'GET',
    route: '/api/admin/settings/courts/courts',
    count: 90,
    errors: 0,
    clientErrors: 1,
    errorRate: 0,
    p50: 4,
    p95: 18.4,
    avgDuration: 6,
    maxDuration: 30,
  },
  {
    method: 'POST',
    route: '/api/admin/lawsuits',
    count: 30,
    errors: 6,
    clientErrors: 3,
    errorRate: 0.2,
    p50: 20,
    p95: 95,
    avgDuration: 30,
    maxDuration: 120,
  },
];
const errorGroups: ErrorGroup[] = [
  {
    message: 'SQLITE_BUSY: database is locked',
    route: '/api/admin/lawsuits',
    type: 'SqliteError',
    count: 6,
    firstSeen: '2026-11-21T10:01:00.000Z',
    lastSeen: '2026-11-21T10:40:00.000Z',
    statusCodes: [500],
    lastStack: 'SqliteError: database is locked\n    at insert',
    lastReqId: 'req-9',
  },
];
const entry = (line: number, level: string, msg: string): LogEntry => ({
  line,
  time: '2026-11-21T10:01:00.000Z',
  level,
  levelValue: level === 'error' ? 50 : 30,
  msg,
  reqId: `req-${line}`,
  method: 'POST',
  url: '/api/admin/lawsuits',
  route: '/api/admin/lawsuits',
  statusCode: level === 'error' ? 500 : 201,
  responseTime: 20,
  err: level === 'error' ? { message: 'SQLITE_BUSY: database is locked', type: 'SqliteError' } : null,
  context: null,
});

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer({
    [`GET ${base}/dates`]: () => ({
      body: {
        data: [
          { date: '2026-11-21', combined: 2048, error: 512 },
          { date: '2026-11-20', combined: 1024, error: null },
        ],
      },
    }),
    [`GET ${base}/levels`]: () => ({ body: { data: stats.levels } }),
    [`GET ${base}/stats`]: () => ({ body: { data: stats } }),
    [`GET ${base}/route-stats`]: () => ({ body: { data: routeStats } }),
    [`GET ${base}/error-analysis`]: () => ({ body: { data: errorGroups } }),
    [`GET ${base}/paginated`]: (req) => {
      const level = req.query.get('level');
      const items = [entry(2, 'error', 'request failed'), entry(1, 'info', 'request completed')].filter(
        (e) => !level || e.level === level,
      );
      return { body: { data: { items, total: items.length, page: 1, pageSize: 20 } } };
    },
  });
  pointSdkAt(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
  captureToasts();
  signIn([AREA_PERMISSIONS.logsView]);
});

describe('LogsPage', () => {
  it('opens on the newest day and shows its totals and the hourly chart', async () => {
    renderScreen(<LogsPage />);
    await screen.findByRole('img', { name: 'Requests and errors by hour (UTC)' });
    const statistic = (title: string) =>
      screen
        .getByText(title, { selector: '.ant-statistic-header *, .ant-statistic-title' })
        .closest('.ant-statistic')?.textContent;
    expect(statistic('Requests')).toBe('Requests120');
    expect(statistic('Errors')).toBe('Errors6');
    // 6 errors of 120 requests.
    expect(statistic('Error rate')).toBe('Error rate5.0%');
    const chart = screen.getByRole('img', { name: 'Requests and errors by hour (UTC)' });
    const bar = (id: string) => within(chart).getByTestId(id);
    expect(bar('bar-requests-09:00')).toHaveAttribute('title', '09:00 · Requests: 80');
    expect(bar('bar-errors-10:00')).toHaveAttribute('title', '10:00 · Errors: 6');
    // Bars are drawn against the busiest hour: 80 is the full height, 40 half of it, none empty.
    expect(bar('bar-requests-09:00').style.height).toBe('100%');
    expect(bar('bar-requests-10:00').style.height).toBe('50%');
    expect(bar('bar-requests-03:00').style.height).toBe('0%');
    expect(screen.getByText('Warning: 14')).toBeInTheDocument();
    expect(server.calls('GET', `${base}/stats`)[0]?.query.get('date')).toBe('2026-11-21');
  });

  it('lists the routes with error rate and p50/p95', async () => {
    renderScreen(<LogsPage />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Routes' }));
    const row = (await screen.findByText('POST /api/admin/lawsuits')).closest('tr') as HTMLElement;
    expect(within(row).getByText('20%')).toBeInTheDocument();
    expect(within(row).getByText('20 ms')).toBeInTheDocument();
    expect(within(row).getByText('95 ms')).toBeInTheDocument();
  });

  it('groups errors by message and route', async () => {
    renderScreen(<LogsPage />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Error analysis' }));
    const row = (await screen.findByText('SQLITE_BUSY: database is locked')).closest('tr') as HTMLElement;
    expect(within(row).getByText('/api/admin/lawsuits')).toBeInTheDocument();
    expect(within(row).getByText('500')).toBeInTheDocument();
  });

  it('pages the entries of the day and filters them by level', async () => {
    renderScreen(<LogsPage />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Entries' }));
    expect(await screen.findByText('request completed')).toBeInTheDocument();
    const first = server.calls('GET', `${base}/paginated`)[0]!;
    expect(Object.fromEntries(first.query)).toEqual({ date: '2026-11-21', page: '1', pageSize: '20' });

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Level' }));
    fireEvent.click(await screen.findByTitle('Error'));
    await waitFor(() => expect(screen.queryByText('request completed')).toBeNull());
    expect(screen.getByText('SQLITE_BUSY: database is locked')).toBeInTheDocument();
    const filtered = server.calls('GET', `${base}/paginated`).at(-1)!;
    expect(filtered.query.get('level')).toBe('error');
    expect(filtered.query.get('page')).toBe('1');
  });
});
