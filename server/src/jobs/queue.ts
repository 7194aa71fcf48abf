import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db, Dialect } from '../db';
import type { Trx } from '../engine/context';
import { instanceOwner, keepLease, pollEvery } from '../scheduler/lease';

/** Where a job stands. `running` with an expired lease is a run cut short: it is claimed again. */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** What a job's `run` receives beside its payload. */
export interface JobContext {
  id: number;
  /** 1 for the first run, 2 for the first retry, ... */
  attempt: number;
  /** Records how far the job is (`done` of `total` steps), for the screens. */
  progress(done: number, total: number): Promise<void>;
  /** Aborted when this instance lost the job's lease (another instance may run it now) or stops. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

/** A kind of one-off job, defined in code by the module that enqueues it. */
export interface JobKind<P = unknown> {
  /** Stored in each row: never rename a kind that has rows. */
  kind: string;
  /** Must be safe to repeat: a run cut short (crash, lost lease) runs again. Throw to retry later. */
  run(payload: P, ctx: JobContext): Promise<void>;
  /** How many jobs of this kind run at once across every instance (read at each poll; default 1). */
  concurrency?: () => number | Promise<number>;
  /** Runs before the job is failed for good (default 5). */
  maxAttempts?: number;
}

/** A job's row as the screens read it (`JobQueue.status`). */
export interface JobStatus {
  id: number;
  kind: string;
  key: string | null;
  state: JobState;
  attempts: number;
  progressDone: number;
  progressTotal: number;
  lastError: string | null;
  runAt: string;
  finishedAt: string | null;
}

export interface EnqueueOptions {
  /**
   * At most one job per key, ever: enqueueing a key that has a job (whatever its state) adds
   * nothing and answers that job. Put what makes the work unique in it (`filetext:12:<stored name>`).
   */
  key?: string;
  /** Not before this instant (default now). */
  runAt?: Date;
  /** Overrides the kind's `maxAttempts`. */
  maxAttempts?: number;
  /**
   * With `key`: a job of that key that is done or failed is queued again (its attempts and error
   * cleared) instead of left alone; one queued or running stays as it is.
   */
  requeue?: boolean;
  /** Enqueue inside this transaction: the job exists only if the write that asked for it commits. */
  trx?: Trx;
}

export interface JobQueueDeps {
  db: Db;
  dialect: Dialect;
  clock: () => Date;
  log: FastifyBaseLogger;
  /** Lease of a running job without renewal (default 30 s): a crashed instance frees its jobs within it. */
  leaseMs?: number;
  /** How often a running job's lease is renewed (default a third of the lease). */
  renewMs?: number;
  /** Wait before the first retry, doubled for each further one (default 30 s), at most `maxBackoffMs`. */
  backoffMs?: number;
  /** Longest wait between retries (default 1 h). */
  maxBackoffMs?: number;
}

/** Work a module finds in its own tables at each poll and enqueues (idempotently, by key). */
export type JobFeeder = () => Promise<void>;

export const JOBS_TABLE = 'jobs';
const SECOND = 1000;
const MAX_ERROR = 2000;

interface JobRow {
  id: number | string;
  kind: string;
  key: string | null;
  payload: string;
  state: JobState;
  attempts: number | string;
  max_attempts: number | string;
  run_at: string | Date;
  lease_owner: string | null;
  lease_until: string | Date | null;
  last_error: string | null;
  progress_done: number | string;
  progress_total: number | string;
  finished_at: string | Date | null;
}

const iso = (value: string | Date | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/**
 * A durable queue of one-off background jobs on the database (table `jobs`), for work that must
 * not run on the request path: the text of uploaded files, later client messages and backups.
 * Each job has a kind, a JSON payload and optionally a unique key (enqueueing is idempotent by
 * it). Instances poll; a job is claimed with one conditional UPDATE (queued and due, or running
 * with its lease run out), so one instance wins it, and its short lease is renewed while it runs:
 * a job survives restarts, runs once across instances, and a crashed run is taken over once its
 * lease runs out. A failed run is retried after a backoff that doubles, up to `maxAttempts`, the
 * last error kept. At most `concurrency()` jobs of a kind run at once across instances: the claim
 * counts the running ones under a lock (PostgreSQL: an advisory lock per kind; SQLite writes one
 * at a time anyway). Heavy work belongs in child processes (`tools/runTool`, niced), never in the
 * event loop. See docs/architecture.md ("Background jobs").
 *
 * The scheduler's recurring jobs are another table on the same leases (`scheduler/lease.ts`). No
 * kept queue library serves both databases (see the scheduler's comment).
 *
 * @example
 * app.jobs.define({ kind: 'mail.send', concurrency: () => 2, run: async (p: { to: string }) => send(p.to) });
 * await app.jobs.enqueue('mail.send', { to }, { key: `mail:${messageId}` });
 */
export class JobQueue {
  readonly owner = instanceOwner();
  private readonly kinds = new Map<string, JobKind<never>>();
  private readonly feeders: JobFeeder[] = [];
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  /** Runs started by this instance and not finished. */
  private readonly active = new Map<number, { done: Promise<void>; abort: AbortController }>();
  /** Stops the polling timer; null while not polling. */
  private timer: (() => void) | null = null;
  private polling: Promise<number[]> | null = null;
  private stopped = false;

  constructor(private readonly deps: JobQueueDeps) {
    this.leaseMs = deps.leaseMs ?? 30 * SECOND;
    this.renewMs = deps.renewMs ?? Math.max(100, Math.floor(this.leaseMs / 3));
    this.backoffMs = deps.backoffMs ?? 30 * SECOND;
    this.maxBackoffMs = deps.maxBackoffMs ?? 3600 * SECOND;
  }

  /** Adds a kind of job (modules call it while they register). */
  define<P>(kind: JobKind<P>): void {
    if (this.kinds.has(kind.kind)) throw new Error(`job kind "${kind.kind}" is defined twice`);
    this.kinds.set(kind.kind, kind as JobKind<never>);
  }

  /** Adds work found at each poll, before jobs are claimed. */
  feed(feeder: JobFeeder): void {
    this.feeders.push(feeder);
  }

  /** Adds a job, or answers the job its key already has (`created` false). */
  async enqueue(
    kind: string,
    payload: unknown,
    options: EnqueueOptions = {},
  ): Promise<{ id: number; created: boolean }> {
    const definition = this.kinds.get(kind);
    if (!definition) throw new Error(`job kind "${kind}" is not defined`);
    const db = options.trx ?? this.deps.db;
    const now = this.deps.clock().toISOString();
    const row = {
      kind,
      key: options.key ?? null,
      payload: JSON.stringify(payload ?? null),
      state: 'queued',
      attempts: 0,
      max_attempts: options.maxAttempts ?? definition.maxAttempts ?? 5,
      run_at: (options.runAt ?? this.deps.clock()).toISOString(),
      progress_done: 0,
      progress_total: 0,
      created_at: now,
      updated_at: now,
    };
    const inserted = await db
      .insertInto(JOBS_TABLE)
      .values(row)
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { id: Number(inserted.id), created: true };
    const existing = await db
      .selectFrom(JOBS_TABLE)
      .select('id')
      .where('key', '=', options.key!)
      .executeTakeFirstOrThrow();
    if (options.requeue)
      await db
        .updateTable(JOBS_TABLE)
        .set({
          payload: row.payload,
          state: 'queued',
          attempts: 0,
          max_attempts: row.max_attempts,
          run_at: row.run_at,
          last_error: null,
          progress_done: 0,
          progress_total: 0,
          finished_at: null,
          updated_at: now,
        })
        .where('id', '=', existing.id)
        .where('state', 'in', ['done', 'failed'])
        .execute();
    return { id: Number(existing.id), created: false };
  }

  /** A job by id, or null. */
  async status(id: number): Promise<JobStatus | null> {
    const row = (await this.deps.db
      .selectFrom(JOBS_TABLE)
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()) as JobRow | undefined;
    return row ? toStatus(row) : null;
  }

  /** The job of a key, or null. */
  async statusOfKey(key: string): Promise<JobStatus | null> {
    const row = (await this.deps.db
      .selectFrom(JOBS_TABLE)
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirst()) as JobRow | undefined;
    return row ? toStatus(row) : null;
  }

  /** Polls every `pollMs` (and once now) until `stop`. 0 or less: this instance runs no jobs. */
  start(pollMs: number): void {
    if (this.timer || this.stopped || pollMs <= 0) return;
    this.timer = pollEvery(pollMs, () => {
      this.poll().catch((error: unknown) => this.deps.log.error({ err: error }, 'job queue poll failed'));
    });
  }

  /** Stops polling, tells running jobs to stop and waits for them (before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.();
    this.timer = null;
    await this.polling?.catch(() => undefined);
    for (const run of this.active.values()) run.abort.abort();
    await Promise.all([...this.active.values()].map((run) => run.done));
  }

  /**
   * One poll: feeders, then claims what this instance may run now and starts it. Answers the ids
   * started; their runs go on in the background (`tick` waits for them).
   */
  poll(): Promise<number[]> {
    if (this.stopped) return Promise.resolve([]);
    this.polling ??= this.claimAll().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /** One poll, waiting for the runs it started (tests, and the CLI). Answers their ids. */
  async tick(): Promise<number[]> {
    const started = await this.poll();
    await Promise.all(started.map((id) => this.active.get(id)?.done));
    return started;
  }

  /** Polls and waits until a poll starts nothing and nothing of this instance runs. */
  async drain(): Promise<void> {
    for (;;) {
      const started = await this.tick();
      if (!started.length && !this.active.size) return;
      if (!started.length) await Promise.all([...this.active.values()].map((run) => run.done));
    }
  }

  private async claimAll(): Promise<number[]> {
    for (const feeder of this.feeders) {
      try {
        await feeder();
      } catch (error) {
        this.deps.log.error({ err: error }, 'job feeder failed');
      }
    }
    await this.giveUpStalled();
    const started: number[] = [];
    for (const definition of this.kinds.values()) {
      if (this.stopped) break;
      const limit = Math.max(1, Math.floor(Number(await (definition.concurrency?.() ?? 1)) || 1));
      for (const row of await this.claim(definition.kind, limit)) {
        this.launch(definition, row);
        started.push(Number(row.id));
      }
    }
    return started;
  }

  /** Runs cut short that used their last attempt: failed for good instead of claimed again. */
  private async giveUpStalled(): Promise<void> {
    const at = this.deps.clock().toISOString();
    await this.deps.db
      .updateTable(JOBS_TABLE)
      .set({
        state: 'failed',
        lease_owner: null,
        lease_until: null,
        finished_at: at,
        updated_at: at,
        last_error: sql`coalesce(last_error, ${'stopped before finishing (instance gone)'})`,
      })
      .where('state', '=', 'running')
      .where('lease_until', '<=', at)
      .whereRef('attempts', '>=', 'max_attempts')
      .execute();
  }

  /**
   * Claims up to `limit` minus the running jobs of `kind`, oldest due first: in one transaction
   * that counts the running ones (under a per-kind advisory lock on PostgreSQL), each row taken
   * with a conditional UPDATE that only a free, due row passes.
   */
  private async claim(kind: string, limit: number): Promise<JobRow[]> {
    const { db, dialect, clock } = this.deps;
    return db.transaction().execute(async (trx) => {
      if (dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(hashtext(${`mizan.jobs:${kind}`}))`.execute(trx);
      const now = clock();
      const at = now.toISOString();
      const running = await trx
        .selectFrom(JOBS_TABLE)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('kind', '=', kind)
        .where('state', '=', 'running')
        .where('lease_until', '>', at)
        .executeTakeFirstOrThrow();
      const free = limit - Number(running.n);
      if (free <= 0) return [];
      const due = (await trx
        .selectFrom(JOBS_TABLE)
        .selectAll()
        .where('kind', '=', kind)
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', at)]),
            eb.and([eb('state', '=', 'running'), eb('lease_until', '<=', at)]),
          ]),
        )
        .orderBy('run_at')
        .orderBy('id')
        .limit(free)
        .execute()) as JobRow[];
      const claimed: JobRow[] = [];
      const leaseUntil = new Date(now.getTime() + this.leaseMs).toISOString();
      for (const row of due) {
        const taken = await trx
          .updateTable(JOBS_TABLE)
          .set({
            state: 'running',
            lease_owner: this.owner,
            lease_until: leaseUntil,
            attempts: sql`attempts + 1`,
            updated_at: at,
          })
          .where('id', '=', row.id)
          .where((eb) =>
            eb.or([
              eb('state', '=', 'queued'),
              eb.and([eb('state', '=', 'running'), eb('lease_until', '<=', at)]),
            ]),
          )
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 1)
          claimed.push({ ...row, attempts: Number(row.attempts) + 1, state: 'running' });
      }
      return claimed;
    });
  }

  private launch(definition: JobKind<never>, row: JobRow): void {
    const abort = new AbortController();
    const id = Number(row.id);
    const done = this.runClaimed(definition, row, abort).finally(() => this.active.delete(id));
    this.active.set(id, { done, abort });
  }

  /** The conditions of "still ours": our lease on this row. */
  private mine(id: number) {
    return this.deps.db.updateTable(JOBS_TABLE).where('id', '=', id).where('lease_owner', '=', this.owner);
  }

  private async runClaimed(definition: JobKind<never>, row: JobRow, abort: AbortController): Promise<void> {
    const { clock } = this.deps;
    const id = Number(row.id);
    const attempt = Number(row.attempts);
    const log = this.deps.log.child({ job: id, kind: definition.kind });
    const release = keepLease({
      everyMs: this.renewMs,
      renew: async () => {
        const renewed = await this.mine(id)
          .set({ lease_until: new Date(clock().getTime() + this.leaseMs).toISOString() })
          .executeTakeFirst();
        return Number(renewed.numUpdatedRows) === 1;
      },
      onLost: () => {
        log.warn('job lease lost: another instance may run it');
        abort.abort();
      },
      onError: (error) => {
        if (!this.stopped) log.warn({ err: error }, 'job lease not renewed');
      },
    });
    const ctx: JobContext = {
      id,
      attempt,
      signal: abort.signal,
      log,
      progress: async (doneSteps, total) => {
        await this.mine(id)
          .set({ progress_done: doneSteps, progress_total: total, updated_at: clock().toISOString() })
          .execute();
      },
    };
    try {
      await definition.run(JSON.parse(row.payload) as never, ctx);
      release();
      const at = clock().toISOString();
      await this.mine(id)
        .set({
          state: 'done',
          lease_owner: null,
          lease_until: null,
          finished_at: at,
          updated_at: at,
          last_error: null,
        })
        .execute();
    } catch (error) {
      release();
      if (this.stopped && abort.signal.aborted) {
        // Stopped by a shutdown, not failed: queued again at once, the attempt not counted.
        await this.mine(id)
          .set({
            state: 'queued',
            lease_owner: null,
            lease_until: null,
            attempts: sql`attempts - 1`,
            run_at: clock().toISOString(),
          })
          .execute()
          .catch(() => undefined);
        return;
      }
      const message = String((error as Error)?.message ?? error).slice(0, MAX_ERROR);
      const now = clock();
      const last = attempt >= Number(row.max_attempts);
      log.error({ err: error, attempt, last }, last ? 'job failed for good' : 'job failed, retried later');
      const wait = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (attempt - 1));
      await this.mine(id)
        .set({
          state: last ? 'failed' : 'queued',
          lease_owner: null,
          lease_until: null,
          last_error: message,
          run_at: last ? iso(row.run_at)! : new Date(now.getTime() + wait).toISOString(),
          finished_at: last ? now.toISOString() : null,
          updated_at: now.toISOString(),
        })
        .execute()
        .catch((e: unknown) => log.error({ err: e }, 'failed job not released'));
    }
  }
}

function toStatus(row: JobRow): JobStatus {
  return {
    id: Number(row.id),
    kind: row.kind,
    key: row.key,
    state: row.state,
    attempts: Number(row.attempts),
    progressDone: Number(row.progress_done),
    progressTotal: Number(row.progress_total),
    lastError: row.last_error,
    runAt: iso(row.run_at)!,
    finishedAt: iso(row.finished_at),
  };
}
