import { getEntity, type Entity, type Fields } from '@mizan/contracts';
import { inTransaction, type ActorContext, type WriteContext } from './context';
import { HookRegistry, type EntityHooks } from './hooks';
import { listAnswerCache, missingListFilter, type EngineDeps } from './reader';
import { EntityService } from './writer';

// An entity's service is a reader (reader.ts: lists, options, rows, the kept answers) and a writer
// (writer.ts: every write through one path); the app reaches both through `EntityServices`.
export { EntityReader, listAnswerCache, type EngineDeps } from './reader';
export { EntityService, type CreateManyOptions } from './writer';

/**
 * The service of every served entity, and the hooks of this app instance, for route handlers and
 * other modules.
 *
 * @example
 * const courts = app.entities.get('courts');
 * await app.entities.transaction({ user, ip }, async (ctx) => { await courts.create(ctx, row); });
 *
 * // A module's behaviour beyond the generic pattern (its plugin registers it at start):
 * app.entities.hooks('tasks', {
 *   scope: (ctx, user) => (eb, table) => eb(`${table}.assignee_id`, '=', user.id),
 *   actions: { postpone: async (ctx, row, body) => ({ set: { dueDate: body.until } }) },
 * });
 */
export class EntityServices {
  private readonly services = new Map<string, EntityService>();
  private readonly registry = new HookRegistry();

  private readonly deps: EngineDeps;

  constructor(entities: readonly Entity<Fields>[], deps: EngineDeps) {
    this.deps = { ...deps, answers: deps.answers ?? listAnswerCache() };
    for (const entity of entities)
      this.services.set(
        entity.name,
        new EntityService(entity, this.deps, this.registry, entities, (name) => this.get(name)),
      );
  }

  get(name: string): EntityService {
    const service = this.services.get(name);
    if (!service) throw new Error(`No entity service for "${name}" (${getEntity(name).name} is not served)`);
    return service;
  }

  all(): EntityService[] {
    return [...this.services.values()];
  }

  /**
   * Adds behaviour to one entity of this app: write hooks, `scope`, `expand`, action handlers.
   * Several modules may each add theirs (run in the order added). Returns a function removing them.
   *
   * @example
   * app.entities.hooks('employees', {
   *   async beforeCreate(ctx, values) { values.password = await hash(String(values.password)); },
   *   async afterChange(ctx, { action, after }) { if (action === 'baned' && after?.baned) await revoke(ctx.trx, after.id); },
   * });
   */
  hooks(name: string, hooks: EntityHooks): () => void {
    this.get(name);
    for (const action of Object.keys(hooks.actions ?? {})) {
      if (!this.get(name).entity.actions?.[action])
        throw new Error(`${name} declares no action "${action}": add it to the definition's actions first`);
    }
    for (const filter of Object.keys(hooks.listFilters ?? {})) {
      if (!this.get(name).entity.listFilters?.[filter])
        throw new Error(
          `${name} declares no list filter "${filter}": add it to the definition's listFilters first`,
        );
    }
    return this.registry.add(name, hooks);
  }

  /**
   * Fails (at start-up, see `registerEngine`) when a served definition declares a list filter that
   * no module gave a condition for; `names` limits the check to some entities.
   */
  checkListFilters(names: readonly string[] = [...this.services.keys()]): void {
    const missing = names.flatMap((name) =>
      Object.keys(this.get(name).entity.listFilters ?? {})
        .filter((filter) => !this.registry.listFilter(name, filter))
        .map((filter) => missingListFilter(name, filter)),
    );
    if (missing.length) throw new Error(missing.join('\n'));
  }

  /** One transaction for several writes; events are published and files cleaned once it commits. */
  transaction<T>(actor: ActorContext, fn: (ctx: WriteContext) => Promise<T>): Promise<T> {
    return inTransaction(this.deps, actor, fn);
  }
}
