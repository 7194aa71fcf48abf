import type { Entity, Fields } from '@mizan/contracts';
import type { Db } from '../db';

/**
 * Whether nobody has ever written to a list: no row stored and no audit entry of it. A module
 * files its default rows (attachment groups, starter document templates) only then, so a fresh
 * database (or one upgraded to the version that brings them) starts with them once, and rows the
 * office deletes later stay deleted.
 */
export async function neverWritten(db: Db, entity: Entity<Fields>): Promise<boolean> {
  const stored = await db.selectFrom(entity.table).select('id').limit(1).executeTakeFirst();
  if (stored) return false;
  const audited = await db
    .selectFrom('audit_log')
    .select('id')
    .where('entity', '=', entity.name)
    .limit(1)
    .executeTakeFirst();
  return !audited;
}
