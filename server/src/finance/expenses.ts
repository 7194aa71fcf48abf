import { EXPENSE_CATEGORY_SEEDS, expenseCategories } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { seedListOnce } from '../engine/seeding';

/** The default expense categories (`EXPENSE_CATEGORY_SEEDS`), filed once into an empty list at start. */
export async function seedExpenseCategories(app: FastifyInstance): Promise<void> {
  await seedListOnce(
    app,
    expenseCategories.name,
    EXPENSE_CATEGORY_SEEDS.map(({ name, nameEn, order }) => ({ name, nameEn, order })),
  );
}
