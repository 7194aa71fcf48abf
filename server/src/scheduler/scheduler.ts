import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { instanceOwner, keepLease, pollEvery } from './lease';
import type { Schedule, ScheduleEnv } from './schedule';

/** One run of a job, as its `run` receives it. */
export interface JobRun {
  /** The app's clock when the run started: a job's "today" comes from it, not from when it was due. */
  now: Date;
  /** When the run was due (earlier than `now` after downtime: missed days run once, not once each). */
  plannedAt: Date;
  timeZone: string;
}

/** A recurring job defined in code. `run` must be safe to repeat: a run cut short runs again. */
export interface JobDefinition {
  /** Also its row in `scheduled_jobs`: never rename a job that has run. */
  name: string;
  schedule: Schedule;
  run(run: JobRun): Promise<void>;
}

export interface SchedulerDeps {
  db: Db;
  clock: () => Date;
  /** The office's time zone, read at each poll (the system settings). */
  timeZone: () => Promise<string>;
  log: FastifyBaseLogger;
  /**
   * How long a claim holds without renewal before another instance may take the job over (default
   * 30 s): an instance that dies mid-run frees its jobs within that time.
   */
  leaseMs?: number;
  /** How often a running job's lease is renewed (default 10 s, a third of the lease). */
  renewMs?: number;
  /** How long after a failed run it is tried again (default 5 min). */
  retryMs?: number;
}

interface JobRow {
  name: string;
  next_run_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
}

const TABLE = 'scheduled_jobs';
const MINUTE = 60_000;
const SECOND = 1000;

/**
 * Recurring jobs that survive restarts and run once across server instances. Each job has a row in
 * `scheduled_jobs` with its next run; at each poll an instance claims a due job with one conditional
 * UPDATE (due, and no lease or an expired one): the database lets one instance win it. The winner
 * runs the job, then sets the next run after its own clock, so after downtime a job runs once
 * however many runs were missed. An instance that dies mid-run leaves its lease to expire and the
 * next poll anywhere runs the job again (jobs are written to be repeatable).
 *
 * No kept job library fits both databases: pg-boss and graphile-worker are PostgreSQL-only, agenda
 * needs MongoDB, BullMQ Redis, plainjob and liteque SQLite; sidequest runs jobs as classes in its own
 * workers over knex, away from the app and its clock.
 *
 * @example
 * app.scheduler.define({ name: 'digest', schedule: dailyAt('07:00'), run: async ({ now }) => send(now) });
 * app.scheduler.start(60_000); // main.ts; tests call `tick()` with their own clock
 */
export class Scheduler {
  /** This instance's name in `lease_owner`. */
  readonly owner = instanceOwner();
  private readonly jobs = new Map<string, JobDefinition>();
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private readonly retryMs: number;
  /** Stops the polling timer; null while not polling. */
  private timer: (() => void) | null = null;
  private pollMs = 0;
  /** A poll planned for when a lease held elsewhere runs out. */
  private wake: NodeJS.Timeout | null = null;
  private running: Promise<string[]> | null = null;
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {
    this.leaseMs = deps.leaseMs ?? 30 * SECOND;
    this.renewMs = deps.renewMs ?? Math.max(SECOND, Math.floor(this.leaseMs / 3));
    this.retryMs = deps.retryMs ?? 5 * MINUTE;
  }

  /** Adds a job (modules call it while they register). */
  define(job: JobDefinition): void {
    if (this.jobs.has(job.name)) throw new Error(`job "${job.name}" is defined twice`);
    this.jobs.set(job.name, job);
  }

  /** The names of the jobs defined. */
  names(): string[] {
    return [...this.jobs.keys()];
  }

  /** Polls every `pollMs` (and once now) until `stop`. 0 or less: this instance runs no jobs. */
  start(pollMs: number): void {
    if (this.timer || this.stopped || pollMs <= 0) return;
    this.pollMs = pollMs;
    this.timer = pollEvery(pollMs, () => this.pollInBackground());
  }

  /** Stops polling and waits for the run in progress (the app calls it before closing the database). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.();
    if (this.wake) clearTimeout(this.wake);
    this.timer = null;
    this.wake = null;
    await this.running?.catch(() => undefined);
  }

  /**
   * One poll: runs every due job this instance wins, one after another, and answers their names.
   * A poll asked while one is in progress answers that one's.
   */
  tick(): Promise<string[]> {
    if (this.stopped) return Promise.resolve([]);
    this.running ??= this.poll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private pollInBackground(): void {
    this.tick().catch((error: unknown) => this.deps.log.error({ err: error }, 'scheduler poll failed'));
  }

  /**
   * While polling on a timer, polls again just after the earliest lease held by another instance
   * runs out, when that comes before the next regular poll: a dead holder's job is taken over
   * about one lease after its last renewal.
   */
  private wakeAfterLeases(rows: JobRow[], now: Date): void {
    if (!this.timer || this.stopped) return;
    const ends = rows
      .filter((r) => r.lease_owner !== null && r.lease_owner !== this.owner && r.lease_until !== null)
      .map((r) => new Date(r.lease_until!).getTime() - now.getTime())
      .filter((ms) => ms > 0 && ms < this.pollMs);
    if (ends.length === 0) return;
    if (this.wake) clearTimeout(this.wake);
    this.wake = setTimeout(
      () => {
        this.wake = null;
        this.pollInBackground();
      },
      Math.min(...ends) + 250,
    );
    this.wake.unref();
  }

  private async poll(): Promise<string[]> {
    if (this.jobs.size === 0) return [];
    const env: ScheduleEnv = { timeZone: await this.deps.timeZone() };
    const rows = await this.rows(env);
    this.wakeAfterLeases(rows, this.deps.clock());
    const ran: string[] = [];
    for (const row of rows) {
      const job = this.jobs.get(row.name);
      if (!job || this.stopped) continue;
      const now = this.deps.clock();
      const planned = await this.replan(job, row, now, env);
      if (planned === null || planned > now) continue;
      if (!(await this.claim(job.name, now))) continue;
      if (await this.runClaimed(job, { now, plannedAt: planned, timeZone: env.timeZone })) ran.push(job.name);
    }
    return ran;
  }

  /** The rows of the defined jobs; a job seen for the first time gets its row and its first run. */
  private async rows(env: ScheduleEnv): Promise<JobRow[]> {
    const names = this.names();
    const read = async () =>
      (await this.deps.db.selectFrom(TABLE).selectAll().where('name', 'in', names).execute()) as JobRow[];
    const rows = await read();
    const missing = names.filter((name) => !rows.some((r) => r.name === name));
    if (missing.length === 0) return rows;
    const now = this.deps.clock();
    for (const name of missing) {
      const job = this.jobs.get(name) as JobDefinition;
      const next = await job.schedule.next(now, env);
      // Another instance may add the same row first: its first run stands.
      await this.deps.db
        .insertInto(TABLE)
        .values({ name, next_run_at: next.toISOString() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    }
    return read();
  }

  /**
   * The run due for `row` under the settings in force now, moved in the table when it changed
   * (only while nobody holds the job and nobody moved it since it was read). Null: leave it.
   */
  private async replan(job: JobDefinition, row: JobRow, now: Date, env: ScheduleEnv): Promise<Date | null> {
    const stored = new Date(row.next_run_at);
    if (row.lease_until !== null && new Date(row.lease_until) > now) return null;
    // A failed run waits for its retry time, which is off the schedule on purpose.
    if (row.last_error !== null || !job.schedule.replan) return stored;
    const planned = await job.schedule.replan(stored, env);
    if (planned.getTime() === stored.getTime()) return stored;
    const moved = await this.deps.db
      .updateTable(TABLE)
      .set({ next_run_at: planned.toISOString() })
      .where('name', '=', row.name)
      .where('next_run_at', '=', row.next_run_at)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1 ? planned : null;
  }

  /** Takes the job if it is due and free: one conditional UPDATE, so one instance wins. */
  private async claim(name: string, now: Date): Promise<boolean> {
    const at = now.toISOString();
    const claimed = await this.deps.db
      .updateTable(TABLE)
      .set({ lease_owner: this.owner, lease_until: new Date(now.getTime() + this.leaseMs).toISOString() })
      .where('name', '=', name)
      .where('next_run_at', '<=', at)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /** Runs a claimed job, keeping its lease alive meanwhile, then plans the next run and frees it. */
  private async runClaimed(job: JobDefinition, run: JobRun): Promise<boolean> {
    const { db, clock, log } = this.deps;
    const release = keepLease({
      everyMs: this.renewMs,
      renew: async () => {
        const renewed = await db
          .updateTable(TABLE)
          .set({ lease_until: new Date(clock().getTime() + this.leaseMs).toISOString() })
          .where('name', '=', job.name)
          .where('lease_owner', '=', this.owner)
          .executeTakeFirst();
        return Number(renewed.numUpdatedRows) === 1;
      },
      // Taken over (this instance stalled past its lease): the other run stands, this one's end is ignored.
      onLost: () => log.warn({ job: job.name }, 'job lease lost'),
      onError: (error) => {
        // Once stopped, the database may be closing under the run: not worth a warning.
        if (!this.stopped) log.warn({ err: error, job: job.name }, 'job lease not renewed');
      },
    });
    const free = { lease_owner: null, lease_until: null };
    try {
      await job.run(run);
      release();
      const finished = clock();
      const next = await job.schedule.next(finished, { timeZone: run.timeZone });
      await db
        .updateTable(TABLE)
        .set({
          ...free,
          next_run_at: next.toISOString(),
          last_run_at: run.now.toISOString(),
          last_error: null,
        })
        .where('name', '=', job.name)
        .where('lease_owner', '=', this.owner)
        .execute();
      log.info(
        { job: job.name, plannedAt: run.plannedAt.toISOString(), next: next.toISOString() },
        'job ran',
      );
      return true;
    } catch (error) {
      release();
      log.error({ err: error, job: job.name }, 'job failed');
      const retry = new Date(clock().getTime() + this.retryMs).toISOString();
      await db
        .updateTable(TABLE)
        .set({
          ...free,
          next_run_at: retry,
          last_error: String((error as Error)?.message ?? error).slice(0, 2000),
        })
        .where('name', '=', job.name)
        .where('lease_owner', '=', this.owner)
        .execute()
        .catch((e: unknown) => log.error({ err: e, job: job.name }, 'failed job not released'));
      return false;
    }
  }
}
