import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@mizan/contracts';
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
} from './hooks';
export {
  inTransaction,
  actorOf,
  UnitOfWork,
  type ActorContext,
  type WriteContext,
  type Trx,
} from './context';
export { adjustCount, recountEntities } from './counts';
export { refDisplayName, refsDisplayName, type ApiRow } from './serialize';
export { pathId } from './plugin';

/** Registers one CRUD plugin per served entity, each under `/api` + its path. */
export async function registerEngine(app: FastifyInstance): Promise<void> {
  for (const service of app.entities.all()) {
    await app.register(entityPlugin, { prefix: API_BASE + service.entity.path, service });
  }
}
