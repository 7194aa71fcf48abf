import type { Entity, Fields } from '@mizan/contracts';
import type { FastifyRequest } from 'fastify';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { AuthUser } from '../auth/types';
import type { SavedUpload } from '../files/storage';
import type { Db } from '../db';
import type { Trx, WriteContext } from './context';
import type { ApiRow } from './serialize';

/** What a write did: the standard verbs or a definition's declared action (`archive`). */
export type ChangeAction = 'create' | 'update' | 'delete' | 'status' | 'baned' | (string & {});

/** What write hooks see: the open transaction, the acting user, the request when there is one. */
export type HookContext = WriteContext & { entity: Entity<Fields> };

/** What read hooks (`scope`, `expand`) see: a connection or transaction to query with, and who reads. */
export interface ReadContext {
  db: Db | Trx;
  entity: Entity<Fields>;
  user: AuthUser | null;
  request?: FastifyRequest;
  /**
   * The rows were created by the write this answers: no row of another entity points at them
   * yet, unless that write's own hooks made one.
   */
  created?: boolean;
}

/**
 * An extra WHERE on the entity's table, ANDed with the list's own filters; `table` is the table's
 * name, for qualified columns (`${table}.owner_id`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are generated from the registry (see Db)
export type ScopeWhere = (eb: ExpressionBuilder<any, any>, table: string) => Expression<SqlBool>;

/** What the condition of a declared list filter sees. */
export interface ListFilterContext {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are generated from the registry (see Db)
  eb: ExpressionBuilder<any, any>;
  /** The entity's table, for qualified columns (`${table}.expiry_date`). */
  table: string;
  /**
   * Today's date, `YYYY-MM-DD`, in the office's time zone (system settings `timeZone`, see
   * `officeToday`): "today" turns at the office's midnight, not UTC's.
   */
  today: string;
  /** `today` plus `days` calendar days (negative: before), `YYYY-MM-DD`. */
  daysFromToday(days: number): string;
}

/**
 * The parsed query value of a declared list filter: a number for an `integer` filter, a boolean for
 * a `boolean` one, a `YYYY-MM-DD` string for a `date` one.
 */
export type ListFilterValue = number | boolean | string;

/**
 * The condition of a declared list filter (`listFilters` of the definition): `value` is the parsed
 * query value (see `ListFilterValue`). ANDed with the list's other conditions, for the page and
 * its total alike.
 *
 * @example
 * expired: (value, { eb, table, today }) =>
 *   value ? eb(`${table}.expiry_date`, '<', today) : eb.or([eb(`${table}.expiry_date`, 'is', null), eb(`${table}.expiry_date`, '>=', today)])
 */
export type ListFilterCondition = (value: ListFilterValue, ctx: ListFilterContext) => Expression<SqlBool>;

/**
 * What an action handler returns: `set` (field values to store, validated like a `PATCH`), and/or
 * `result` (answered instead of the row). Nothing: the row is answered as it is after the action.
 */
export type ActionOutcome = void | { set?: Record<string, unknown>; result?: unknown };

/**
 * The handler of a declared action. `row` is the row as stored before the action, `body` the body
 * parsed with the action's schema (undefined when it declares none). Runs inside the write's
 * transaction: throw an AppError for a clean 4xx, and everything rolls back.
 */
export type ActionHandler = (
  ctx: HookContext,
  row: ApiRow,
  // The body's shape is the action's own zod schema: each handler narrows it itself.
  body: any, // eslint-disable-line @typescript-eslint/no-explicit-any
) => ActionOutcome | Promise<ActionOutcome>;

/**
 * Behaviour an entity adds to the generic pattern. Write hooks run inside the write's transaction:
 * throwing (an AppError for a clean 4xx) rolls the whole write back.
 *
 * `values` are the validated input, keyed by field name (camelCase), and may be changed in place
 * (e.g. replace `password` with its hash). `before`/`after` are rows as the API returns them.
 */
export interface EntityHooks {
  beforeCreate?(ctx: HookContext, values: Record<string, unknown>): void | Promise<void>;
  /**
   * Runs once a create's rows passed every check (schema, hooks, references, uniqueness, files),
   * just before they are inserted; `rows` are their values in input order, changed in place. For
   * what the server hands out in turn (a generated number): taken as late in the transaction as
   * possible, a lock it needs is held for the shortest time, and a refused row takes nothing.
   */
  beforeInsert?(ctx: HookContext, rows: Record<string, unknown>[]): void | Promise<void>;
  /** Runs for update and patch (`values` holds only the fields that change). */
  beforeUpdate?(ctx: HookContext, values: Record<string, unknown>, before: ApiRow): void | Promise<void>;
  beforeDelete?(ctx: HookContext, before: ApiRow): void | Promise<void>;
  /**
   * Judges the files a create, update or patch adds (already in the storage under their temporary
   * names, type and size checked), before they are attached: `row` is the row as it will be (the
   * values of a create; the stored row with the changes of an update). Throwing refuses the write
   * and removes them, so a file of the right type but wrong inside (a document template with a
   * broken tag) is never stored.
   */
  beforeFiles?(
    ctx: HookContext,
    uploads: readonly SavedUpload[],
    row: Record<string, unknown>,
  ): void | Promise<void>;
  afterChange?(
    ctx: HookContext,
    change: { action: ChangeAction; before: ApiRow | null; after: ApiRow | null },
  ): void | Promise<void>;
  /**
   * Which rows `user` may list, get and change (HTTP requests and any call made with a signed-in
   * actor; system work without a user is never scoped). Null or undefined: every row. A row out of
   * scope answers 404, as if it did not exist.
   */
  scope?(ctx: ReadContext, user: AuthUser): ScopeWhere | null | undefined;
  /**
   * Computed fields for the rows the API answers (a list page, one get, a write's response): one
   * call per page, so query once for all `rows` (no query per row). Returns the rows to answer.
   * Audit entries and real-time events carry the stored row without them.
   */
  expand?(ctx: ReadContext, rows: ApiRow[]): ApiRow[] | Promise<ApiRow[]>;
  /**
   * What this hook's `scope` and `expand` read beyond the rows, so that a list's answer may be kept
   * while none of it is written (`EntityService.listJson`): the entities whose rows they read, and
   * `perUser` when what they return depends on the reader (then each employee's answers are kept
   * apart, and also dropped when an account, role or permission changes). Without it, the lists of
   * an entity with a `scope` or `expand` hook are read every time.
   */
  reads?: { entities: readonly string[]; perUser?: boolean };
  /** Handlers of the definition's declared `actions`, by action name. */
  actions?: Record<string, ActionHandler>;
  /** Conditions of the definition's declared `listFilters`, by filter name (each one is required). */
  listFilters?: Record<string, ListFilterCondition>;
}

const NO_HOOKS: readonly EntityHooks[] = Object.freeze([]);

/**
 * The hooks of one app instance, per entity (two apps in one process, as tests start them, do not
 * share them). Reached as `app.entities.hooks(name, hooks)`.
 */
export class HookRegistry {
  private readonly byEntity = new Map<string, EntityHooks[]>();

  /** Adds hooks to an entity (run after those added before); returns a function removing them. */
  add(name: string, hooks: EntityHooks): () => void {
    this.byEntity.set(name, [...(this.byEntity.get(name) ?? []), hooks]);
    return () =>
      this.byEntity.set(
        name,
        this.of(name).filter((h) => h !== hooks),
      );
  }

  /** The hooks of `name`: the same array until hooks are added or removed. */
  of(name: string): readonly EntityHooks[] {
    return this.byEntity.get(name) ?? NO_HOOKS;
  }

  /** The first condition of the list filter `filter` on `name`, if a module supplied one. */
  listFilter(name: string, filter: string): ListFilterCondition | undefined {
    return this.of(name).find((h) => h.listFilters?.[filter])?.listFilters?.[filter];
  }

  /** The first handler of `action` on `name`, if a module supplied one. */
  action(name: string, action: string): ActionHandler | undefined {
    return this.of(name).find((h) => h.actions?.[action])?.actions?.[action];
  }
}
