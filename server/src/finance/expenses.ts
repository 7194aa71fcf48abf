import { EXPENSE_CATEGORY_SEEDS, expenseCategories, expenses } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { seedListOnce } from '../engine/seedList';

/**
 * Expenses beyond the generic pattern: who recorded one is the server's (the actor on create,
 * never changed). Files (receipts), categories and checks are the engine's, from the definitions.
 */
export function installExpenseHooks(app: FastifyInstance): void {
  app.entities.hooks(expenses.name, {
    beforeCreate(ctx, values) {
      values.createdById = ctx.user?.id ?? null;
    },
    beforeUpdate(_ctx, values) {
      delete values.createdById;
    },
  });
}

/** The default expense categories (`EXPENSE_CATEGORY_SEEDS`), filed once into an empty list at start. */
export async function seedExpenseCategories(app: FastifyInstance): Promise<void> {
  await seedListOnce(
    app,
    expenseCategories.name,
    EXPENSE_CATEGORY_SEEDS.map(({ name, nameEn, order }) => ({ name, nameEn, order })),
  );
}
