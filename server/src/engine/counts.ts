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

/**
 * The write versions of `entities` (every entity when omitted) as one stamp for `ListCache`, read
 * with `total` of the first in the same statement; the stamp is null when an entity has no row in
 * `entity_counts` (an unserved table: nothing derived from it may be cached).
 */
export async function readStamp(
  db: Trx | Db,
  entities?: readonly string[],
): Promise<{ stamp: string | null; totals: Map<string, number> }> {
  let query = db.selectFrom('entity_counts').select(['entity', 'total', 'version']).orderBy('entity');
  if (entities) query = query.where('entity', 'in', entities);
  const rows = await query.execute();
  const totals = new Map(rows.map((r) => [String(r.entity), Number(r.total)]));
  const complete = !entities || entities.every((e) => totals.has(e));
  const stamp = complete ? rows.map((r) => `${String(r.entity)}:${String(r.version)}`).join(',') : null;
  return { stamp, totals };
}
