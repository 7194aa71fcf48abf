import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { AuthUser } from '../auth/types';
import type { Bus, BusMessage } from '../bus';
import type { Db } from '../db';
import type { FileStore } from '../files/storage';
import { begunAfter, type Versions } from '../db/counts';
import { withWritesAtCommit } from '../db/atCommit';

/** Who acts: the signed-in user (null for system work such as seeds), their IP, the request. */
export interface ActorContext {
  user: AuthUser | null;
  ip?: string | null;
  request?: FastifyRequest;
  /** Write versions read before anything else of the request (with its session), if any. */
  versions?: Versions;
}

/**
 * What a write collects while its transaction is open: events to publish and stored files to
 * delete once it commits, files to delete if it rolls back.
 */
export class UnitOfWork {
  /** Entity events, and `revocation(...)` of sessions a write ended (bus/index.ts). */
  readonly events: { channel: string; message: BusMessage }[] = [];
  /** Written during the transaction under a temporary name: made final once it commits, removed when it fails. */
  readonly newFiles: string[] = [];
  /** Detached during the transaction: removed from disk after it commits. */
  readonly staleFiles: string[] = [];
  /** Run once it commits, after the events are published (mail, say); never when it fails. */
  readonly afterCommit: (() => Promise<void>)[] = [];
}

export type Trx = Transaction<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- generated tables, see Db

export interface WriteContext extends ActorContext {
  trx: Trx;
  work: UnitOfWork;
  /**
   * A module's own write (postponing a hearing, an action's follow-up), which may set the fields
   * a definition declares `setBy` the server or an action; a client's body never may.
   */
  serverWrite?: boolean;
}

/**
 * `ctx` as a module's own write: the engine lets it set `setBy` fields (see `WriteContext`).
 *
 * @example await app.entities.get('sessions').patch(asServerWrite(ctx), id, { nextDate: null });
 */
export const asServerWrite = (ctx: WriteContext): WriteContext => ({ ...ctx, serverWrite: true });

export const actorOf = (request: FastifyRequest): ActorContext => ({
  user: request.user ?? null,
  ip: request.ip,
  request,
  versions: request.versions,
});

export function isWriteContext(ctx: ActorContext): ctx is WriteContext {
  return 'trx' in ctx && 'work' in ctx;
}

/**
 * Runs `fn` in one transaction, whose audit entries and kept totals are written at its end
 * (`db/atCommit.ts`); after it commits, gives the files written for it their final
 * names, publishes the collected events, removes
 * detached files and runs the `afterCommit` tasks; if it fails, removes the files written for it. Nested calls with a
 * WriteContext join the outer transaction.
 *
 * @example
 * await inTransaction({ db, bus, files }, actor, async (ctx) => {
 *   for (const row of rows) await courts.create(ctx, row);
 * });
 */
export async function inTransaction<T>(
  deps: { db: Db; bus: Bus; files: FileStore },
  actor: ActorContext,
  fn: (ctx: WriteContext) => Promise<T>,
): Promise<T> {
  if (isWriteContext(actor)) return fn(actor);
  const work = new UnitOfWork();
  let result: T;
  try {
    result = await deps.db.transaction().execute((trx) => {
      if (actor.versions) begunAfter(trx, deps.db, actor.versions);
      return withWritesAtCommit(trx, () => fn({ ...actor, trx, work }));
    });
  } catch (error) {
    await Promise.all(work.newFiles.map((name) => deps.files.remove(name)));
    throw error;
  }
  await Promise.all(work.newFiles.map((name) => deps.files.commit(name)));
  for (const { channel, message } of work.events) deps.bus.publish(channel, message);
  await Promise.all(work.staleFiles.map((name) => deps.files.remove(name)));
  for (const task of work.afterCommit) await task();
  return result;
}
