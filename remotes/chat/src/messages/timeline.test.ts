import { fetchSince, lastSeenId, mergeMessages, oldestId, type CursorPage } from './timeline';

const at = (minute: number) => `2026-11-23T10:${String(minute).padStart(2, '0')}:00.000Z`;
const message = (id: number, body = `m${id}`, editedMinute: number | null = null) => ({
  id,
  body,
  editedAt: editedMinute === null ? null : at(editedMinute),
  deletedAt: null as string | null,
});

describe('mergeMessages', () => {
  it('orders by id and keeps each id once when sources overlap', () => {
    const merged = mergeMessages([message(1), message(3)], [message(3), message(2), message(2)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('keeps the newer copy: an edit is not undone by an older page', () => {
    const edited = message(2, 'edited', 30);
    const merged = mergeMessages([message(1), edited], [message(2), message(3)]);
    expect(merged.find((m) => m.id === 2)?.body).toBe('edited');
    expect(mergeMessages(merged, [message(2, 'later edit', 40)]).find((m) => m.id === 2)?.body).toBe(
      'later edit',
    );
  });

  it('keeps a deletion: neither an older page nor a late edit brings the text back', () => {
    const tombstone = { ...message(2, ''), deletedAt: at(50) };
    const merged = mergeMessages([message(1), tombstone], [message(2), message(2, 'edited', 55)]);
    expect(merged.find((m) => m.id === 2)).toBe(tombstone);
    expect(mergeMessages([message(2, 'edited', 30)], [tombstone])[0]).toBe(tombstone);
  });

  it('returns the same list when nothing new came', () => {
    const current = [message(1), message(2)];
    expect(mergeMessages(current, [message(2), { ...message(1) }])).toBe(current);
  });

  it('gives the ends of the list as cursors', () => {
    const list = mergeMessages([], [message(5), message(9), message(7)]);
    expect([oldestId(list), lastSeenId(list)]).toEqual([5, 9]);
    expect([oldestId([]), lastSeenId([])]).toEqual([null, null]);
  });
});

describe('fetchSince', () => {
  /** The server's messages 1..n, answered `size` at a time after a cursor. */
  const serverOf = (n: number, size: number) => {
    const asked: number[] = [];
    const all = Array.from({ length: n }, (_, i) => message(i + 1));
    const fetchAfter = async (afterId: number): Promise<CursorPage<ReturnType<typeof message>>> => {
      asked.push(afterId);
      const items = all.filter((m) => m.id > afterId).slice(0, size);
      return { items, hasMore: all.some((m) => m.id > (items.at(-1)?.id ?? afterId)) };
    };
    return { asked, fetchAfter };
  };

  it('walks every page after the cursor', async () => {
    const server = serverOf(7, 3);
    const missed = await fetchSince(2, server.fetchAfter);
    expect(missed.map((m) => m.id)).toEqual([3, 4, 5, 6, 7]);
    expect(server.asked).toEqual([2, 5]);
  });

  it('asks once when nothing was missed', async () => {
    const server = serverOf(4, 3);
    expect(await fetchSince(4, server.fetchAfter)).toEqual([]);
    expect(server.asked).toEqual([4]);
  });

  it('stops when a page claims more but does not move the cursor', async () => {
    let calls = 0;
    const stuck = async () => {
      calls += 1;
      return { items: [], hasMore: true };
    };
    expect(await fetchSince(1, stuck)).toEqual([]);
    expect(calls).toBe(1);
  });
});
