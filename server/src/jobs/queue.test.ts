import { createTestApp, dialects, type TestApp } from '../test/harness';
import { JobQueue, type JobKind } from '.';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(90_000);

/** A gate a job waits at until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe.each(dialects())('job queue on %s', (dialect) => {
  let t: TestApp;
  const clock = { now: new Date('2026-11-28T08:00:00Z') };
  const queues: JobQueue[] = [];
  /** A queue as another server instance on the same database would have (its own owner name). */
  const instance = (options: { leaseMs?: number; renewMs?: number; backoffMs?: number } = {}) => {
    const queue = new JobQueue({
      db: t.app.db,
      dialect: t.app.dialect,
      clock: () => clock.now,
      log: t.app.log,
      ...options,
    });
    queues.push(queue);
    return queue;
  };
  const later = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  const row = (id: number) =>
    t.app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  let kindSeq = 0;
  const kindName = () => `test.kind${++kindSeq}`;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    for (const q of queues) await q.stop();
    await t.close();
  });

  it('two instances on one database run each job once', async () => {
    const kind = kindName();
    const runs = new Map<number, number>();
    const define = (queue: JobQueue) =>
      queue.define<{ n: number }>({
        kind,
        concurrency: () => 3,
        run: async ({ n }) => {
          runs.set(n, (runs.get(n) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 5));
        },
      });
    const a = instance();
    const b = instance();
    define(a);
    define(b);
    for (let n = 1; n <= 8; n++) await a.enqueue(kind, { n });
    await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
    expect([...runs.entries()].sort((x, y) => x[0] - y[0])).toEqual(
      Array.from({ length: 8 }, (_, i) => [i + 1, 1]),
    );
    const states = await t.app.db.selectFrom('jobs').select('state').where('kind', '=', kind).execute();
    expect(states.map((s) => s.state)).toEqual(Array(8).fill('done'));
  });

  it('enqueue is idempotent by key; requeue puts a finished job back', async () => {
    const kind = kindName();
    let ran = 0;
    const q = instance();
    q.define({ kind, run: async () => void ran++ });
    const first = await q.enqueue(kind, { a: 1 }, { key: `k-${kind}` });
    const again = await q.enqueue(kind, { a: 2 }, { key: `k-${kind}` });
    expect([first.created, again.created, again.id]).toEqual([true, false, first.id]);
    await q.drain();
    await q.enqueue(kind, { a: 3 }, { key: `k-${kind}` });
    await q.drain();
    expect(ran).toBe(1);
    await q.enqueue(kind, { a: 4 }, { key: `k-${kind}`, requeue: true });
    await q.drain();
    expect(ran).toBe(2);
    expect((await q.statusOfKey(`k-${kind}`))?.state).toBe('done');
  });

  it('a run whose instance died (lease expired) is taken over by another instance', async () => {
    const kind = kindName();
    const stuck = gate();
    const crashed = instance({ leaseMs: 30_000, renewMs: 3_600_000 });
    crashed.define({ kind, run: () => stuck.opened });
    const { id } = await crashed.enqueue(kind, null);
    expect(await crashed.poll()).toEqual([id]);
    // Another instance meanwhile: the job is held.
    const other = instance();
    let ranElsewhere = 0;
    other.define({ kind, run: async () => void ranElsewhere++ });
    expect(await other.tick()).toEqual([]);
    // The first instance stops renewing (it died): once its lease runs out, the other runs it.
    later(31_000);
    expect(await other.tick()).toEqual([id]);
    expect(ranElsewhere).toBe(1);
    const done = await row(id);
    expect([done.state, Number(done.attempts), done.lease_owner]).toEqual(['done', 2, null]);
    stuck.open();
  });

  it('a failed run is retried after a backoff that doubles, then fails for good with its last error', async () => {
    const kind = kindName();
    const q = instance({ backoffMs: 10_000 });
    let calls = 0;
    q.define({
      kind,
      maxAttempts: 3,
      run: async () => {
        calls += 1;
        throw new Error(`boom ${calls}`);
      },
    });
    const { id } = await q.enqueue(kind, null);
    await q.tick();
    let stored = await q.status(id);
    expect([stored?.state, stored?.attempts, stored?.lastError]).toEqual(['queued', 1, 'boom 1']);
    expect(new Date(stored!.runAt).getTime() - clock.now.getTime()).toBe(10_000);
    expect(await q.tick()).toEqual([]);
    later(10_000);
    await q.tick();
    stored = await q.status(id);
    expect([stored?.state, stored?.attempts]).toEqual(['queued', 2]);
    expect(new Date(stored!.runAt).getTime() - clock.now.getTime()).toBe(20_000);
    later(19_000);
    expect(await q.tick()).toEqual([]);
    later(1_000);
    await q.tick();
    stored = await q.status(id);
    expect([stored?.state, stored?.attempts, stored?.lastError, calls]).toEqual(['failed', 3, 'boom 3', 3]);
    later(3_600_000);
    expect(await q.tick()).toEqual([]);
  });

  it('runs at most `concurrency` jobs of a kind at once across instances, and reports progress', async () => {
    const kind = kindName();
    const hold = gate();
    let running = 0;
    let most = 0;
    const definition: JobKind<null> = {
      kind,
      concurrency: () => 2,
      run: async (_p, ctx) => {
        running += 1;
        most = Math.max(most, running);
        await ctx.progress(1, 4);
        await hold.opened;
        running -= 1;
      },
    };
    const a = instance();
    const b = instance();
    a.define(definition);
    b.define(definition);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await a.enqueue(kind, null)).id);
    const started = [...(await a.poll()), ...(await b.poll()), ...(await a.poll())];
    expect(started).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 50));
    const progress = await a.status(started[0]!);
    expect([progress?.state, progress?.progressDone, progress?.progressTotal]).toEqual(['running', 1, 4]);
    hold.open();
    await Promise.all([a.drain(), b.drain()]);
    expect(most).toBe(2);
    for (const id of ids) expect((await a.status(id))?.state).toBe('done');
  });

  it('a job enqueued before a restart runs on the next instance', async () => {
    const kind = kindName();
    const before = instance();
    before.define({ kind, run: async () => undefined });
    const { id } = await before.enqueue(kind, { letter: 'إشعار' });
    await before.stop();
    const seen: unknown[] = [];
    const after = instance();
    after.define({ kind, run: async (payload) => void seen.push(payload) });
    await after.drain();
    expect(seen).toEqual([{ letter: 'إشعار' }]);
    expect((await after.status(id))?.state).toBe('done');
  });

  it('a shutdown during a run queues it again without spending an attempt', async () => {
    const kind = kindName();
    const q = instance();
    q.define({
      kind,
      run: (_p, ctx) =>
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    const { id } = await q.enqueue(kind, null);
    await q.poll();
    await q.stop();
    const stored = await row(id);
    expect([stored.state, Number(stored.attempts), stored.lease_owner]).toEqual(['queued', 0, null]);
  });
});
