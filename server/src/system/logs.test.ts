import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AREA_PERMISSIONS } from '@mizan/contracts';
import { createTestApp, type Session, type TestApp } from '../test/harness';
import { percentile, SummaryCache } from './logs/analysis';
import { signInWith } from './testing/users';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const LOGS = '/api/admin/settings/system/logsSystem';
const DAY = '2026-01-15';
const EARLIER = '2026-01-14';

type Line = Record<string, unknown>;

const at = (hour: number, minute = 0) =>
  `${DAY}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;
const request = (
  hour: number,
  minute: number,
  route: string,
  statusCode: number,
  responseTime: number,
  extra: Line = {},
): Line => ({
  level: statusCode >= 500 ? 50 : statusCode >= 400 ? 40 : 30,
  time: at(hour, minute),
  pid: 1,
  hostname: 'test',
  reqId: `req-${hour}-${minute}-${responseTime}`,
  method: 'GET',
  url: route.replace(':id', '7'),
  route,
  statusCode,
  responseTime,
  msg: statusCode >= 500 ? 'request failed' : 'request completed',
  ...extra,
});

/**
 * The day's generated lines (what logging/logger.ts writes):
 * - 09:00–09:19: 20 requests to /api/a with durations 1..20 ms, all 200;
 * - 10:00–10:03: /api/b/:id: 200 (10 ms), 404 (20 ms), 500 (30 ms, "Database locked"), 500 (60 ms, same);
 * - 11:30: a 500 on /api/a ("Boom");
 * - 12:00: an error without a request ("mail failed"), a debug line; a torn line at the end.
 */
function generate(): { combined: Line[]; error: Line[] } {
  const combined: Line[] = [];
  for (let i = 1; i <= 20; i++) combined.push(request(9, i - 1, '/api/a', 200, i));
  const locked = {
    err: { type: 'Error', message: 'Database locked', stack: 'Error: Database locked\n    at x' },
  };
  combined.push(request(10, 0, '/api/b/:id', 200, 10));
  combined.push(request(10, 1, '/api/b/:id', 404, 20));
  combined.push(request(10, 2, '/api/b/:id', 500, 30, locked));
  combined.push(request(10, 3, '/api/b/:id', 500, 60, locked));
  combined.push(request(11, 30, '/api/a', 500, 5, { err: { type: 'TypeError', message: 'Boom' } }));
  combined.push({
    level: 50,
    time: at(12),
    pid: 1,
    hostname: 'test',
    msg: 'mail failed',
    err: { type: 'Error', message: 'SMTP down' },
  });
  combined.push({
    level: 20,
    time: at(12, 1),
    pid: 1,
    hostname: 'test',
    msg: 'debug detail',
    module: 'mail',
  });
  return { combined, error: combined.filter((l) => Number(l.level) >= 50) };
}

function write(dir: string, date: string, type: string, lines: Line[], tail = '') {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `${date}-${type}.log`),
    lines.map((l) => JSON.stringify(l)).join('\n') + '\n' + tail,
  );
}

describe('system logs', () => {
  let t: TestApp;
  let admin: Session;
  let dir: string;
  const lines = generate();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    dir = path.join(t.config.dataDir, 'logs');
    write(dir, DAY, 'combined', lines.combined, '{"level":30,"time":"2026-01-15T23:59');
    write(dir, DAY, 'error', lines.error);
    write(dir, EARLIER, 'combined', [request(8, 0, '/api/a', 200, 3)]);
  });
  afterAll(() => t.close());

  const get = (url: string, session: Session = admin) =>
    t.app.inject({ method: 'GET', url, headers: session.headers });

  it('lists the days with files, newest first, with their sizes', async () => {
    const res = await get(`${LOGS}/dates`);
    expect(res.statusCode).toBe(200);
    const dates = res.json().data as { date: string; combined: number | null; error: number | null }[];
    // Today's file, written by the app itself, comes first.
    expect(dates.map((d) => d.date)).toEqual([...dates.map((d) => d.date)].sort().reverse());
    const day = dates.find((d) => d.date === DAY)!;
    expect(day.combined).toBe(fs.statSync(path.join(dir, `${DAY}-combined.log`)).size);
    expect(day.error).toBe(fs.statSync(path.join(dir, `${DAY}-error.log`)).size);
    expect(dates.find((d) => d.date === EARLIER)).toMatchObject({ error: null });
  });

  it('computes requests, errors and mean durations per hour', async () => {
    const res = await get(`${LOGS}/stats?date=${DAY}`);
    expect(res.statusCode).toBe(200);
    const { hours, totals, levels, lines: count, date } = res.json().data;
    expect(date).toBe(DAY);
    expect(count).toBe(27);
    expect(levels).toHaveLength(4);
    expect(hours).toHaveLength(24);
    expect(hours[9]).toEqual({ hour: 9, requests: 20, errors: 0, clientErrors: 0, avgDuration: 10.5 });
    expect(hours[10]).toEqual({ hour: 10, requests: 4, errors: 2, clientErrors: 1, avgDuration: 30 });
    expect(hours[11]).toEqual({ hour: 11, requests: 1, errors: 1, clientErrors: 0, avgDuration: 5 });
    expect(hours[12]).toEqual({ hour: 12, requests: 0, errors: 1, clientErrors: 0, avgDuration: null });
    expect(hours[0]).toEqual({ hour: 0, requests: 0, errors: 0, clientErrors: 0, avgDuration: null });
    expect(totals).toEqual({
      requests: 25,
      errors: 4,
      clientErrors: 1,
      avgDuration: Math.round(((210 + 120 + 5) / 25) * 100) / 100,
    });
  });

  it('gives each route its count, error rate and p50/p95', async () => {
    const res = await get(`${LOGS}/route-stats?date=${DAY}`);
    expect(res.statusCode).toBe(200);
    const routes = res.json().data as Record<string, unknown>[];
    const a = routes.find((r) => r.route === '/api/a')!;
    // Durations 1..20 and 5: nearest rank p50 of 21 values is the 11th (10), p95 the 20th (19).
    expect(a).toEqual({
      method: 'GET',
      route: '/api/a',
      count: 21,
      errors: 1,
      clientErrors: 0,
      errorRate: 0.0476,
      p50: 10,
      p95: 19,
      avgDuration: 10.24,
      maxDuration: 20,
    });
    const b = routes.find((r) => r.route === '/api/b/:id')!;
    expect(b).toMatchObject({
      count: 4,
      errors: 2,
      clientErrors: 1,
      errorRate: 0.5,
      p50: 20,
      p95: 60,
      maxDuration: 60,
    });
    expect(routes[0]!.route).toBe('/api/a');
  });

  it('groups errors by message and route with counts and first/last seen', async () => {
    const res = await get(`${LOGS}/error-analysis?date=${DAY}`);
    expect(res.statusCode).toBe(200);
    const groups = res.json().data;
    expect(groups).toHaveLength(3);
    expect(groups[0]).toMatchObject({
      message: 'Database locked',
      route: '/api/b/:id',
      type: 'Error',
      count: 2,
      firstSeen: at(10, 2),
      lastSeen: at(10, 3),
      statusCodes: [500],
      lastReqId: 'req-10-3-60',
    });
    expect(groups[0].lastStack).toContain('at x');
    expect(groups.map((g: { message: string }) => g.message).sort()).toEqual([
      'Boom',
      'Database locked',
      'SMTP down',
    ]);
    expect(groups.find((g: { message: string }) => g.message === 'SMTP down')).toMatchObject({
      route: null,
      count: 1,
      statusCodes: [],
    });
  });

  it('counts the levels present', async () => {
    const res = await get(`${LOGS}/levels?date=${DAY}`);
    expect(res.json().data).toEqual([
      { level: 'debug', value: 20, count: 1 },
      { level: 'info', value: 30, count: 21 },
      { level: 'warn', value: 40, count: 1 },
      { level: 'error', value: 50, count: 4 },
    ]);
  });

  it('lists the latest entries with level, route and text filters', async () => {
    let res = await get(`${LOGS}?date=${DAY}&limit=5`);
    expect(res.statusCode).toBe(200);
    let data = res.json().data;
    // The torn last line is skipped; newest first.
    expect(data.total).toBe(27);
    expect(data.items).toHaveLength(5);
    expect(data.truncated).toBe(true);
    expect(data.items[0]).toMatchObject({ level: 'debug', msg: 'debug detail', context: { module: 'mail' } });

    res = await get(`${LOGS}?date=${DAY}&level=error`);
    data = res.json().data;
    expect(data.total).toBe(4);
    expect(data.items.map((e: { err: { message: string } }) => e.err.message)).toEqual([
      'SMTP down',
      'Boom',
      'Database locked',
      'Database locked',
    ]);

    res = await get(`${LOGS}?date=${DAY}&route=${encodeURIComponent('/api/b/:id')}`);
    expect(res.json().data.total).toBe(4);
    res = await get(`${LOGS}?date=${DAY}&q=locked`);
    expect(res.json().data.total).toBe(2);
    res = await get(`${LOGS}?date=${DAY}&type=error`);
    expect(res.json().data.total).toBe(4);
    res = await get(`${LOGS}?date=${DAY}&level=loud`);
    expect(res.statusCode).toBe(422);
    res = await get(`${LOGS}?date=${DAY}&limit=5000`);
    expect(res.statusCode).toBe(422);
  });

  it('pages entries newest first (or oldest first) in the list envelope', async () => {
    let res = await get(`${LOGS}/paginated?date=${DAY}&page=1&pageSize=10&route=/api/a`);
    expect(res.statusCode).toBe(200);
    let data = res.json().data;
    expect(data).toMatchObject({ total: 21, page: 1, pageSize: 10 });
    expect(data.items.map((e: { responseTime: number }) => e.responseTime)).toEqual([
      5, 20, 19, 18, 17, 16, 15, 14, 13, 12,
    ]);
    res = await get(`${LOGS}/paginated?date=${DAY}&page=3&pageSize=10&route=/api/a`);
    data = res.json().data;
    expect(data.items.map((e: { responseTime: number }) => e.responseTime)).toEqual([1]);
    res = await get(`${LOGS}/paginated?date=${DAY}&page=1&pageSize=3&order=asc&level=info`);
    data = res.json().data;
    expect(data.total).toBe(21);
    expect(data.items.map((e: { line: number }) => e.line)).toEqual([1, 2, 3]);
    res = await get(`${LOGS}/paginated?date=${DAY}&pageSize=101`);
    expect(res.statusCode).toBe(422);
  });

  it('streams a day file as an attachment', async () => {
    const res = await get(`${LOGS}/download/${DAY}/error`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${DAY}-error.log"`);
    expect(res.body).toBe(fs.readFileSync(path.join(dir, `${DAY}-error.log`), 'utf8'));
    const combined = await get(`${LOGS}/download/${DAY}/combined`);
    expect(combined.body.split('\n')).toHaveLength(lines.combined.length + 1);
  });

  it('answers 404 for a day without a file', async () => {
    expect((await get(`${LOGS}/download/2026-01-13/combined`)).statusCode).toBe(404);
    expect((await get(`${LOGS}/download/${EARLIER}/error`)).statusCode).toBe(404);
    for (const endpoint of ['', '/paginated', '/stats', '/error-analysis', '/route-stats', '/levels']) {
      const res = await get(`${LOGS}${endpoint}?date=2026-01-13`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('لا يوجد سجل لهذا اليوم');
    }
  });

  it('refuses path traversal and malformed dates or types with 400, never reading outside the folder', async () => {
    fs.writeFileSync(path.join(t.config.dataDir, 'secret.log'), 'secret');
    const attempts = [
      `${LOGS}/download/..%2F..%2Fetc%2Fpasswd/combined`,
      `${LOGS}/download/..%2Fsecret/combined`,
      `${LOGS}/download/${DAY}/..%2F..%2Fsecret`,
      `${LOGS}/download/${DAY}/combined.log`,
      `${LOGS}/download/2026-02-30/combined`,
      `${LOGS}/stats?date=..%2F..%2Fsecret`,
      `${LOGS}/stats?date=${DAY}&type=..%2Fsecret`,
      `${LOGS}?date=15-01-2026`,
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect([400, 404]).toContain(res.statusCode);
      expect(res.body).not.toContain('secret');
    }
    expect((await get(`${LOGS}/download/..%2F..%2Fetc%2Fpasswd/combined`)).statusCode).toBe(400);
    expect((await get(`${LOGS}/stats?date=${DAY}&type=other`)).statusCode).toBe(400);
    // A literal ../ is resolved by the router before it reaches the route: never a file outside.
    expect([400, 404]).toContain((await get(`${LOGS}/download/../../secret.log/combined`)).statusCode);
  });

  it('defaults to the newest day when no date is given', async () => {
    // Today's file exists because the app logs its own requests.
    const res = await get(`${LOGS}/stats`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.date).toBe(new Date().toISOString().slice(0, 10));
  });

  it('needs logs.view', async () => {
    expect((await t.app.inject({ method: 'GET', url: `${LOGS}/dates` })).statusCode).toBe(401);
    const other = await signInWith(t, [AREA_PERMISSIONS.auditView]);
    expect((await get(`${LOGS}/dates`, other)).statusCode).toBe(403);
    expect((await get(`${LOGS}/download/${DAY}/combined`, other)).statusCode).toBe(403);
    const reader = await signInWith(t, [AREA_PERMISSIONS.logsView]);
    expect((await get(`${LOGS}/dates`, reader)).statusCode).toBe(200);
  });

  it('counts every line of a long file and pages to its end', async () => {
    // 20,000 lines (about 4 MB), written in blocks; the summary and the pages read it as a stream.
    const big = '2026-01-10';
    const file = fs.openSync(path.join(dir, `${big}-combined.log`), 'w');
    const block: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      block.push(JSON.stringify(request(i % 24, 0, `/api/r${i % 7}`, i % 50 === 0 ? 500 : 200, i % 100)));
      if (block.length === 5_000) {
        fs.writeSync(file, block.join('\n') + '\n');
        block.length = 0;
      }
    }
    fs.closeSync(file);
    const res = await get(`${LOGS}/stats?date=${big}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.totals.requests).toBe(20_000);
    expect(res.json().data.totals.errors).toBe(400);
    const page = await get(`${LOGS}/paginated?date=${big}&page=2&pageSize=5`);
    expect(page.json().data.total).toBe(20_000);
    expect(page.json().data.items[0].line).toBe(19_995);
  }, 60_000);
});

describe('percentile', () => {
  it('uses the nearest rank', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(95);
  });
});

describe('SummaryCache', () => {
  it('reuses a summary while the file is unchanged, or briefly while it grows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-logs-'));
    const file = path.join(dir, `${DAY}-combined.log`);
    fs.writeFileSync(file, JSON.stringify(request(9, 0, '/api/a', 200, 1)) + '\n');
    let clock = 0;
    const cache = new SummaryCache(16, 10_000, () => clock);
    const info = () => {
      const stat = fs.statSync(file);
      return { path: file, size: stat.size, mtimeMs: stat.mtimeMs };
    };
    expect((await cache.get(info())).totals.requests).toBe(1);
    fs.appendFileSync(file, JSON.stringify(request(9, 1, '/api/a', 200, 1)) + '\n');
    clock = 5_000;
    expect((await cache.get(info())).totals.requests).toBe(1);
    clock = 20_000;
    expect((await cache.get(info())).totals.requests).toBe(2);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
