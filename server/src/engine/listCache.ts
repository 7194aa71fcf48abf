import { StampedCache } from '../db/stampedCache';

/**
 * What list queries learned about an entity's rows, kept per app instance and valid while the
 * rows are unchanged: the exact total of a filtered list, and where pages of a sorted list start
 * (the sort key of the row just before a position), so that a deep page is a seek from the
 * nearest known boundary instead of an OFFSET over every row before it.
 *
 * Each entry carries a stamp: the write versions (`entity_counts.version`, raised by triggers in
 * every writing transaction, see db/migrations/writeVersions.ts) of the entities its rows depend
 * on, read before the rows were. An entry is used only while the stamp read for a request is the
 * same, so no write of any instance has committed since: what it holds is still exact.
 */

/** The sort key of one row: its sort value (a column or a referenced row's title) and id. */
export type RowKey = readonly [unknown, number];

interface Entry {
  total?: number;
  /** Position → key of the row at position - 1 (rows before it, in the list's order). */
  boundaries: Map<number, RowKey>;
}

/** Boundaries kept per list query: a user paging through a long list leaves one per page. */
const MAX_BOUNDARIES = 2000;

export class ListCache {
  private readonly entries: StampedCache<string, Entry>;

  constructor(maxEntries = 500) {
    this.entries = new StampedCache({ maxEntries });
  }

  /** The entry of a list query (`key`: its compiled SQL) at `stamp`; a stale one is replaced. */
  private entry(key: string, stamp: string): Entry {
    return this.entries.get(key, stamp) ?? this.entries.set(key, stamp, { boundaries: new Map() });
  }

  total(key: string, stamp: string): number | undefined {
    return this.entry(key, stamp).total;
  }

  setTotal(key: string, stamp: string, total: number): void {
    this.entry(key, stamp).total = total;
  }

  /** The known boundary nearest below or at `position`, if any. */
  boundary(key: string, stamp: string, position: number): { at: number; key: RowKey } | undefined {
    let best: { at: number; key: RowKey } | undefined;
    for (const [at, rowKey] of this.entry(key, stamp).boundaries)
      if (at <= position && (!best || at > best.at)) best = { at, key: rowKey };
    return best;
  }

  setBoundary(key: string, stamp: string, position: number, rowKey: RowKey): void {
    const { boundaries } = this.entry(key, stamp);
    if (boundaries.size >= MAX_BOUNDARIES) boundaries.delete(boundaries.keys().next().value!);
    boundaries.set(position, rowKey);
  }
}
