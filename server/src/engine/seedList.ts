import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/errors';

/**
 * Files the default rows of a settings list (attachment groups, expense categories) into a list
 * nobody has written to yet: no row stored and none ever audited. So a fresh database (or one
 * upgraded to the version that brings the list) starts with them once, through the engine like any
 * write (audited, counted), and rows the office deletes later stay deleted. Instances starting
 * together on one PostgreSQL: the one that loses the race meets the unique names and leaves the
 * other's rows. Run at start.
 *
 * @example await seedListOnce(app, 'expenseCategories', [{ name: 'ترجمة', nameEn: 'Translation' }]);
 */
export async function seedListOnce(
  app: FastifyInstance,
  entity: string,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const service = app.entities.get(entity);
  const table = service.entity.table;
  const stored = await app.db.selectFrom(table).select('id').limit(1).executeTakeFirst();
  if (stored) return;
  const audited = await app.db
    .selectFrom('audit_log')
    .select('id')
    .where('entity', '=', entity)
    .limit(1)
    .executeTakeFirst();
  if (audited) return;
  try {
    await service.createMany({ user: null }, rows);
  } catch (error) {
    const seededMeanwhile = await app.db.selectFrom(table).select('id').executeTakeFirst();
    if (!(error instanceof AppError) || !seededMeanwhile) throw error;
  }
}
