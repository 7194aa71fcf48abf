import type { Db, Dialect } from '../db';
import { recount, rollUp, storedStats, type StatRow } from '../dashboard/stats';

/** A row as comparable text: its key, then its sums. */
const asText = (r: StatRow) =>
  `${r.kind}|${r.branchId}|${r.month}|${r.k1}|${r.k2}=${r.n},${r.agreed},${r.paid},${r.pending},${r.attended}`;

/** Aggregate rows that count something, as sorted comparable text (a kept row brought back to zero equals none). */
export const comparableStats = (rows: readonly StatRow[]) =>
  rows
    .filter((r) => r.n !== 0 || r.agreed !== 0 || r.paid !== 0 || r.pending !== 0 || r.attended !== 0)
    .map(asText)
    .sort();

/**
 * The dashboard's kept aggregates and what a recount of the tables gives, each as sorted lines: a
 * write that keeps them right leaves the two equal.
 *
 * @example expect(kept).toEqual(recounted)
 */
export async function keptAndRecounted(
  db: Db,
  dialect: Dialect,
): Promise<{ kept: string[]; recounted: string[] }> {
  return {
    kept: comparableStats(await storedStats(db)),
    recounted: comparableStats(rollUp(await recount(db, dialect))),
  };
}
