import { getEntity } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { columnName } from '../db/migrations';

/**
 * The employee every test app signs in as first: the auth seed's administrator, the first
 * employee of a fresh database.
 */
export const SEEDED_ADMIN_ID = 1;

/**
 * What valid tasks and comments need beyond their field types, for tests that build rows from a
 * definition (`test/fixtures` validInput), by the rules of the module's tasks file (the creator,
 * the state and its move are the server's: `setBy`): a task is due in the future, names no hearing
 * (a generated one would be of another lawsuit) and holds no text (saved by its own route).
 *
 * @example taskSample() // { dueAt: '2099-03-15T10:30:00.000Z', sessionId: null, text: null }
 */
export function taskSample(): Record<string, unknown> {
  return { dueAt: '2099-03-15T10:30:00.000Z', sessionId: null, text: null };
}

type Row = Record<string, unknown> & { id: number };
type CreateRow = (
  app: FastifyInstance,
  headers: Record<string, string>,
  name: string,
  overrides?: Record<string, unknown>,
) => Promise<Row>;

/**
 * A row of `entity` whose server-written employee `field` (a task's creator or the employee who
 * last moved it, a comment's author) is `held`: made by the administrator, then the column set as
 * the server sets it when `held` writes. For the engine's delete tests (`createHolder`).
 */
export function writtenBy(entity: string, field: string, createRow: CreateRow) {
  return async (app: FastifyInstance, headers: Record<string, string>, held: Row): Promise<Row> => {
    const row = await createRow(app, headers, entity);
    await app.db
      .updateTable(getEntity(entity).table)
      .set({ [columnName(field)]: held.id })
      .where('id', '=', row.id)
      .execute();
    return { ...row, [field]: held.id };
  };
}

/** A task on the hearing `held`, of its own lawsuit (a task's hearing must be of its lawsuit). */
export function taskOfHearing(createRow: CreateRow) {
  return (app: FastifyInstance, headers: Record<string, string>, held: Row): Promise<Row> =>
    createRow(app, headers, 'tasks', { lawsuitId: held.lawsuitId, sessionId: held.id });
}
