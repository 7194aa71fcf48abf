import type { Entity, Fields } from '@mizan/contracts';
import type { WriteContext } from './context';
import type { ApiRow } from './serialize';

export type ChangeAction = 'create' | 'update' | 'delete' | 'status' | 'baned';

/** What hooks see: the open transaction, the acting user, the request when there is one. */
export type HookContext = WriteContext & { entity: Entity<Fields> };

/**
 * Behaviour an entity adds to the generic pattern. Every hook runs inside the write's transaction:
 * throwing (an AppError for a clean 4xx) rolls the whole write back.
 *
 * `values` are the validated input, keyed by field name (camelCase), and may be changed in place
 * (e.g. replace `password` with its hash). `before`/`after` are rows as the API returns them.
 */
export interface EntityHooks {
  beforeCreate?(ctx: HookContext, values: Record<string, unknown>): void | Promise<void>;
  beforeUpdate?(ctx: HookContext, values: Record<string, unknown>, before: ApiRow): void | Promise<void>;
  beforeDelete?(ctx: HookContext, before: ApiRow): void | Promise<void>;
  afterChange?(
    ctx: HookContext,
    change: { action: ChangeAction; before: ApiRow | null; after: ApiRow | null },
  ): void | Promise<void>;
}

const registered = new Map<string, EntityHooks[]>();

/**
 * Adds hooks to an entity; several modules may each register theirs (run in registration order).
 * Returns a function that removes them (tests).
 *
 * @example
 * registerEntityHooks('employees', {
 *   async beforeCreate(ctx, values) { values.password = await hash(String(values.password)); },
 *   async afterChange(ctx, { action, after }) { if (action === 'baned' && after?.baned) await revoke(ctx.trx, after.id); },
 * });
 */
export function registerEntityHooks(name: string, hooks: EntityHooks): () => void {
  const list = registered.get(name) ?? [];
  list.push(hooks);
  registered.set(name, list);
  return () => {
    const current = registered.get(name) ?? [];
    registered.set(
      name,
      current.filter((h) => h !== hooks),
    );
  };
}

export function entityHooks(name: string): readonly EntityHooks[] {
  return registered.get(name) ?? [];
}
