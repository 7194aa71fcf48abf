import type { FieldValue, Fields, SnakeCase } from '@mizan/contracts';
import { toBoolean, type Db } from '../db';
import { columnName } from '../db/migrations';
import type { Trx } from './context';
import { fieldValue, instant, type DbRow } from './serialize';

/**
 * Typed access to an entity's own table for modules: the column names of its fields
 * (`cols(sessions).lawsuitId` is `'lawsuit_id'`, typed as that literal) and its rows read with the
 * engine's conversions (`readRow`, `selectFields`), so a module neither spells a column nor casts
 * a value. docs/architecture.md, "The entity engine".
 */

/** What these helpers need of a definition. */
interface Definition {
  table: string;
  fields: Fields;
  status?: boolean;
  baned?: boolean;
}

/** Keys of the fields stored in the entity's own table (`refs` and `files` live in others). */
type StoredKeys<F extends Fields> = {
  [K in keyof F & string]: F[K] extends { type: 'refs' | 'files' } ? never : K;
}[keyof F & string];

const SYSTEM_COLUMNS = {
  id: 'id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  status: 'status',
  baned: 'baned',
} as const;

/** The columns every table has, as read. */
interface SystemValues {
  id: number;
  createdAt: string;
  updatedAt: string;
  status: boolean;
  baned: boolean;
}

/**
 * Column name by field key (and the system columns), each typed as its literal snake_case name.
 * `status` and `baned` are there when the definition has them (its type cannot tell).
 */
export type Columns<E extends Definition> = typeof SYSTEM_COLUMNS & {
  readonly [K in StoredKeys<E['fields']>]: SnakeCase<K>;
};

/** A row of the entity's table as read: a required field is never null, an optional one may be. */
export type FieldValues<E extends Definition> = SystemValues & {
  [K in StoredKeys<E['fields']>]: E['fields'][K] extends { required: true }
    ? FieldValue<E['fields'][K]>
    : FieldValue<E['fields'][K]> | null;
};

/** A key `readRow` and `selectFields` take: a stored field or a system column. */
export type RowKey<E extends Definition> = keyof FieldValues<E> & string;

declare const selected: unique symbol;
/** A raw row `selectFields` answers: its columns, and, in its type only, the keys they hold. */
export type SelectedRow<K extends string> = DbRow & { readonly [selected]?: K };

const maps = new WeakMap<Definition, Readonly<Record<string, string>>>();

/** The column names of `entity`'s fields: one frozen map per definition. */
export function cols<E extends Definition>(entity: E): Columns<E> {
  let map = maps.get(entity);
  if (!map) {
    const { status, baned, ...always } = SYSTEM_COLUMNS;
    const built: Record<string, string> = { ...always };
    if (entity.status) built.status = status;
    if (entity.baned) built.baned = baned;
    for (const [key, field] of Object.entries(entity.fields))
      if (field.type !== 'refs' && field.type !== 'files') built[key] = columnName(key);
    map = Object.freeze(built);
    maps.set(entity, map);
  }
  return map as Columns<E>;
}

function systemValue(key: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (key === 'id') return Number(value);
  if (key === 'status' || key === 'baned') return toBoolean(value);
  return instant(value);
}

/**
 * Reads the fields `keys` of a raw row of `entity` (snake_case columns), converted as the engine
 * converts its rows (`fieldValue`). Without `keys`, a row of `selectFields` is read for the keys it
 * selected.
 */
export function readRow<E extends Definition, K extends RowKey<E>>(
  entity: E,
  raw: SelectedRow<K>,
): Pick<FieldValues<E>, K>;
export function readRow<E extends Definition, K extends RowKey<E>>(
  entity: E,
  raw: DbRow,
  keys: readonly K[],
): Pick<FieldValues<E>, K>;
export function readRow(entity: Definition, raw: DbRow, keys?: readonly string[]): Record<string, unknown> {
  const map = cols(entity) as Readonly<Record<string, string>>;
  const out: Record<string, unknown> = {};
  for (const key of keys ?? Object.keys(map)) {
    const column = map[key];
    if (column === undefined) throw new Error(`${entity.table} has no column for ${key}`);
    if (!keys && !(column in raw)) continue;
    const field = entity.fields[key];
    out[key] = field ? fieldValue(field.type, raw[column]) : systemValue(key, raw[column]);
  }
  return out;
}

/**
 * `select id, <keys' columns> from <entity's table>`, to finish with `where`, locks and `execute`;
 * `readRow(entity, row)` then reads each row it answers.
 *
 * @example
 * const hearing = await selectFields(trx, sessions, ['lawsuitId']).where('id', '=', id).executeTakeFirst();
 * if (hearing && readRow(sessions, hearing).lawsuitId !== lawsuitId) …
 */
export function selectFields<E extends Definition, K extends RowKey<E>>(
  db: Db | Trx,
  entity: E,
  keys: readonly K[],
) {
  const map = cols(entity) as Readonly<Record<string, string>>;
  const columns = [...new Set(['id', ...keys.map((key) => map[key]!)])];
  return db.selectFrom(entity.table).select(columns).$castTo<SelectedRow<K | 'id'>>();
}
