/**
 * The one declarative definition of an entity. The server derives its table, routes, validation,
 * permission checks, audit entries and real-time events from it; the client derives the list
 * screen, the form and the menu entry.
 *
 * @example
 * export const countries = defineEntity({
 *   name: 'countries',
 *   path: '/admin/settings/places/countries',
 *   remote: 'settings',
 *   fields: {
 *     name: { type: 'string', required: true, max: 100, unique: true, search: true },
 *     continentId: { type: 'ref', entity: 'continents', required: true, filter: true },
 *   },
 * });
 */

import type { ZodType } from 'zod';
import { checkDefinition } from './define-check';

/** Where an entity's screens live: the host or one of the remotes. */
export type RemoteName = 'settings' | 'clients' | 'legal' | 'tasks' | 'chat';

/** Flags every field kind shares. */
export interface FieldCommon {
  /** Must be present and not blank on create and update. */
  required?: boolean;
  /** No two rows may hold the same value (409 on conflict). */
  unique?: boolean;
  /** Part of the free-text `q` search. */
  search?: boolean;
  /** May be used in `sort=field:asc|desc` (the list column is sortable). */
  sort?: boolean;
  /** May be used as a per-field filter in the list query (`?field=value`). */
  filter?: boolean;
  /** Shown as a list column by default (default true; false hides it until chosen). */
  list?: boolean;
  /** Never returned by the API (passwords). */
  writeOnly?: boolean;
  /** Only accepted on create, ignored (and not shown) on update. */
  createOnly?: boolean;
  /**
   * Shown in the create and edit forms (default true). `false`: written by the server or by an
   * action only (a lawsuit's state, a hearing's place in its postponement chain); lists and
   * record pages still show it.
   */
  form?: boolean;
  /**
   * Written only by the server: `server` when the engine or a module's hook fills it on create (a
   * task's creator, a comment's author), `action` when only a declared action or the module's own
   * writes change it (a lawsuit's state, a hearing's place in its postponement chain), `create`
   * when the create's body sets it and afterwards only an action changes it (a deadline's due
   * date, a task's working note). A write the field is the server's in (`setByServer`) sending
   * another value than the stored one (on create: the default, else none) is refused with 422 on
   * the field (`http.serverField.refused`); a value sent back unchanged is dropped, so a form
   * echoing the row it read is not refused. Such fields belong out of forms too (`form: false`),
   * but for `create` ones, which the create form may show and the edit form leaves out.
   */
  setBy?: 'server' | 'action' | 'create';
  /** Value used when the field is absent on create. */
  default?: string | number | boolean | null;
  /**
   * An identifier or code (circuit number, ID number): shown without thousands separators, and
   * for text fields Arabic-Indic digits are stored as ASCII.
   */
  code?: boolean;
}

export interface StringField extends FieldCommon {
  type: 'string' | 'text' | 'email' | 'phone' | 'url' | 'color' | 'password';
  /** Maximum length in characters (string default 255, text default 5000). */
  max?: number;
  min?: number;
}
export interface NumberField extends FieldCommon {
  type: 'integer' | 'number';
  min?: number;
  max?: number;
}
/**
 * An amount of money: the API value is an integer count of minor units (1/`MONEY_SCALE` of the
 * office currency, see money.ts), stored as BIGINT/INTEGER, never a float. `min` (default 0: no
 * negative amounts) and `max` (default `MONEY_MAX`) are in minor units too.
 */
export interface MoneyField extends FieldCommon {
  type: 'money';
  min?: number;
  max?: number;
}
/**
 * A length of time: the API value is a whole number of minutes (see duration.ts); text typed as
 * `h:mm` or decimal hours (`1:30`, `1.5`, Arabic-Indic digits too) is read into minutes by the
 * schema. `min` and `max` are minutes (default 0 and `MINUTES_PER_DAY`).
 */
export interface DurationField extends FieldCommon {
  type: 'duration';
  min?: number;
  max?: number;
}
export interface BooleanField extends FieldCommon {
  type: 'boolean';
}
export interface DateField extends FieldCommon {
  /** `date` is `YYYY-MM-DD`; `datetime` is an ISO 8601 instant. */
  type: 'date' | 'datetime';
}
export interface EnumField<V extends string = string> extends FieldCommon {
  type: 'enum';
  values: readonly V[];
}
/**
 * A condition on the rows of the referenced entity: each key a field of it, equal to the value;
 * for a `ref`/`refs` field, a nested condition on the rows that field points at (employees whose
 * roles are lawyers' roles: `{ roleIds: { lawyers: true } }`).
 */
export interface OptionsWhere {
  readonly [field: string]: string | number | boolean | OptionsWhere;
}

/** What a reference field's picker offers (`GET /api/options/<entity>/<field>`, api/options.ts). */
export interface RefOptions {
  /** Only the referenced rows meeting this condition are offered (values already chosen still show). */
  where?: OptionsWhere;
}

/** A reference to one row of another entity (stored as `<field>` integer column, checked on write). */
export interface RefField extends FieldCommon {
  type: 'ref';
  entity: string;
  /** Narrows what the field's picker offers; see `RefOptions`. */
  options?: RefOptions;
  /**
   * `cascade`: the row is part of the one it references and is deleted with it (a task's
   * comments), each through its own delete (hooks, audit entry, event, files) in the same
   * transaction. Default: a referenced row cannot be deleted (409 `referenced`).
   */
  onDelete?: 'cascade';
}
/** A many-to-many reference, stored in a join table `<table>_<field>`. */
export interface RefsField extends FieldCommon {
  type: 'refs';
  entity: string;
  /** Narrows what the field's picker offers; see `RefOptions`. */
  options?: RefOptions;
  /** Most ids one row may hold; default `MAX_REFS` (1,000). */
  max?: number;
}
/**
 * The office's documents: PDF, images (PNG, JPEG, WebP) and Word. What an employee's file or a
 * power of attorney's scan may be; a files field accepting these says so by naming this list.
 */
export const DOCUMENT_FILE_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;

/** Uploaded files attached to the row (multipart bodies), stored under DATA_DIR. */
export interface FilesField extends FieldCommon {
  type: 'files';
  /** Accepted MIME types; a file of any other type gets 415. */
  accept: readonly string[];
  /**
   * A bound of this kind's own in bytes, below the office's upload limit (the `maxUploadMb` system
   * setting, which every files field follows): only for a reason of the kind's (a document template
   * is read whole in memory). Larger gets 413.
   */
  maxSize?: number;
  maxCount: number;
}

export type FieldDefinition =
  | StringField
  | NumberField
  | MoneyField
  | DurationField
  | BooleanField
  | DateField
  | EnumField
  | RefField
  | RefsField
  | FilesField;

/**
 * Whether only the server may write `field` in a create or in an update (or patch): any `setBy`
 * field, but a `setBy: 'create'` one on create, whose body sets it.
 */
export function setByServer(field: FieldDefinition, write: 'create' | 'update'): boolean {
  return field.setBy !== undefined && !(write === 'create' && field.setBy === 'create');
}

export type FieldType = FieldDefinition['type'];
export type Fields = Record<string, FieldDefinition>;

/**
 * A custom action on one row beyond CRUD (`archive`, `postpone`, `close`). The engine derives the
 * route (`PATCH /:id/<action>` by default), the `<entity>.<action>` permission, the audit verb
 * (the action's name) and the real-time event; the module supplies the handler
 * (`app.entities.hooks(name, { actions: { <action>: handler } })` on the server).
 *
 * @example
 * actions: { archive: { body: z.object({ reason: z.string().max(200) }) } }
 */
export interface EntityActionDefinition {
  /** Schema of the JSON body (422 with field messages when it does not match); none: no body. */
  body?: ZodType;
  /** Default `PATCH`. */
  method?: 'PATCH' | 'POST';
  /** Route under the entity's path; must hold `:id` (the row). Default `/:id/<action>`. */
  path?: string;
}

/**
 * A list filter beyond field equality (`?expiresWithin=30`, `?expired=true`, `?filedFrom=2026-01-31`):
 * the query value is parsed by its type (an integer within `min`..`max`, Arabic-Indic digits
 * accepted; `true`/`false`; or a `date`, `YYYY-MM-DD`, a real calendar day), a bad value is 422 on
 * the filter's name. The condition itself is the server's:
 * `app.entities.hooks(name, { listFilters: { <filter>: (value, { eb, table, today }) => … } })`,
 * required for every declared filter (start-up fails without it). Its label is
 * `entities:<entity>.filters.<name>`.
 */
export interface ListFilterDefinition {
  type: 'integer' | 'boolean' | 'date';
  /** Bounds of an `integer` filter. */
  min?: number;
  max?: number;
}

/** The route of an action under the entity's path, e.g. `/:id/archive`. */
export function actionPath(action: string, definition: EntityActionDefinition): string {
  return definition.path ?? `/:id/${action}`;
}

/**
 * The path (under `/api`) of an action the entity's definition declares; an action it does not
 * declare throws.
 *
 * @example entityActionPath(tasks, 'status') // '/admin/lawsuits/tasks/status/:id'
 */
export function entityActionPath(
  entity: { readonly path: string; readonly actions?: Readonly<Record<string, EntityActionDefinition>> },
  action: string,
): string {
  const definition = entity.actions?.[action];
  if (!definition) throw new Error(`${entity.path}: no action ${action}`);
  return entity.path + actionPath(action, definition);
}

export interface EntityDefinition<F extends Fields = Fields> {
  /** camelCase plural; also the real-time channel, the permission prefix and the i18n key. */
  name: string;
  /** API base path under `/api`, exactly as the seed lists it. */
  path: string;
  /** The remote whose screens show this entity. */
  remote: RemoteName;
  fields: F;
  /** Has an active/inactive toggle (`PATCH /status/{id}`). Default true. */
  status?: boolean;
  /** Has a banned toggle (`PATCH /baned/{id}`). */
  baned?: boolean;
  /** Rows can be imported from CSV/XLSX (`POST /import`). */
  importable?: boolean;
  /** Field shown as the row's label in references and selects. Default `name`. */
  titleField?: keyof F & string;
  /**
   * Fields whose values, joined, tell two rows of the same title apart in a reference picker
   * (an employee's job title and email); empty values are left out. Default: none.
   */
  optionDetail?: readonly (keyof F & string)[];
  /** Default list order. Default `createdAt:desc`. */
  defaultSort?: string;
  /** Groups of fields that must be unique together. */
  uniqueTogether?: readonly (readonly (keyof F & string)[])[];
  /**
   * Composite indexes beyond the ones every table gets (each sortable column, each reference,
   * each unique field): a list query that filters on several columns and sorts by another, at a
   * million rows. Each group names fields in the index's order (equality filters first, then the
   * range or sort column; `createdAt`, `updatedAt` and `status` may be named too); the server
   * ends every index with `id`, so it also serves the `(…, sort column, id)` page order.
   *
   * @example indexes: [['lawyerId', 'date']] // a lawyer's hearings of a month, by date
   */
  indexes?: readonly (readonly (IndexColumn<F> & string)[])[];
  /**
   * Filter combinations whose exact totals the database keeps (a row per combination of values,
   * raised and lowered by triggers in every writing transaction), so a list filtered by exactly
   * these fields answers its total without counting, even on its first read. Each group names
   * one to three `ref` or `enum` fields; a list whose equality filters are exactly a group's
   * fields (no `q`, no declared list filter, no scope) reads its total from them.
   *
   * @example counts: [['courtId', 'state']] // a court's lawsuits in one state, the total at once
   */
  counts?: readonly (readonly (keyof F & string)[])[];
  /**
   * Route (under the entity's path) deleting one attached file: `DELETE` with `:fileId`, and
   * `:ownerId` when the owner row is part of the path (`/delete/file/:ownerId/:fileId`); without
   * it (`/files/:fileId`) the owner is the file's own.
   */
  fileDeletePath?: string;
  /** List filters beyond field equality, by query name (camelCase); see `ListFilterDefinition`. */
  listFilters?: Readonly<Record<string, ListFilterDefinition>>;
  /** Custom row actions by name (camelCase); see `EntityActionDefinition`. */
  actions?: Readonly<Record<string, EntityActionDefinition>>;
  /** Table name; default snake_case of `name`. */
  table?: string;
  /**
   * Where the side menu lists this entity's screen: in a group of the side menu (`{ group: 'courts' }`),
   * on its own (`{ group: null }`), or nowhere (`false`: shown inside another screen, e.g. an
   * association). `order` sorts within the group, then the menu (lower first; default 0).
   */
  menu?: MenuPlacement;
}

/** What a composite index may name: a field, or a system column lists filter or sort by. */
export type IndexColumn<F extends Fields> = keyof F | 'createdAt' | 'updatedAt' | 'status';

/** See `EntityDefinition.menu`. */
export type MenuPlacement = false | { group: string | null; order?: number };

/** Every definition, with its derived names filled in. */
export type Entity<F extends Fields = Fields> = EntityDefinition<F> & {
  table: string;
  titleField: string;
  defaultSort: string;
  status: boolean;
  baned: boolean;
  importable: boolean;
  /** Screen route in the admin UI: mirrors the API path under `/admin`. */
  route: string;
};

export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

type CharsOf<S extends string> = S extends `${infer C}${infer Rest}` ? C | CharsOf<Rest> : never;
type UpperChar = CharsOf<'ABCDEFGHIJKLMNOPQRSTUVWXYZ'>;
type LowerOrDigit = CharsOf<'abcdefghijklmnopqrstuvwxyz0123456789'>;

/**
 * `snakeCase` as a type: `SnakeCase<'lawsuitId'>` is `'lawsuit_id'`, so a column name derived from
 * a field key keeps its literal type.
 */
export type SnakeCase<S extends string, Prev extends string = ''> = string extends S
  ? string
  : S extends `${infer C}${infer Rest}`
    ? `${C extends UpperChar ? (Prev extends LowerOrDigit ? `_${Lowercase<C>}` : Lowercase<C>) : C}${SnakeCase<Rest, C>}`
    : '';

/**
 * Declares an entity once; see the module comment for an example. The definition is checked here
 * (names, path, fields, titleField, defaultSort, uniqueTogether, indexes, files rules: a `DefinitionError`
 * naming the entity and field at start-up); reference targets and cycles are checked when the
 * registry is built (`checkRegistry`).
 *
 * Relations: `ref` is one row of another entity, `refs` a plain many-to-many list (a join table
 * with nothing but the two ids). A link that carries data of its own (a client's capacity in a
 * lawsuit, the date a judge joined a circuit) is an association entity: its own definition with
 * two `ref` fields and `uniqueTogether` over them, plus the data fields. It gets its own table,
 * routes, permissions, audit and events like any entity, and `menu: false` when it is only shown
 * inside the record page of one side.
 *
 * @example
 * export const lawsuitClients = defineEntity({
 *   name: 'lawsuitClients',
 *   path: '/admin/lawsuits/clients',
 *   remote: 'legal',
 *   titleField: 'capacityId',
 *   menu: false,
 *   uniqueTogether: [['lawsuitId', 'customerId']],
 *   fields: {
 *     lawsuitId: { type: 'ref', entity: 'lawsuits', required: true },
 *     customerId: { type: 'ref', entity: 'customers', required: true },
 *     capacityId: { type: 'ref', entity: 'lawsuitOwners', required: true },
 *     notes: { type: 'text', max: 1000 },
 *   },
 * });
 */
export function defineEntity<const F extends Fields>(definition: EntityDefinition<F>): Entity<F> {
  checkDefinition(definition as unknown as EntityDefinition<Fields>);
  return {
    ...definition,
    table: definition.table ?? snakeCase(definition.name),
    titleField: definition.titleField ?? 'name',
    defaultSort: definition.defaultSort ?? 'createdAt:desc',
    status: definition.status ?? true,
    baned: definition.baned ?? false,
    importable: definition.importable ?? false,
    route: definition.path.startsWith('/admin') ? definition.path : `/admin${definition.path}`,
  };
}

/** A stored file as the API returns it (the stored name is never exposed). */
export interface StoredFile {
  id: number;
  originalName: string;
  mimeType: string;
  size: number;
  createdAt: string;
}

/** The API (and typed database) value of a field of definition `D`. */
export type FieldValue<D> = D extends { type: 'integer' | 'number' | 'money' | 'duration' | 'ref' }
  ? number
  : D extends { type: 'boolean' }
    ? boolean
    : D extends { type: 'enum'; values: readonly (infer V)[] }
      ? V
      : D extends { type: 'refs' }
        ? number[]
        : D extends { type: 'files' }
          ? StoredFile[]
          : string;

type RequiredKeys<F> = { [K in keyof F]: F[K] extends { required: true } ? K : never }[keyof F];
type OptionalKeys<F> = Exclude<keyof F, RequiredKeys<F>>;
type Readable<F> = { [K in keyof F as F[K] extends { writeOnly: true } ? never : K]: F[K] };

/** System columns every row carries. */
export interface SystemColumns {
  id: number;
  createdAt: string;
  updatedAt: string;
  status?: boolean;
  baned?: boolean;
}

/** A row as the API returns it. */
export type EntityRecord<E extends { fields: Fields }> = SystemColumns & {
  [K in RequiredKeys<Readable<E['fields']>>]: FieldValue<E['fields'][K]>;
} & { [K in OptionalKeys<Readable<E['fields']>>]: FieldValue<E['fields'][K]> | null };

/** The body of a create request. */
export type EntityInput<E extends { fields: Fields }> = {
  [K in RequiredKeys<E['fields']>]: FieldValue<E['fields'][K]>;
} & { [K in OptionalKeys<E['fields']>]?: FieldValue<E['fields'][K]> | null };

/** The list envelope of the API (docs/architecture.md). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging';
/** Default maximum lengths when a string field does not give one. */
export const DEFAULT_MAX = { string: 255, text: 5000 } as const;

/**
 * The most characters a free-text field takes (its `max`, else the default of its type): the
 * schema refuses more (422 naming the field) and the form shows it as a counter. Nothing is ever
 * cut to fit.
 *
 * @example textMaxLength({ type: 'string', max: 150 }) // 150
 */
export function textMaxLength(field: { type: string; max?: number }): number {
  return field.max ?? (field.type === 'text' ? DEFAULT_MAX.text : DEFAULT_MAX.string);
}
