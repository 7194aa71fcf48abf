import { GLOBAL_SEARCH_LIMIT } from '@mizan/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { addGlobalSearchSource } from '../engine/globalSearch';
import { installVersionAccess, registerFileTextRoutes } from './routes';
import { EXTRACT_KIND, runExtract, searchFiles, textFeeder, type ExtractPayload } from './service';
import { readTextConcurrency } from './settings';

export { fileTextMigrations } from './migrations';
export { EXTRACT_KIND, VERSION_OWNER, queueText, searchFiles, snippet } from './service';

/**
 * The text of every stored file, found by the search: after an upload (any owner: attachments,
 * powers of attorney, tasks, generated documents) the job queue's feeder queues the file, and a
 * `filetext.extract` job reads it page by page (see extract.ts), at most `textConcurrency` at once.
 * Pages are folded and trigram-indexed; `GET /api/search` lists files by content in a group
 * `files`. Files keep their earlier versions (see routes.ts). Needs the job queue (`jobs`) before it.
 */
export const fileTextPlugin: FastifyPluginAsync = async (app) => {
  app.jobs.define<ExtractPayload>({
    kind: EXTRACT_KIND,
    concurrency: () => readTextConcurrency(app.db),
    maxAttempts: 3,
    run: (payload, ctx) => runExtract(app, payload, ctx),
  });
  app.jobs.feed(textFeeder(app));
  installVersionAccess(app);
  registerFileTextRoutes(app);
  addGlobalSearchSource(app, async (actor, q) => {
    if (!actor.user) return null;
    const found = await searchFiles(app, actor.user, q, { limit: GLOBAL_SEARCH_LIMIT });
    return found.items.length
      ? { kind: 'files', total: found.total, totalCapped: found.totalCapped, items: found.items }
      : null;
  });
};
// Routes and job kinds belong to the app, not an encapsulated child context.
(fileTextPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
