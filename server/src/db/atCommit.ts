import { CompiledQuery } from 'kysely';
import { onPostgres, preparedOnPostgres, type Db } from './index';
import type { Trx } from '../engine/context';

/**
 * A kind of write that a transaction gathers and sends just before its commit: the kept totals
 * (row counts, the dashboard's aggregates) and the audit trail. Nothing in the transaction reads
 * them back, and on PostgreSQL a kept total's row stays locked from its update to the commit, so
 * concurrent writes wait for each other only over the last statement.
 *
 * `statements` turns what was gathered into statements in phases: the first phase of every kind
 * goes as one statement on PostgreSQL (`sendTogether`), each later phase after it (a phase that
 * reads what the first wrote, such as removing aggregates that fell to zero).
 */
export interface CommitWrite<S> {
  /** Lower ranks are written first: every transaction locks the shared rows in one order. */
  rank: number;
  start(): S;
  statements(db: Trx | Db, state: S): CompiledQuery[][];
}

/** The writes gathered per open transaction (`withWritesAtCommit`). */
const gathered = new WeakMap<object, Map<CommitWrite<unknown>, unknown>>();

/**
 * Adds to `kind`'s gathered state in `db` when `db` is a transaction that writes at commit and
 * answers true; otherwise answers false, and the caller writes at once.
 */
export function gatherAtCommit<S>(db: Trx | Db, kind: CommitWrite<S>, add: (state: S) => void): boolean {
  const kinds = gathered.get(db);
  if (!kinds) return false;
  let state = kinds.get(kind as CommitWrite<unknown>) as S | undefined;
  if (state === undefined) kinds.set(kind as CommitWrite<unknown>, (state = kind.start()));
  add(state);
  return true;
}

/** Writes `kind`'s statements for `state` now, phase after phase (outside a gathering transaction). */
export async function writeNow<S>(db: Trx | Db, kind: CommitWrite<S>, state: S): Promise<void> {
  for (const phase of kind.statements(db, state)) for (const query of phase) await db.executeQuery(query);
}

/**
 * Runs `run` in `trx`, gathering the writes of `gatherAtCommit`'s kinds, and sends them once it
 * has finished, in rank order (a transaction already gathering just runs `run`).
 */
export async function withWritesAtCommit<T>(trx: Trx, run: () => Promise<T>): Promise<T> {
  if (gathered.has(trx)) return run();
  const kinds = new Map<CommitWrite<unknown>, unknown>();
  gathered.set(trx, kinds);
  try {
    const result = await run();
    gathered.delete(trx);
    const phases: CompiledQuery[][] = [];
    for (const [kind, state] of [...kinds].sort(([a], [b]) => a.rank - b.rank))
      kind.statements(trx, state).forEach((phase, i) => (phases[i] ??= []).push(...phase));
    for (const phase of phases) await sendTogether(trx, phase);
    return result;
  } finally {
    gathered.delete(trx);
  }
}

/** Parameters per combined statement, well under PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;

/**
 * Runs `queries` (statements that answer nothing) in order: on PostgreSQL as the parts of one
 * statement (`with w0 as (…), w1 as (…) select 1`: every part runs once, on the same snapshot,
 * in order), which saves a round trip per part; on SQLite, or when too many parameters, one by one.
 */
async function sendTogether(db: Trx, queries: readonly CompiledQuery[]): Promise<void> {
  const parameters = queries.reduce((n, query) => n + query.parameters.length, 0);
  if (queries.length < 2 || !onPostgres(db) || parameters > MAX_PARAMETERS) {
    for (const query of queries) await db.executeQuery(query);
    return;
  }
  const values: unknown[] = [];
  const parts = queries.map((query, i) => {
    const text = renumbered(query.sql, values.length);
    values.push(...query.parameters);
    return `w${i} as (${text})`;
  });
  const text = `with ${parts.join(', ')} select 1`;
  // Inserts and updates by key, of a few shapes per kind of write.
  preparedOnPostgres(text);
  await db.executeQuery(CompiledQuery.raw(text, values));
}

/** `renumbered`'s answers by offset and text: the same few shapes come with every write. */
const renumberedTexts = new Map<string, string>();

/** `text` with its placeholders `$n` moved up by `offset`; quoted names and strings left as they are. */
export function renumbered(text: string, offset: number): string {
  if (!offset) return text;
  const key = `${offset}:${text}`;
  let moved = renumberedTexts.get(key);
  if (moved === undefined) {
    moved = text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n: string | undefined) =>
      n === undefined ? match : `$${Number(n) + offset}`,
    );
    if (renumberedTexts.size >= 1000) renumberedTexts.clear();
    renumberedTexts.set(key, moved);
  }
  return moved;
}
