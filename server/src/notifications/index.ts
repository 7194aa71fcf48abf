import type { FastifyPluginAsync } from 'fastify';

/** The notifications module (issue 11): being built. */
export const notificationsPlugin: FastifyPluginAsync = async () => {};
// Hooks and routes belong to the app, not an encapsulated child context.
(notificationsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
