/**
 * Values derived from database rows, kept while the write versions they were read at are the same:
 * each entry carries a stamp (`readStamp`, read before the rows), and a value asked for at another
 * stamp is gone, since some instance has committed a write to those rows meanwhile. The least
 * recently used entries are dropped first, once there are more than `maxEntries` or, with `weigh`,
 * once their weights add up to more than `maxWeight`.
 *
 * @example
 * const answers = new StampedCache<string, Buffer>({ maxEntries: 2000, maxWeight: 32 << 20, weigh: (b) => b.length });
 * const { stamp } = await readStamp(db, ['lawsuits', 'courts']);
 * const body = answers.get(key, stamp) ?? answers.set(key, stamp, await read());
 */
export class StampedCache<K, V> {
  private readonly entries = new Map<K, { stamp: string; value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxWeight?: number; weigh?: (value: V) => number },
  ) {}

  /** The value of `key` read at `stamp`; undefined when none is kept or it was read at another. */
  get(key: K, stamp: string): V | undefined {
    const found = this.entries.get(key);
    if (!found) return undefined;
    this.entries.delete(key);
    if (found.stamp !== stamp) {
      this.total -= found.weight;
      return undefined;
    }
    // Re-inserted: the Map's order is the order of use, the oldest is dropped first.
    this.entries.set(key, found);
    return found.value;
  }

  /** Keeps `value` as read at `stamp` (replacing what `key` held) and returns it. */
  set(key: K, stamp: string, value: V): V {
    this.delete(key);
    const weight = this.limits.weigh?.(value) ?? 0;
    const { maxEntries, maxWeight = Infinity } = this.limits;
    if (weight > maxWeight) return value;
    this.entries.set(key, { stamp, value, weight });
    this.total += weight;
    while (this.entries.size > maxEntries || this.total > maxWeight) {
      const oldest = this.entries.keys().next().value as K;
      this.delete(oldest);
    }
    return value;
  }

  delete(key: K): void {
    const found = this.entries.get(key);
    if (!found) return;
    this.entries.delete(key);
    this.total -= found.weight;
  }

  /** How many entries are kept and their weights' sum. */
  get size(): { entries: number; weight: number } {
    return { entries: this.entries.size, weight: this.total };
  }
}
