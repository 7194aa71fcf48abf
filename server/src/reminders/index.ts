import type { FastifyPluginAsync } from 'fastify';

/** The reminders module (issue 11): being built. */
export const remindersPlugin: FastifyPluginAsync = async () => {};
// Hooks and routes belong to the app, not an encapsulated child context.
(remindersPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
