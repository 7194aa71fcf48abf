import type { FastifyPluginAsync } from 'fastify';
import { seedExpenseCategories } from './expenses';
import { installTimeEntryHooks } from './timeEntries';
import { registerTimerRoutes } from './timer';

export { financeMigrations } from './migrations';

/**
 * The office's money on the server: time entries (own or everyone's, rate defaults, the derived
 * amount), the per-employee timer, expenses and their default categories. CRUD, audit and events
 * are the engine's, from the definitions (`timeEntries`, `expenses`, `expenseCategories`).
 */
export const financePlugin: FastifyPluginAsync = async (app) => {
  installTimeEntryHooks(app);
  registerTimerRoutes(app);
  await seedExpenseCategories(app);
};
// Hooks and routes belong to the app, not an encapsulated child context.
(financePlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
