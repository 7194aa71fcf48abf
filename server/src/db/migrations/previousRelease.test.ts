import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_BASE, AUTH_ROUTES, getEntity, type Entity, type Fields } from '@mizan/contracts';
import { entityUrl, validInput } from '../../test/fixtures';
import { createTestApp, splitDialects, TEST_ADMIN, type TestApp } from '../../test/harness';
import {
  buildRelease,
  findPreviousRelease,
  startRelease,
  type RunningRelease,
} from '../../test/previousRelease';

/**
 * A rolling upgrade (deploy/README.md "Upgrades without downtime"): the new release migrated the
 * database and the previous release's instances still serve on it until their turn to restart.
 * Here the previous release is the code just before the last migration change (see
 * `findPreviousRelease`), built from git, started against a database this release migrated, and
 * put through a working day over HTTP, its rows read back through this release. SQLite here,
 * PostgreSQL (what several instances share) in previousRelease.postgres.test.ts.
 */
const previous = findPreviousRelease();
if ('skip' in previous) console.warn(`previousRelease.test.ts skipped: ${previous.skip}`);

const describeRelease = 'skip' in previous ? describe.skip : describe;
const title =
  'skip' in previous
    ? `the previous release (skipped: ${previous.skip})`
    : `the previous release ${previous.commit.slice(0, 10)} (${previous.why})`;

describeRelease(title, () => {
  let releaseDir = '';
  beforeAll(async () => {
    releaseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-previous-'));
    if (!('skip' in previous)) await buildRelease(previous.commit, releaseDir);
  });
  afterAll(() => fs.rmSync(releaseDir, { recursive: true, force: true }));

  describe.each(splitDialects())('on %s', (dialect) => {
    let current: TestApp;
    let currentUrl: string;
    let old: RunningRelease | undefined;
    let currentHeaders: Record<string, string>;
    const dataDirs: string[] = [];
    const statuses: { server: string; method: string; url: string; status: number }[] = [];

    beforeAll(async () => {
      // This release first: its migrations give the database the new schema.
      current = await createTestApp({ dialect });
      currentUrl = await current.app.listen({ port: 0, host: '127.0.0.1' });
      currentHeaders = (await current.login()).headers;
      // Its own logs; the stored files shared, as instances share their storage.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-previous-data-'));
      dataDirs.push(dataDir);
      fs.mkdirSync(path.join(current.config.dataDir, 'files'), { recursive: true });
      fs.symlinkSync(path.join(current.config.dataDir, 'files'), path.join(dataDir, 'files'), 'dir');
      old = await startRelease(releaseDir, {
        DATABASE_URL: current.config.databaseUrl,
        DATA_DIR: dataDir,
        MIZAN_STATIC_DIR: path.join(dataDir, 'static'),
        MIZAN_ADMIN_EMAIL: TEST_ADMIN.email,
        MIZAN_ADMIN_PASSWORD: TEST_ADMIN.password,
        // Two processes writing one SQLite file at once meet "database is locked" (several
        // instances share PostgreSQL): on SQLite it writes only what the test's requests ask, one
        // at a time; on PostgreSQL it also runs the background jobs and the scheduler.
        ...(dialect === 'sqlite' ? { MIZAN_JOBS_POLL_SECONDS: '0', MIZAN_SCHEDULER_POLL_SECONDS: '0' } : {}),
      });
    });
    afterAll(async () => {
      // Stopped cleanly (SIGTERM), like an instance taken out for its turn to restart.
      const code = old ? await old.stop() : 0;
      await current?.close();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
      expect(code).toBe(0);
    });

    /** One request over HTTP, its status recorded; the body's `data`. */
    async function call(
      server: 'previous' | 'current',
      method: string,
      url: string,
      headers: Record<string, string>,
      body?: unknown,
    ): Promise<{ status: number; data: Record<string, unknown> & { id: number } }> {
      const base = server === 'previous' ? old!.url : currentUrl;
      const res = await fetch(base + url, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      statuses.push({ server, method, url, status: res.status });
      const text = await res.text();
      if (res.status >= 500) throw new Error(`${server} ${method} ${url}: ${res.status} ${text}`);
      return { status: res.status, data: (JSON.parse(text) as { data: never }).data };
    }

    async function signIn(server: 'previous' | 'current'): Promise<Record<string, string>> {
      const device = {
        'x-fingerprint-session': `previous-release-${server}`,
        'x-fingerprint': 'test-device',
      };
      const { status, data } = await call(server, 'POST', API_BASE + AUTH_ROUTES.login.path, device, {
        email: TEST_ADMIN.email,
        password: TEST_ADMIN.password,
      });
      expect(status).toBe(200);
      return { ...device, authorization: `Bearer ${String(data.token)}` };
    }

    /** A valid body for `entity` (rows it references made through this release), then `own`. */
    const body = async (entity: Entity<Fields>, own: Record<string, unknown>) => ({
      ...(await validInput(current.app, currentHeaders, entity)),
      ...own,
    });

    it('serves a working day on the schema this release migrated, its rows read by this release', async () => {
      const prev = await signIn('previous');
      const now = await signIn('current');
      const [customers, lawsuits, hearings, tasks] = ['customers', 'lawsuits', 'sessions', 'tasks'].map(
        (name) => getEntity(name),
      );

      const made: Record<string, Record<string, unknown> & { id: number }> = {};
      const create = async (entity: Entity<Fields>, own: Record<string, unknown> = {}) => {
        const list = await call('previous', 'GET', entityUrl(entity), prev);
        expect(list.status).toBe(200);
        const res = await call('previous', 'POST', entityUrl(entity), prev, await body(entity, own));
        expect(res.status).toBe(201);
        made[entity.name] = res.data;
        return res.data;
      };
      const customer = await create(customers);
      const lawsuit = await create(lawsuits, refsTo(lawsuits, { customers: customer.id }));
      const hearing = await create(hearings, refsTo(hearings, { lawsuits: lawsuit.id }));
      await create(tasks, refsTo(tasks, { lawsuits: lawsuit.id, sessions: hearing.id }));

      // This release reads what the previous one wrote, and the other way round.
      for (const [name, row] of Object.entries(made)) {
        const entity = getEntity(name);
        const read = await call('current', 'GET', `${entityUrl(entity)}/${row.id}`, now);
        expect(read.status).toBe(200);
        expect(read.data.id).toBe(row.id);
        const back = await call('previous', 'GET', `${entityUrl(entity)}/${row.id}`, prev);
        expect(back.status).toBe(200);
      }
      const mine = await call('current', 'POST', entityUrl(customers), now, await body(customers, {}));
      expect(mine.status).toBe(201);
      const seen = await call('previous', 'GET', `${entityUrl(customers)}/${mine.data.id}`, prev);
      expect(seen.status).toBe(200);

      expect(statuses.filter((s) => s.status >= 500)).toEqual([]);
      // Nor did anything fail inside it (a job, a query behind a 4xx): pino's level 50 is "error".
      expect(
        old!
          .output()
          .split('\n')
          .filter((line) => line.includes('"level":50') || line.includes('"level":60')),
      ).toEqual([]);
    });
  });
});

/** Each reference field of `entity` to one of `rows`' entities, set to that row. */
function refsTo(entity: Entity<Fields>, rows: Record<string, number>): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(entity.fields))
    if (field.type === 'ref' && field.entity in rows) own[key] = rows[field.entity];
  return own;
}
