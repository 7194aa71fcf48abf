import { CONFLICT_LIMIT, type ConflictMatch } from '@mizan/contracts';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { signInWith } from '../system/testing/users';
import { compareNames, nameTokens } from './conflicts';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const CONFLICTS = '/api/admin/customers/conflicts';

describe('name tokens', () => {
  it.each([
    ['محمد علي حسن', ['محمد', 'علي', 'حسن']],
    ['أحمد إبراهيم', ['احمد', 'ابراهيم']],
    ['عبد الله بن أحمد المنصور', ['عبدالله', 'احمد', 'منصور']],
    ['عبدالله أحمد منصور', ['عبدالله', 'احمد', 'منصور']],
    ['فاطمة بنت محمد', ['فاطمه', 'محمد']],
    ['أبو بكر الصديق', ['ابوبكر', 'صديق']],
    ['أبوبكر الصديق', ['ابوبكر', 'صديق']],
    ['محمود عبد الفتاح', ['محمود', 'عبدالفتاح']],
    ['محمود عبدالفتاح', ['محمود', 'عبدالفتاح']],
    // the cases of أبو are one name
    ['علي بن أبي طالب', ['علي', 'ابوطالب']],
    ['علي أبو طالب', ['علي', 'ابوطالب']],
    ['Mohamed  Al-Sayed', ['mohamed', 'sayed']],
    ['م. علي', ['علي']],
    // آل (the family of) folds to the bare article, which is dropped.
    ['آل علي', ['علي']],
    ['الله', ['الله']],
  ])('%s → %j', (name, tokens) => {
    expect(nameTokens(name)).toEqual(tokens);
  });

  it('compares names as sets of words', () => {
    const given = nameTokens('محمد علي حسن');
    expect(compareNames(given, 'حسن محمد علي')).toEqual({ score: 1, reason: 'sameName' });
    expect(compareNames(given, 'محمد علي حسن السيد')).toEqual({ score: 6 / 7, reason: 'contains' });
    expect(compareNames(given, 'محمد علي عمر')).toEqual({ score: 2 / 3, reason: 'tokens' });
    expect(compareNames(given, 'محمد أحمد')).toBeNull();
    expect(compareNames(nameTokens('محمد عل'), 'محمد علي حسن')?.reason).toBe('contains');
    expect(compareNames([], 'محمد')).toBeNull();
  });
});

describe.each(dialects())('conflict check on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const ids: Record<string, number> = {};
  const check = (query: string, session = admin, lang = 'en') =>
    t.app.inject({
      method: 'GET',
      url: `${CONFLICTS}?${query}`,
      headers: { ...session.headers, 'accept-language': lang },
    });
  const matches = async (query: string): Promise<ConflictMatch[]> => {
    const res = await check(query);
    expect(res.statusCode).toBe(200);
    return res.json().data.matches;
  };
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const customers = t.app.entities.get('customers');
    const actor = { user: null };
    const add = async (key: string, values: Record<string, unknown>) => {
      ids[key] = (await customers.create(actor, values)).id;
    };
    await add('hassan', { name: 'محمد علي حسن', nameEn: 'Mohamed Ali Hassan', nationalId: '29801011234567' });
    await add('ahmed', { name: 'أحمد إبراهيم السيد', nationalId: '29001011234567' });
    await add('abdullah', { name: 'عبد الله بن محمود', nationalId: '28501011234567' });
    await add('nile', { name: 'شركة النيل للتجارة', kind: 'company', commercialRegister: '123456' });
    await add('other', { name: 'محمد أحمد', nationalId: '29901011234567' });
    await add('stranger', { name: 'سارة خالد', nationalId: '29501011234567' });
  });
  afterAll(() => t.close());

  it('finds a client whose name has the same words in another order, best first, with why', async () => {
    const found = await matches(q({ name: 'حسن محمد علي' }));
    expect(found[0]).toEqual({
      entity: 'customers',
      id: ids.hassan,
      name: 'محمد علي حسن',
      nameEn: 'Mohamed Ali Hassan',
      kind: 'person',
      idNumber: '29801011234567',
      score: 1,
      reasons: ['sameName'],
    });
    // One shared word of three is not a conflict.
    expect(found.map((m) => m.id)).not.toContain(ids.other);
    expect(found.map((m) => m.id)).not.toContain(ids.stranger);
  });

  it('matches variant spellings: hamza forms, ta marbuta, compound names written apart or joined', async () => {
    expect((await matches(q({ name: 'احمد ابراهيم' }))).map((m) => [m.id, m.reasons])).toEqual([
      [ids.ahmed, ['contains']],
    ]);
    expect((await matches(q({ name: 'عبدالله محمود' })))[0]).toMatchObject({
      id: ids.abdullah,
      score: 1,
      reasons: ['sameName'],
    });
    expect((await matches(q({ name: 'شركه النيل' })))[0]).toMatchObject({ id: ids.nile, kind: 'company' });
    // From the opponent form: a prospective opponent who is our client, the compound written apart.
    expect((await matches(q({ name: 'محمود عبد الله', for: 'opponents' })))[0]).toMatchObject({
      entity: 'customers',
      id: ids.abdullah,
      reasons: ['sameName'],
    });
    // English names too, case-folded.
    expect((await matches(q({ name: 'HASSAN mohamed ali' })))[0]).toMatchObject({ id: ids.hassan, score: 1 });
  });

  it('finds a partly typed name (the form checks as the name is typed)', async () => {
    const found = await matches(q({ name: 'محمد عل' }));
    expect(found.map((m) => m.id)).toEqual([ids.hassan]);
  });

  it('matches by national ID or commercial registration, in Eastern digits too, and combines reasons', async () => {
    expect(await matches(q({ nationalId: '٢٩٨٠١٠١١٢٣٤٥٦٧' }))).toEqual([
      expect.objectContaining({ id: ids.hassan, score: 1, reasons: ['id'] }),
    ]);
    expect((await matches(q({ nationalId: '123456' }))).map((m) => m.id)).toEqual([ids.nile]);
    const both = await matches(q({ name: 'محمد علي حسن', nationalId: '29801011234567' }));
    expect(both[0]).toMatchObject({ id: ids.hassan, reasons: ['id', 'sameName'] });
    expect(await matches(q({ nationalId: '11111111111111' }))).toEqual([]);
  });

  it('leaves out the client being edited', async () => {
    expect(await matches(q({ name: 'حسن محمد علي', exceptId: String(ids.hassan) }))).toEqual([]);
  });

  it(`answers at most ${CONFLICT_LIMIT} matches, best first`, async () => {
    const customers = t.app.entities.get('customers');
    await customers.createMany(
      { user: null },
      Array.from({ length: CONFLICT_LIMIT + 5 }, (_, i) => ({
        name: `خالد يوسف ${i}`,
        nationalId: `2700101${String(i).padStart(7, '0')}`,
      })),
    );
    await customers.create({ user: null }, { name: 'يوسف خالد', nationalId: '27501011234567' });
    const found = await matches(q({ name: 'خالد يوسف' }));
    expect(found).toHaveLength(CONFLICT_LIMIT);
    expect(found[0]!.reasons).toEqual(['sameName']);
    const scores = found.map((m) => m.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('answers 422 on a bad query, with translated field messages', async () => {
    const empty = await check('');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ name: ['Full name (Arabic) is required'] });
    const letters = await check(q({ nationalId: '12ab' }));
    expect(letters.statusCode).toBe(422);
    expect(Object.keys(letters.json().errors)).toEqual(['nationalId']);
    const long = await check(q({ name: 'م'.repeat(151) }), admin, 'ar');
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.name[0]).toContain('«الاسم الكامل»');
    expect((await check(q({ name: 'علي', exceptId: 'x' }))).statusCode).toBe(422);
  });

  it('needs customers.view: 403 without it, 401 signed out', async () => {
    const reader = await signInWith(t, ['customers.view']);
    expect((await check(q({ name: 'علي' }), reader)).statusCode).toBe(200);
    const other = await signInWith(t, ['customerTypes.view']);
    expect((await check(q({ name: 'علي' }), other)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${CONFLICTS}?name=x` })).statusCode).toBe(401);
  });
});
