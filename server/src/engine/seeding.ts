import type { Entity, Fields } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { AppError } from '../http/errors';

/**
 * Whether nobody has ever written to a list: no row stored and no audit entry of it. A module
 * files its default rows (attachment groups, expense categories, starter document templates) only
 * then, so a fresh database (or one upgraded to the version that brings them) starts with them
 * once, and rows the office deletes later stay deleted.
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

/**
 * Files the default rows of a settings list into a list nobody has written to (`neverWritten`),
 * through the engine like any write (audited, counted). Instances starting together on one
 * PostgreSQL: the one that loses the race meets the unique names and leaves the other's rows. Run
 * at start.
 *
 * @example await seedListOnce(app, 'expenseCategories', [{ name: 'ترجمة', nameEn: 'Translation' }]);
 */
export async function seedListOnce(
  app: FastifyInstance,
  entity: string,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const service = app.entities.get(entity);
  if (!(await neverWritten(app.db, service.entity as Entity<Fields>))) return;
  try {
    await service.createMany({ user: null }, rows);
  } catch (error) {
    const seededMeanwhile = await app.db.selectFrom(service.entity.table).select('id').executeTakeFirst();
    if (!(error instanceof AppError) || !seededMeanwhile) throw error;
  }
}
