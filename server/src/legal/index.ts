import type { FastifyPluginAsync } from 'fastify';
import { readTimeZone } from '../settings/repository';
import { installAttachmentHooks, seedAttachmentGroups } from './attachments';
import { installLawsuitHooks } from './lawsuits';
import { installOpponentHooks } from './opponents';
import { installPayments } from './payments';
import { installProcurationCheck } from './procurationCheck';
import { installSessions } from './sessions';

/**
 * The legal department on the server: opponents, lawsuits (rules between court, circuit and judge,
 * file numbers, fees), hearings (postponement chain, parties, filters through the lawsuit),
 * payments and attachments (the hearing rule; the default groups seeded at start), the
 * power-of-attorney check of lawsuits and hearings. Their CRUD
 * routes come from the engine; this module adds the hooks and the routes beyond CRUD.
 */
export const legalPlugin: FastifyPluginAsync = async (app) => {
  installOpponentHooks(app.entities);
  installLawsuitHooks(app.entities, app.dialect, readTimeZone);
  installSessions(app);
  installPayments(app);
  installAttachmentHooks(app.entities);
  installProcurationCheck(app, app.entities);
  await seedAttachmentGroups(app);
};
// Hooks and routes belong to the app, not an encapsulated child context.
(legalPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
