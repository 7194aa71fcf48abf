import type { FastifyPluginAsync } from 'fastify';
import { installConflictCheck } from './conflicts';
import { installCustomerHooks } from './customers';
import { installProcurationHooks } from './procurations';

/**
 * The clients area on the server: customers (kind rules, conflict-of-interest check) and powers
 * of attorney (dates, expiry filters, files). Their CRUD routes come from the engine; this module
 * adds the hooks and the routes beyond CRUD.
 */
export const clientsPlugin: FastifyPluginAsync = async (app) => {
  installCustomerHooks(app.entities);
  installConflictCheck(app);
  installProcurationHooks(app.entities);
};
// Hooks and routes belong to the app, not an encapsulated child context.
(clientsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
