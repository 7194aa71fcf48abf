import { registry } from '@mizan/contracts';
import type { Db } from '../db';
import type { Trx } from './context';

/**
 * Row totals kept in `entity_counts`, so an unfiltered list answers its total without scanning
 * the table (DESIGN §4). Every insert and delete adjusts them in its own transaction; anything
 * that writes an entity table directly (seeds) calls `adjustCount` too, or `recountEntities`.
 */
export async function adjustCount(trx: Trx | Db, entity: string, delta: number): Promise<void> {
  await trx
    .updateTable('entity_counts')
    .set((eb) => ({ total: eb('total', '+', delta) }))
    .where('entity', '=', entity)
    .execute();
}

export async function readCount(db: Trx | Db, entity: string): Promise<number | null> {
  const row = await db
    .selectFrom('entity_counts')
    .select('total')
    .where('entity', '=', entity)
    .executeTakeFirst();
  return row ? Number(row.total) : null;
}

/** Recounts every engine table (at start, after seeds and migrations). */
export async function recountEntities(
  db: Db,
  names: readonly string[] = registry.map((e) => e.name),
): Promise<void> {
  for (const name of names) {
    const entity = registry.find((e) => e.name === name);
    if (!entity) continue;
    const { total } = await db
      .selectFrom(entity.table)
      .select((eb) => eb.fn.countAll().as('total'))
      .executeTakeFirstOrThrow();
    await db
      .insertInto('entity_counts')
      .values({ entity: name, total: Number(total) })
      .onConflict((oc) => oc.column('entity').doUpdateSet({ total: Number(total) }))
      .execute();
  }
}
