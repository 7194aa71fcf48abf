import {
  API_BASE,
  FILE_SEARCH_COUNT_BOUND,
  foldArabic,
  type FileContentSearchResult,
  type GlobalSearchResult,
} from '@mizan/contracts';
import { createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { PAGES_TABLE, TEXTS_TABLE } from './migrations';
import { snippet } from './service';

/** The owner of the files written here: its own read rule (below), no entity of the registry. */
const OWNER = 'searchTestPapers';
/** More files than the count goes to, each with the common word. */
const FILES = FILE_SEARCH_COUNT_BOUND + 100;
/** The oldest files' owners, the only ones a clerk may read. */
const CLERK_OWNERS = 3;

/** A page of file number `n` (1 = oldest): the common word on every one, a rarer word on every 100th. */
const pageText = (n: number) => `مذكرة بدفاع في الدعوى رقم ${n}${n % 100 === 0 ? ' بصفة مستعجلة' : ''}`;

describe.each(dialects())('search inside files’ text, many matches, on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let clerk: Session;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const made = await createUserWith(t.app, admin.headers, ['customers.view']);
    clerk = await t.login(made.email, made.password);
    t.app.fileAccess.set(OWNER, (user, file) => user.id !== made.employeeId || file.owner_id <= CLERK_OWNERS);
    const at = new Date().toISOString();
    for (let from = 1; from <= FILES; from += 250) {
      const batch = Array.from({ length: Math.min(250, FILES - from + 1) }, (_, i) => from + i);
      const rows = await t.app.db
        .insertInto('files')
        .values(
          batch.map((n) => ({
            entity: OWNER,
            owner_id: n,
            field: 'files',
            stored_name: `search-test-${n}.pdf`,
            original_name: `مذكرة ${n}.pdf`,
            mime_type: 'application/pdf',
            size: 100,
            created_at: at,
          })),
        )
        .returning('id')
        .execute();
      const fileIds = rows.map((r) => Number(r.id));
      ids.push(...fileIds);
      await t.app.db
        .insertInto(TEXTS_TABLE)
        .values(
          batch.map((n, i) => ({
            file_id: fileIds[i],
            stored_name: `search-test-${n}.pdf`,
            state: 'extracted',
            pages_done: 1,
            pages_total: 1,
            updated_at: at,
          })),
        )
        .execute();
      await t.app.db
        .insertInto(PAGES_TABLE)
        .values(
          batch.map((n, i) => ({
            file_id: fileIds[i],
            page: 1,
            text: pageText(n),
            search_text: foldArabic(pageText(n)),
          })),
        )
        .execute();
    }
    // The newest file also holds the rare word on its later pages: the lowest of them is shown.
    const newest = ids[ids.length - 1]!;
    await t.app.db
      .insertInto(PAGES_TABLE)
      .values(
        [2, 3].map((page) => ({
          file_id: newest,
          page,
          text: 'طلب عاجل بصفة مستعجلة',
          search_text: foldArabic('طلب عاجل بصفة مستعجلة'),
        })),
      )
      .execute();
  });
  afterAll(() => t.close());

  const search = async (session: Session, q: string, extra = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${API_BASE}/files/text/search?entity=${OWNER}&q=${encodeURIComponent(q)}${extra}`,
      headers: session.headers,
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: FileContentSearchResult }>().data;
  };

  it('counts the files found up to the bound, and says when more match', async () => {
    const common = await search(admin, 'الدعوى');
    expect([common.total, common.totalCapped, common.items.length]).toEqual([
      FILE_SEARCH_COUNT_BOUND,
      true,
      50,
    ]);
    // Newest first, each file once.
    expect(common.items.map((hit) => hit.id)).toEqual(ids.slice(-50).reverse());
    const rare = await search(admin, 'مستعجلة');
    const expected = ids.filter((_, i) => (i + 1) % 100 === 0);
    expect([rare.total, rare.totalCapped]).toEqual([expected.length, false]);
    expect(rare.items.map((hit) => hit.id)).toEqual([...expected].reverse());
    expect(rare.items.map((hit) => hit.file?.page)).toEqual(expected.map(() => 1));
    const mixed = await search(admin, 'عاجل');
    expect(mixed.items.map((hit) => [hit.id, hit.file?.page])).toEqual([[ids[ids.length - 1], 2]]);
    expect(mixed.items[0]!.file!.snippet).toContain('عاجل');
    // One list's rows: an exact count.
    const listed = await search(admin, 'الدعوى', '&ownerIds=1,2,3,4');
    expect([listed.total, listed.totalCapped]).toEqual([4, false]);
    expect(listed.items.map((hit) => hit.id)).toEqual(ids.slice(0, 4).reverse());
    const none = await search(admin, 'كمبيالة');
    expect(none).toEqual({ total: 0, totalCapped: false, items: [] });
  });

  it('the header’s search says the files group’s count stopped at the bound', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${API_BASE}/search?q=${encodeURIComponent('الدعوى')}`,
      headers: admin.headers,
    });
    const files = res.json<{ data: GlobalSearchResult }>().data.groups.find((g) => g.kind === 'files');
    expect([files?.total, files?.totalCapped, files?.items.length]).toEqual([
      FILE_SEARCH_COUNT_BOUND,
      true,
      5,
    ]);
  });

  it('a reader refused the newest files still finds the older ones they may read', async () => {
    const found = await search(clerk, 'الدعوى');
    expect(found.items.map((hit) => hit.id)).toEqual(ids.slice(0, CLERK_OWNERS).reverse());
    expect([found.total, found.totalCapped]).toEqual([CLERK_OWNERS, false]);
    const rare = await search(clerk, 'مستعجلة');
    expect(rare).toEqual({ total: 0, totalCapped: false, items: [] });
    const res = await t.app.inject({
      method: 'GET',
      url: `${API_BASE}/search?q=${encodeURIComponent('الدعوى')}`,
      headers: clerk.headers,
    });
    const files = res.json<{ data: GlobalSearchResult }>().data.groups.find((g) => g.kind === 'files');
    expect([files?.total, files?.totalCapped, files?.items.map((hit) => hit.id)]).toEqual([
      CLERK_OWNERS,
      false,
      ids.slice(0, CLERK_OWNERS).reverse(),
    ]);
  });
});

describe('the snippet of a page found', () => {
  it('shows the words around the first one found, as written, when folding joins some words', () => {
    const filler = (n: number, word: string) => Array.from({ length: n }, () => word);
    // «عبد الله» is folded into one word: the folded words no longer line up with the written ones.
    for (const [name, before] of [
      ['عبد الله', 5],
      ['محمود', 5],
      ['عبد الله', 40],
      ['محمود', 70],
    ] as const) {
      const words = [
        ...filler(20, 'وحيث'),
        ...name.split(' '),
        ...filler(before, 'إن'),
        'مذكرةً',
        ...filler(20, 'مذكرةً'),
      ];
      const at = words.indexOf('مذكرةً');
      expect(snippet(words.join(' '), ['مذكره'])).toBe(`… ${words.slice(at - 8, at + 9).join(' ')} …`);
    }
    expect(snippet('لا شيء هنا', ['مذكره'])).toBe('لا شيء هنا');
  });
});
