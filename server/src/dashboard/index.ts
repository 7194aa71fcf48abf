import type { FastifyPluginAsync } from 'fastify';

/** The dashboard module (issue 11): being built. */
export const dashboardPlugin: FastifyPluginAsync = async () => {};
// Hooks and routes belong to the app, not an encapsulated child context.
(dashboardPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
