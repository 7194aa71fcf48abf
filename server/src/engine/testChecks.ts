import type { TestApp } from '../test/harness';

/**
 * What the engine's tests read back after a request: row counts, audit entries, published events,
 * and what a refused write must leave as it was. `t` is called at each read (the tests start
 * their app in a `beforeAll`).
 */
export function engineChecks(t: () => TestApp) {
  const count = async (table: string) =>
    Number(
      (
        await t()
          .app.db.selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const audits = (entity: string, entityId: number, action: string) =>
    t()
      .app.db.selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', entity)
      .where('entity_id', '=', entityId)
      .where('action', '=', action)
      .execute();
  const events = (channel: string, action: string, id: number) =>
    t().published.filter(
      (p) =>
        p.channel === channel &&
        (p.message as { action?: string }).action === action &&
        (p.message as { data?: { id?: number } }).data?.id === id,
    );
  /**
   * The row `id` of `table` as stored, the table's row count and latest write, the audit trail's
   * size and the events published so far. As telling as a copy of the whole table for a refused
   * write, at the cost of one row: every write through the engine stamps `updated_at`, so a change
   * to any other row moves the latest stamp, and an insert or a delete the count.
   */
  const writeState = async (table: string, id: number) => {
    const db = t().app.db;
    const latest = await db
      .selectFrom(table)
      .select((eb) => [eb.fn.countAll().as('rows'), eb.fn.max('updated_at').as('lastWrite')])
      .executeTakeFirstOrThrow();
    return {
      row: await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst(),
      rows: Number(latest.rows),
      lastWrite: String(latest.lastWrite),
      audit: await count('audit_log'),
      events: t().published.length,
    };
  };
  /** `writeState` before and after `fn`: for a refused write, the two are equal. */
  const statesAround = async (table: string, id: number, fn: () => Promise<void>) => {
    const before = await writeState(table, id);
    await fn();
    return [before, await writeState(table, id)] as const;
  };
  return { count, audits, events, writeState, statesAround };
}
