import { createTestApp, dialects, type Session, type TestApp } from '../../test/harness';
import { compoundNamesMigration } from './009_compound_names';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const OPPONENTS = '/api/admin/lawsuits/opponents';

/**
 * Compound names (`عبد الفتاح`, `أبو بكر`) fold to one word: rows written before that rule, whose
 * stored search text still holds them apart, are refolded by the migration and found by either
 * spelling, through the list's `q` (the search index on SQLite follows the update).
 */
describe.each(dialects())('compound names refolded on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const opponents = t.app.entities.get('opponents');
    const actor = { user: null };
    for (const [key, name] of [
      ['abdelfattah', 'محمود عبد الفتاح'],
      ['abubakr', 'شركة أبو بكر للمقاولات'],
      ['plain', 'سارة خالد'],
    ] as const) {
      ids[key] = (await opponents.create(actor, { name })).id;
    }
    // As folding wrote them before compound names were joined.
    for (const [key, text] of [
      ['abdelfattah', 'محمود عبد الفتاح'],
      ['abubakr', 'شركه ابو بكر للمقاولات'],
    ] as const)
      await t.app.db
        .updateTable('opponents')
        .set({ search_text: text })
        .where('id', '=', ids[key]!)
        .execute();
  });
  afterAll(() => t.close());

  const found = async (q: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${OPPONENTS}?q=${encodeURIComponent(q)}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: { items: { id: number }[] } }).data.items.map((row) => row.id).sort();
  };

  it('finds the old rows by either spelling once refolded', async () => {
    // Before: the joined query misses the row stored apart.
    expect(await found('عبدالفتاح')).toEqual([]);
    await compoundNamesMigration.up(t.app.db, dialect);
    const stored = await t.app.db
      .selectFrom('opponents')
      .select(['id', 'search_text'])
      .where('id', 'in', [ids.abdelfattah!, ids.abubakr!, ids.plain!])
      .orderBy('id')
      .execute();
    expect(stored.map((row) => row.search_text)).toEqual([
      'محمود عبدالفتاح',
      'شركه ابوبكر للمقاولات',
      'ساره خالد',
    ]);
    for (const q of ['عبدالفتاح', 'عبد الفتاح', 'محمود عبد الفتاح', 'عبد'])
      expect(await found(q)).toEqual([ids.abdelfattah]);
    for (const q of ['أبو بكر', 'أبوبكر', 'ابوبكر للمقاولات']) expect(await found(q)).toEqual([ids.abubakr]);
    // A second run changes nothing.
    await compoundNamesMigration.up(t.app.db, dialect);
    expect(await found('عبد الفتاح')).toEqual([ids.abdelfattah]);
  });

  it('folds new rows the same way: a name typed apart is found joined, and the reverse', async () => {
    const opponents = t.app.entities.get('opponents');
    const joined = (await opponents.create({ user: null }, { name: 'عبدالرحمن يوسف' })).id;
    const apart = (await opponents.create({ user: null }, { name: 'أبي طالب حسن' })).id;
    expect(await found('عبد الرحمن')).toEqual([joined]);
    expect(await found('ابيطالب')).toEqual([apart]);
  });
});
