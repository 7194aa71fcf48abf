import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { freshDatabase, splitDialects, TEST_ADMIN } from '../test/harness';
import { dailyAt, Scheduler, wallTimeInZone, type JobRun, type Schedule } from '.';

/** A day after each run, never moved (the real-clock tests' job). */
const tomorrow: Schedule = { next: async (after) => new Date(after.getTime() + 86_400_000) };

/** Waits until `check` holds (every 20 ms), failing after `ms`. */
async function until(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One database that app instances open and close, each with the shared test clock. */
async function sharedDatabase(dialect: 'sqlite' | 'postgres') {
  const database = await freshDatabase(dialect, 'mizan-scheduler-');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-scheduler-data-'));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    MIZAN_ADMIN_EMAIL: TEST_ADMIN.email,
    MIZAN_ADMIN_PASSWORD: TEST_ADMIN.password,
    MIZAN_LOG_STDOUT: 'false',
    MIZAN_STATIC_DIR: path.join(dataDir, 'static'),
  });
  const clock = { now: new Date('2026-11-23T08:00:00Z') };
  const open: FastifyInstance[] = [];
  return {
    clock,
    /** A new instance: the office's defaults (Cairo), the test clock. */
    async start(): Promise<FastifyInstance> {
      const previous = { ...process.env };
      process.env.MIZAN_ADMIN_EMAIL = TEST_ADMIN.email;
      process.env.MIZAN_ADMIN_PASSWORD = TEST_ADMIN.password;
      try {
        const app = await buildApp(config, { clock: () => clock.now });
        open.push(app);
        return app;
      } finally {
        process.env.MIZAN_ADMIN_EMAIL = previous.MIZAN_ADMIN_EMAIL;
        process.env.MIZAN_ADMIN_PASSWORD = previous.MIZAN_ADMIN_PASSWORD;
        if (previous.MIZAN_ADMIN_EMAIL === undefined) delete process.env.MIZAN_ADMIN_EMAIL;
        if (previous.MIZAN_ADMIN_PASSWORD === undefined) delete process.env.MIZAN_ADMIN_PASSWORD;
      }
    },
    async stop(app: FastifyInstance) {
      open.splice(open.indexOf(app), 1);
      await app.close();
    },
    async closeAll() {
      for (const app of open.splice(0)) await app.close();
    },
    async drop() {
      for (const app of open.splice(0)) await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('wallTimeInZone', () => {
  it('gives the instant the office clock shows a time on a day', () => {
    expect(wallTimeInZone('Africa/Cairo', '2026-11-23', '18:00').toISOString()).toBe(
      '2026-11-23T16:00:00.000Z',
    );
    expect(wallTimeInZone('Asia/Riyadh', '2026-11-23', '07:00').toISOString()).toBe(
      '2026-11-23T04:00:00.000Z',
    );
    expect(wallTimeInZone('UTC', '2026-02-28', '23:59').toISOString()).toBe('2026-02-28T23:59:00.000Z');
    // Cairo keeps summer time (UTC+3) from late April to late October.
    expect(wallTimeInZone('Africa/Cairo', '2026-07-01', '07:00').toISOString()).toBe(
      '2026-07-01T04:00:00.000Z',
    );
  });

  it('plans a daily time after an instant: later today, or tomorrow once passed', async () => {
    const daily = dailyAt('18:00');
    const env = { timeZone: 'Africa/Cairo' };
    expect((await daily.next(new Date('2026-11-23T10:00:00Z'), env)).toISOString()).toBe(
      '2026-11-23T16:00:00.000Z',
    );
    expect((await daily.next(new Date('2026-11-23T16:00:00Z'), env)).toISOString()).toBe(
      '2026-11-24T16:00:00.000Z',
    );
    // 23:30 UTC is already the 24th in Cairo.
    expect((await daily.next(new Date('2026-11-23T23:30:00Z'), env)).toISOString()).toBe(
      '2026-11-24T16:00:00.000Z',
    );
  });
});

describe('MIZAN_SCHEDULER_POLL_SECONDS', () => {
  it('polls every minute unless told otherwise; 0 runs no jobs on this instance', () => {
    expect(loadConfig({}).schedulerPollSeconds).toBe(60);
    expect(loadConfig({ MIZAN_SCHEDULER_POLL_SECONDS: '0' }).schedulerPollSeconds).toBe(0);
    expect(loadConfig({ MIZAN_SCHEDULER_POLL_SECONDS: '15' }).schedulerPollSeconds).toBe(15);
    expect(() => loadConfig({ MIZAN_SCHEDULER_POLL_SECONDS: 'often' })).toThrow(
      /MIZAN_SCHEDULER_POLL_SECONDS/,
    );
    expect(() => loadConfig({ MIZAN_SCHEDULER_POLL_SECONDS: '-1' })).toThrow(/MIZAN_SCHEDULER_POLL_SECONDS/);
  });
});

describe.each(splitDialects())('the job scheduler on %s', (dialect) => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  /** Runs of the test job, across instances. */
  let runs: { owner: string; run: JobRun }[];
  let fail: boolean;
  let time: string;
  /** Each test its own job, so the tests share one database. */
  let job: string;
  let tests = 0;

  const at = (iso: string) => {
    shared.clock.now = new Date(iso);
  };
  /** A new instance with the test job defined (daily at `time`, Cairo). */
  const instance = async () => {
    const app = await shared.start();
    app.scheduler.define({
      name: job,
      schedule: dailyAt(async () => time),
      run: async (run) => {
        if (fail) throw new Error('the job failed');
        runs.push({ owner: app.scheduler.owner, run });
      },
    });
    return app;
  };
  /** One poll, reduced to the test jobs (the app's own jobs run on the same database). */
  const ticks = async (app: FastifyInstance) =>
    (await app.scheduler.tick()).filter((n) => n.startsWith('test.'));
  const row = async (app: FastifyInstance) =>
    app.db.selectFrom('scheduled_jobs').selectAll().where('name', '=', job).executeTakeFirstOrThrow();

  beforeAll(async () => {
    shared = await sharedDatabase(dialect);
  });
  afterAll(() => shared.drop());
  beforeEach(() => {
    runs = [];
    fail = false;
    time = '18:00';
    job = `test.daily.${++tests}`;
  });
  afterEach(() => shared.closeAll());

  it('runs a job once at its time, not again at the next poll or after a restart', async () => {
    at('2026-11-23T08:00:00Z');
    const first = await instance();
    expect(await ticks(first)).toEqual([]);
    expect(new Date((await row(first)).next_run_at).toISOString()).toBe('2026-11-23T16:00:00.000Z');

    at('2026-11-23T16:00:00Z');
    expect(await ticks(first)).toEqual([job]);
    expect(await ticks(first)).toEqual([]);
    expect(runs.map((r) => r.run.plannedAt.toISOString())).toEqual(['2026-11-23T16:00:00.000Z']);

    await shared.stop(first);
    at('2026-11-23T16:05:00Z');
    const second = await instance();
    expect(await ticks(second)).toEqual([]);
    expect(runs).toHaveLength(1);

    at('2026-11-24T16:00:30Z');
    expect(await ticks(second)).toEqual([job]);
    expect(runs).toHaveLength(2);
    const stored = await row(second);
    expect(new Date(stored.next_run_at).toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(new Date(stored.last_run_at).toISOString()).toBe('2026-11-24T16:00:30.000Z');
    expect([stored.lease_owner, stored.lease_until, stored.last_error]).toEqual([null, null, null]);
  });

  it('runs missed days once after downtime', async () => {
    at('2026-11-23T08:00:00Z');
    const first = await instance();
    await ticks(first);
    await shared.stop(first);

    at('2026-11-26T09:00:00Z');
    const later = await instance();
    expect(await ticks(later)).toEqual([job]);
    expect(await ticks(later)).toEqual([]);
    expect(runs.map((r) => [r.run.plannedAt.toISOString(), r.run.now.toISOString()])).toEqual([
      ['2026-11-23T16:00:00.000Z', '2026-11-26T09:00:00.000Z'],
    ]);
    expect(new Date((await row(later)).next_run_at).toISOString()).toBe('2026-11-26T16:00:00.000Z');
  });

  it('lets one of two instances on the same database take a due job', async () => {
    at('2026-11-23T08:00:00Z');
    const [a, b] = [await instance(), await instance()];
    await Promise.all([ticks(a), ticks(b)]);
    at('2026-11-23T16:00:00Z');
    const ran = await Promise.all([ticks(a), ticks(b)]);
    expect(ran.flat()).toEqual([job]);
    expect(runs).toHaveLength(1);
  });

  it('leaves a job held by a crashed instance until its lease runs out, then runs it again', async () => {
    at('2026-11-23T08:00:00Z');
    const app = await instance();
    await ticks(app);
    at('2026-11-23T16:00:00Z');
    // Another instance claims the 18:00 run (a 30-second lease) and dies before finishing.
    const crashed = new Scheduler({
      db: app.db,
      clock: () => shared.clock.now,
      timeZone: async () => 'Africa/Cairo',
      log: app.log,
    });
    crashed.define({ name: job, schedule: dailyAt('18:00'), run: () => new Promise(() => undefined) });
    void crashed.tick();
    await until(async () => (await row(app)).lease_owner === crashed.owner);
    expect(new Date((await row(app)).lease_until).toISOString()).toBe('2026-11-23T16:00:30.000Z');
    at('2026-11-23T16:00:29Z');
    expect(await ticks(app)).toEqual([]);
    at('2026-11-23T16:00:30Z');
    expect(await ticks(app)).toEqual([job]);
    expect(runs.map((r) => r.owner)).toEqual([app.scheduler.owner]);
  });

  it("takes over a dead instance's job as its lease runs out, not at the next regular poll", async () => {
    const app = await instance();
    const due = new Date(Date.now() - 60_000).toISOString();
    // The holder died 29.4 s after its last renewal: 600 ms of its lease are left.
    await app.db
      .insertInto('scheduled_jobs')
      .values({
        name: job,
        next_run_at: due,
        lease_owner: 'dead',
        lease_until: new Date(Date.now() + 600).toISOString(),
      })
      .execute();
    // Two live instances on the real clock, polling once an hour: both wake as the lease ends.
    const live = [1, 2].map(() => {
      const scheduler = new Scheduler({
        db: app.db,
        clock: () => new Date(),
        timeZone: async () => 'Africa/Cairo',
        log: app.log,
      });
      scheduler.define({
        name: job,
        schedule: tomorrow,
        run: async (run) => void runs.push({ owner: scheduler.owner, run }),
      });
      scheduler.start(3_600_000);
      return scheduler;
    });
    try {
      await until(async () => runs.length > 0, 5000);
      await new Promise((r) => setTimeout(r, 500));
      expect(runs).toHaveLength(1);
      expect(live.map((s) => s.owner)).toContain(runs[0]!.owner);
      expect((await row(app)).lease_owner).toBeNull();
    } finally {
      await Promise.all(live.map((s) => s.stop()));
    }
  });

  it('renews the lease while a long job runs, so no other instance takes it', async () => {
    const app = await instance();
    // The clock moves only when the test moves it, a renewal at a time: however slow the machine,
    // the lease runs out only if it is not renewed.
    let now = Date.now();
    await app.db
      .insertInto('scheduled_jobs')
      .values({ name: job, next_run_at: new Date(now - 1000).toISOString() })
      .execute();
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const make = () => {
      const scheduler = new Scheduler({
        db: app.db,
        clock: () => new Date(now),
        timeZone: async () => 'Africa/Cairo',
        log: app.log,
        leaseMs: 300,
        renewMs: 100,
      });
      scheduler.define({
        name: job,
        schedule: tomorrow,
        run: async (run) => {
          runs.push({ owner: scheduler.owner, run });
          await finished;
        },
      });
      return scheduler;
    };
    const [holder, other] = [make(), make()];
    const running = holder.tick();
    await until(async () => runs.length === 1);
    const renewedAtNow = async () => new Date((await row(app)).lease_until!).getTime() === now + 300;
    // Four leases long: without renewals the lease would have run out three times over.
    for (let i = 0; i < 12; i++) {
      await until(renewedAtNow, 30_000);
      now += 100;
      expect(await other.tick()).toEqual([]);
    }
    finish();
    expect(await running).toEqual([job]);
    expect(runs.map((r) => r.owner)).toEqual([holder.owner]);
  });

  it('keeps a failed run with its error and tries it again later', async () => {
    at('2026-11-23T16:00:00Z');
    const app = await instance();
    await app.db
      .insertInto('scheduled_jobs')
      .values({ name: job, next_run_at: '2026-11-23T16:00:00.000Z' })
      .execute();
    fail = true;
    expect(await ticks(app)).toEqual([]);
    const failed = await row(app);
    expect(failed.last_error).toBe('the job failed');
    expect(new Date(failed.next_run_at).toISOString()).toBe('2026-11-23T16:05:00.000Z');
    expect(failed.lease_owner).toBeNull();

    fail = false;
    at('2026-11-23T16:05:00Z');
    expect(await ticks(app)).toEqual([job]);
    expect((await row(app)).last_error).toBeNull();
  });

  it('moves the run still to come when its time of day is changed', async () => {
    at('2026-11-23T08:00:00Z');
    const app = await instance();
    await ticks(app);
    time = '20:00';
    at('2026-11-23T16:30:00Z');
    expect(await ticks(app)).toEqual([]);
    expect(new Date((await row(app)).next_run_at).toISOString()).toBe('2026-11-23T18:00:00.000Z');
    // Moved earlier than now: today's run is due at once.
    time = '09:00';
    expect(await ticks(app)).toEqual([job]);
    expect(new Date((await row(app)).next_run_at).toISOString()).toBe('2026-11-24T07:00:00.000Z');
  });

  it('polls once started and stops when the app closes', async () => {
    at('2026-11-23T16:00:00Z');
    const app = await instance();
    await app.db
      .insertInto('scheduled_jobs')
      .values({ name: job, next_run_at: '2026-11-23T16:00:00.000Z' })
      .execute();
    app.scheduler.start(20);
    for (let i = 0; i < 100 && runs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(runs).toHaveLength(1);
    await shared.stop(app);
    expect(await ticks(app)).toEqual([]);
  });
});
