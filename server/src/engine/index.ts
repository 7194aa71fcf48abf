import type { FastifyInstance } from 'fastify';
import { API_BASE, registry } from '@mizan/contracts';
import { foldUnfoldedRows } from '../db/migrations';
import { registerGlobalSearch } from './globalSearch';
import { registerOptions } from './options';
import { entityPlugin } from './plugin';

export { EntityService, EntityServices, type EngineDeps, type CreateManyOptions } from './service';
export {
  HookRegistry,
  type EntityHooks,
  type HookContext,
  type ReadContext,
  type ScopeWhere,
  type ActionHandler,
  type ActionOutcome,
  type ChangeAction,
  type ListFilterCondition,
  type ListFilterContext,
} from './hooks';
export {
  inTransaction,
  actorOf,
  UnitOfWork,
  type ActorContext,
  type WriteContext,
  type Trx,
} from './context';
export { adjustCount, recountEntities } from '../db/counts';
export { refDisplayName, refsDisplayName, type ApiRow } from './serialize';
export { searchCondition, searchTokens, searchColumns } from './search';

/**
 * Registers one CRUD plugin per served entity, each under `/api` + its path. Every list filter a
 * registry definition declares must have its condition by now (the modules registered theirs):
 * start-up fails otherwise. Definitions served beside the registry (engine tests) get their hooks
 * after start and are checked when listed.
 */
export async function registerEngine(app: FastifyInstance): Promise<void> {
  app.entities.checkListFilters(registry.map((e) => e.name));
  for (const service of app.entities.all()) {
    await app.register(entityPlugin, { prefix: API_BASE + service.entity.path, service });
  }
  registerGlobalSearch(app);
  registerOptions(app);
  // Rows written outside the engine at start (the auth seed) get their folded search text. The
  // registry's tables exist by now; those served beside it (engine tests) are created after start.
  app.addHook('onReady', async () => {
    await foldUnfoldedRows(app.db, registry);
  });
}
