import { registry } from '@mizan/contracts';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { gatherAtCommit, writeNow, type CommitWrite } from './atCommit';
import { compiledOnce, onPostgres, type Db } from './index';
import type { Trx } from '../engine/context';

/**
 * Row totals kept in `entity_counts`, so an unfiltered list answers its total without scanning
 * the table. Every insert and delete adjusts them in its own transaction (at its end when it gathers
 * writes for the commit, `db/atCommit.ts`); anything
 * that writes an entity table directly (seeds) calls `adjustCount` too, or `recountEntities`.
 */
export async function adjustCount(trx: Trx | Db, entity: string, delta: number): Promise<void> {
  const add = (changes: Map<string, number>) => changes.set(entity, (changes.get(entity) ?? 0) + delta);
  if (!gatherAtCommit(trx, COUNT_CHANGES, add)) await writeNow(trx, COUNT_CHANGES, add(new Map()));
}

/** Row totals' changes per entity, summed: one update per entity, in name order. */
const COUNT_CHANGES: CommitWrite<Map<string, number>> = {
  rank: 2,
  start: () => new Map(),
  statements: (db, changes) => [
    [...changes]
      .filter(([, delta]) => delta !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([entity, delta]) =>
        db
          .updateTable('entity_counts')
          .set((eb) => ({ total: eb('total', '+', delta) }))
          .where('entity', '=', entity)
          .compile(),
      ),
  ],
};

export async function readCount(db: Trx | Db, entity: string): Promise<number | null> {
  const row = await db
    .selectFrom('entity_counts')
    .select('total')
    .where('entity', '=', entity)
    .executeTakeFirst();
  return row ? Number(row.total) : null;
}

/** Recounts every engine table (at start, after seeds and migrations). */
export async function recountEntities(
  db: Db,
  names: readonly string[] = registry.map((e) => e.name),
): Promise<void> {
  for (const name of names) {
    const entity = registry.find((e) => e.name === name);
    if (!entity) continue;
    const { total } = await db
      .selectFrom(entity.table)
      .select((eb) => eb.fn.countAll().as('total'))
      .executeTakeFirstOrThrow();
    await db
      .insertInto('entity_counts')
      .values({ entity: name, total: Number(total) })
      .onConflict((oc) => oc.column('entity').doUpdateSet({ total: Number(total) }))
      .execute();
  }
}

/**
 * The write versions of `entities` (every entity when omitted) as one stamp for `ListCache`, read
 * with `total` of the first in the same statement; the stamp is null when an entity has no row in
 * `entity_counts` (an unserved table: nothing derived from it may be cached).
 */
export async function readStamp(db: Trx | Db, entities?: readonly string[]): Promise<Stamp> {
  const { rows } = await db.executeQuery<{
    entity: string;
    total: number | string;
    version: number | string;
  }>(stampQuery(db, entities));
  const versions: Versions = new Map(
    rows.map((r) => [String(r.entity), { total: Number(r.total), version: String(r.version) }]),
  );
  return stampFrom(versions, entities ?? [...versions.keys()]);
}

/** Every entity's row total and write version, as one statement read them (`versionsColumn`). */
export type Versions = ReadonlyMap<string, { total: number; version: string }>;

/**
 * `readStamp`'s answer for `entities` from versions read before: the same stamp text (entities in
 * code-point order, whichever way they were read), null when one has no row.
 */
export function stampOf(versions: Versions, entities: readonly string[]): Stamp {
  // Kept per versions read and list of entities (the account's, a list's sources: the same arrays
  // on every request), while the versions last.
  let kept = stamps.get(versions);
  if (!kept) stamps.set(versions, (kept = new Map()));
  let stamp = kept.get(entities);
  if (!stamp) {
    if (kept.size >= 100) kept.clear();
    kept.set(entities, (stamp = stampFrom(versions, entities)));
  }
  return stamp;
}

/** A stamp and the row totals of its entities (read only: a kept stamp is shared). */
export type Stamp = { stamp: string | null; totals: Map<string, number> };

const stamps = new WeakMap<Versions, Map<readonly string[], Stamp>>();

function stampFrom(versions: Versions, entities: readonly string[]): Stamp {
  const totals = new Map<string, number>();
  const parts: string[] = [];
  let complete = true;
  for (const entity of [...new Set(entities)].sort()) {
    const found = versions.get(entity);
    if (!found) {
      complete = false;
      continue;
    }
    totals.set(entity, found.total);
    parts.push(`${entity}:${found.version}`);
  }
  return { stamp: complete ? parts.join(',') : null, totals };
}

/**
 * What a transaction was begun after: the write versions its request read first (with its
 * session), and the database (`Db`) they are of. A value kept at one of those versions was read
 * from rows committed no earlier, so it may serve the transaction's reads of what the
 * transaction has not written itself (`readSettings`).
 */
const begunAfterVersions = new WeakMap<object, { db: object; versions: Versions }>();

/** Records that transaction `trx` on `db` began after `versions` were read (see `versionsBefore`). */
export function begunAfter(trx: object, db: object, versions: Versions): void {
  begunAfterVersions.set(trx, { db, versions });
}

/** The versions transaction `trx` began after, and the database they are of; undefined if unknown. */
export function versionsBefore(trx: object): { db: object; versions: Versions } | undefined {
  return begunAfterVersions.get(trx);
}

/**
 * A column giving every entity's `entity:version:total` in one text, for a statement that reads
 * something else too (the session of a request): its versions come at no extra statement.
 * Entity names are identifiers (no `:` or `,`).
 */
export function versionsColumn(db: Pick<Kysely<object>, 'getExecutor'>): RawBuilder<string | null> {
  const item = sql`entity || ':' || version || ':' || total`;
  return onPostgres(db)
    ? sql<string | null>`(select string_agg(${item}, ',') from entity_counts)`
    : sql<string | null>`(select group_concat(${item}, ',') from entity_counts)`;
}

/**
 * `versionsColumn`'s text read back. The same text gives the same object: it changes only when
 * something is written, and every request between two writes reads the same.
 */
export function parseVersions(text: string | null): Versions {
  if (text === last.text) return last.versions;
  const versions = new Map<string, { total: number; version: string }>();
  for (const item of text ? text.split(',') : []) {
    const [entity, version, total] = item.split(':');
    versions.set(entity!, { total: Number(total), version: version! });
  }
  last = { text, versions };
  return versions;
}

let last: { text: string | null | undefined; versions: Versions } = { text: undefined, versions: new Map() };

/** `readStamp`'s statement for `entities` (every entity when omitted), compiled once. */
const stampQuery = (db: Trx | Db, entities: readonly string[] | undefined) =>
  compiledOnce(db, `readStamp\n${entities ? entities.join('\n') : '*'}`, () => {
    // In no particular order: `stampFrom` sorts.
    let query = db.selectFrom('entity_counts').select(['entity', 'total', 'version']);
    if (entities) query = query.where('entity', 'in', entities);
    return query.compile();
  });
