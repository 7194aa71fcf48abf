/**
 * A chat's messages as this client knows them: the server's rows in id order (ids grow with time),
 * each id once. Every way a message reaches the client (a page, a live event, the answer to a send,
 * the catch-up after a reconnection) goes through `mergeMessages`, so overlapping sources never
 * show a message twice.
 */

/** What merging needs of a message: its server id and its last edit or deletion. */
export interface Identified {
  id: number;
  editedAt: string | null;
  deletedAt: string | null;
}

/**
 * Whether `incoming` is at least as recent as `known` (so it may replace it): a deletion is final,
 * then the later edit wins. A copy with an older stamp never replaces a newer one.
 */
function notOlder(incoming: Identified, known: Identified): boolean {
  if (known.deletedAt) return Boolean(incoming.deletedAt);
  if (incoming.deletedAt) return true;
  return (incoming.editedAt ?? '') >= (known.editedAt ?? '');
}

/**
 * `current` and `incoming` as one list ordered by id without duplicates; of two copies of one
 * message the more recent one stays (an edit that arrived live is not undone by an older page).
 * Returns `current` itself when nothing changed, so a React state update can be skipped.
 *
 * @example mergeMessages([{id:1,…},{id:3,…}], [{id:2,…},{id:3,…}]) // ids 1, 2, 3
 */
export function mergeMessages<M extends Identified>(current: readonly M[], incoming: readonly M[]): M[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  let changed = false;
  for (const message of incoming) {
    const known = byId.get(message.id);
    if (known && (known === message || !notOlder(message, known))) continue;
    if (known && JSON.stringify(known) === JSON.stringify(message)) continue;
    byId.set(message.id, message);
    changed = true;
  }
  if (!changed) return current as M[];
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The newest message's id: where a catch-up after a disconnection starts (null: nothing yet). */
export function lastSeenId(messages: readonly Identified[]): number | null {
  return messages.length ? messages[messages.length - 1]!.id : null;
}

/** The oldest message's id: the cursor of the next page upwards (null: nothing yet). */
export function oldestId(messages: readonly Identified[]): number | null {
  return messages.length ? messages[0]!.id : null;
}

/** One page of a cursor query: the rows and whether more lie beyond them. */
export interface CursorPage<M> {
  items: M[];
  hasMore: boolean;
}

/**
 * Everything after `afterId`, page by page until the server says there is no more: what a client
 * missed while disconnected. `fetchAfter` asks the server for the messages after a cursor.
 */
export async function fetchSince<M extends Identified>(
  afterId: number,
  fetchAfter: (afterId: number) => Promise<CursorPage<M>>,
): Promise<M[]> {
  const found: M[] = [];
  let cursor = afterId;
  for (;;) {
    const page = await fetchAfter(cursor);
    found.push(...page.items);
    const last = lastSeenId(page.items);
    // A page that moves the cursor no further ends the walk even if it claims more.
    if (!page.hasMore || last === null || last <= cursor) return found;
    cursor = last;
  }
}
