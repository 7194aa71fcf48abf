import crypto from 'node:crypto';
import os from 'node:os';

/**
 * Leases on database rows, shared by the scheduler's recurring jobs and the job queue's one-off
 * jobs: a row is claimed with one conditional UPDATE (free, or its lease run out), so one
 * instance wins it; the winner renews a short lease while it works, and a crashed instance's
 * lease runs out so that another takes the row over.
 */

/** A name for this instance in `lease_owner` columns: host, process and a random part. */
export function instanceOwner(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
}

export interface KeepLeaseOptions {
  /** How often `renew` runs. */
  everyMs: number;
  /** Pushes the lease's end; answers false when the row is no longer ours (taken over). */
  renew: () => Promise<boolean>;
  /** Called when `renew` answered false. */
  onLost: () => void;
  /** Called when `renew` threw (the database briefly unreachable, or closing). */
  onError: (error: unknown) => void;
}

/**
 * Renews a lease every `everyMs` until the function it answers is called.
 *
 * @example
 * const release = keepLease({ everyMs: 10_000, renew: () => extend(id), onLost, onError });
 * try { await work(); } finally { release(); }
 */
export function keepLease(options: KeepLeaseOptions): () => void {
  const timer = setInterval(() => {
    options
      .renew()
      .then((held) => {
        if (!held) options.onLost();
      })
      .catch(options.onError);
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Runs `poll` now and every `everyMs` (a timer that keeps no process alive); answers the
 * function that stops it.
 *
 * @example const stop = pollEvery(60_000, () => void tick());
 */
export function pollEvery(everyMs: number, poll: () => void): () => void {
  const timer = setInterval(poll, everyMs);
  timer.unref();
  poll();
  return () => clearInterval(timer);
}
