import { NATIONAL_ID_LENGTH, type ConflictMatch } from '@mizan/contracts';
import { countRows } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { signInWith } from '../system/testing/users';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(90_000);

const URL = '/api/admin/lawsuits/opponents';
const CONFLICTS = '/api/admin/customers/conflicts';
let serial = 0;
const nationalId = () => `2770303${String(++serial).padStart(NATIONAL_ID_LENGTH - 7, '0')}`;

describe.each(dialects())('opponents on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const api = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    lang = 'en',
    session = admin,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...session.headers, 'accept-language': lang },
      ...(payload ? { payload } : {}),
    });
  const create = async (url: string, body: object) => {
    const res = await api('POST', url, body);
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: number } & Record<string, unknown>;
  };
  const total = () => countRows(t.app, 'opponents');
  const check = (params: Record<string, string>, session = admin) =>
    api('GET', `${CONFLICTS}?${new URLSearchParams(params).toString()}`, undefined, 'en', session);
  const matches = async (params: Record<string, string>): Promise<ConflictMatch[]> => {
    const res = await check(params);
    expect(res.statusCode).toBe(200);
    return res.json().data.matches;
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('serves every route, searches folded names and their lawyer, and filters by kind', async () => {
    const created = await api('POST', URL, {
      name: 'عبد الرحمن إبراهيم',
      nameEn: 'Abdelrahman Ibrahim',
      nationalId: '٢٩٠٠١٠١٥٥٥٥٥٥٥',
      phone: '٠١٠٠١٢٣٤٥٦٧',
      lawyerName: 'الأستاذ سامي فؤاد',
      lawyerPhone: '+20 122 000 1111',
      address: 'القاهرة',
    });
    expect(created.statusCode).toBe(201);
    const row = created.json().data;
    expect(row).toMatchObject({
      kind: 'person',
      nationalId: '29001015555555',
      phone: '01001234567',
      commercialRegister: null,
      status: true,
    });
    expect((await api('GET', `${URL}/${row.id}`)).json().data).toEqual(row);
    const found = (await api('GET', `${URL}?q=${encodeURIComponent('ابراهيم')}&kind=person`)).json().data;
    expect(found.items.map((r: { id: number }) => r.id)).toContain(row.id);
    const byLawyer = (await api('GET', `${URL}?q=${encodeURIComponent('سامى')}`)).json().data;
    expect(byLawyer.items.map((r: { id: number }) => r.id)).toEqual([row.id]);
    expect(
      (await api('GET', `${URL}?kind=company&q=${encodeURIComponent('ابراهيم')}`)).json().data.items,
    ).toEqual([]);
    const put = await api('PUT', URL, { id: row.id, notes: 'يمثله مكتب آخر', updatedAt: row.updatedAt });
    expect(put.statusCode).toBe(200);
    expect((await api('PATCH', `${URL}/${row.id}`, { mobile: '0100 999 8888' })).json().data.mobile).toBe(
      '0100 999 8888',
    );
    expect((await api('PATCH', `${URL}/status/${row.id}`)).json().data.status).toBe(false);
    expect((await api('DELETE', `${URL}/${row.id}`)).statusCode).toBe(200);
    expect((await api('GET', `${URL}/${row.id}`)).statusCode).toBe(404);
  });

  it('needs no identifier, checks a given one by the clients rules (422 on the field), clears the other kind', async () => {
    expect((await api('POST', URL, { name: 'خصم مجهول الهوية' })).statusCode).toBe(201);
    expect((await api('POST', URL, { name: 'شركة مجهولة', kind: 'company' })).statusCode).toBe(201);
    const before = await total();
    const short = await api('POST', URL, { name: 'رقم ناقص', nationalId: '123' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({
      nationalId: [`National ID must be exactly ${NATIONAL_ID_LENGTH} digits, without spaces or symbols`],
    });
    const cr = await api('POST', URL, { name: 'شركة', kind: 'company', commercialRegister: '12-34' }, 'ar');
    expect(cr.json().errors.commercialRegister).toEqual([
      'يجب أن يتكون «رقم السجل التجاري» من أرقام فقط (من رقم واحد إلى ٢٠ رقمًا)',
    ]);
    expect(await total()).toBe(before);
    const mixed = await create(URL, {
      name: 'شركة الأمل',
      kind: 'company',
      commercialRegister: '5566',
      nationalId: nationalId(),
    });
    expect(mixed).toMatchObject({ commercialRegister: '5566', nationalId: null });
    const toPerson = await api('PATCH', `${URL}/${mixed.id}`, { kind: 'person', nationalId: 'abc' });
    expect(toPerson.statusCode).toBe(422);
    const person = await api('PATCH', `${URL}/${mixed.id}`, { kind: 'person' });
    expect(person.statusCode).toBe(200);
    expect(person.json().data).toMatchObject({ kind: 'person', commercialRegister: null, nationalId: null });
  });

  it('conflict check from the opponent form: a prospective opponent who is our client, by folded name or ID', async () => {
    const id = nationalId();
    const client = await create('/api/admin/customers', { name: 'محمود أحمد السيد', nationalId: id });
    const byName = await matches({ name: 'احمد محمود', for: 'opponents' });
    expect(byName[0]).toMatchObject({ entity: 'customers', id: client.id, reasons: ['contains'] });
    expect(byName[0]!.opponentIn).toBeUndefined();
    const byId = await matches({ nationalId: id, for: 'opponents' });
    expect(byId).toEqual([
      expect.objectContaining({ entity: 'customers', id: client.id, score: 1, reasons: ['id'] }),
    ]);
    // The opponent being edited is left out of its own check; clients with that id are not.
    const opponent = await create(URL, { name: 'محمود أحمد السيد' });
    const editing = await matches({
      name: 'محمود أحمد السيد',
      for: 'opponents',
      exceptId: String(opponent.id),
    });
    expect(editing.map((m) => [m.entity, m.id])).toEqual([['customers', client.id]]);
    const all = await matches({ name: 'محمود أحمد السيد', for: 'opponents' });
    // Same score: clients first, then opponents.
    expect(all.map((m) => [m.entity, m.id])).toEqual([
      ['customers', client.id],
      ['opponents', opponent.id],
    ]);
  });

  it('conflict check from the client form: a prospective client who is an opponent, with the lawsuits it opposes', async () => {
    const client = await create('/api/admin/customers', { name: 'ياسر كمال', nationalId: nationalId() });
    const opponent = await create(URL, {
      name: 'شركة المروة للمقاولات',
      kind: 'company',
      commercialRegister: '778812',
    });
    const first = await create('/api/admin/lawsuits', {
      customerIds: [client.id],
      opponentIds: [opponent.id],
    });
    const second = await create('/api/admin/lawsuits', {
      customerIds: [client.id],
      opponentIds: [opponent.id],
    });
    const found = await matches({ name: 'شركه المروه' });
    expect(found[0]).toEqual({
      entity: 'opponents',
      id: opponent.id,
      name: 'شركة المروة للمقاولات',
      nameEn: null,
      kind: 'company',
      idNumber: '778812',
      score: expect.any(Number),
      reasons: ['contains'],
      opponentIn: [
        { id: first.id, fileNumber: first.fileNumber },
        { id: second.id, fileNumber: second.fileNumber },
      ],
    });
    expect(await matches({ nationalId: '٧٧٨٨١٢' })).toEqual([
      expect.objectContaining({ entity: 'opponents', id: opponent.id, reasons: ['id'] }),
    ]);
    // An opponent in no lawsuit yet says so with an empty list.
    const idle = await create(URL, { name: 'هشام فريد عبد الغني' });
    expect((await matches({ name: 'هشام فريد عبدالغني' }))[0]).toMatchObject({ id: idle.id, opponentIn: [] });
  });

  it('answers by permission: the form needs its own view, and matches of an entity the user cannot view are left out', async () => {
    await create(URL, { name: 'رامي نبيل' });
    await create('/api/admin/customers', { name: 'رامي نبيل', nationalId: nationalId() });
    const clientsOnly = await signInWith(t, ['customers.view']);
    const seen = (await check({ name: 'رامي نبيل' }, clientsOnly)).json().data.matches as ConflictMatch[];
    expect(seen.map((m) => m.entity)).toEqual(['customers']);
    expect((await check({ name: 'رامي نبيل', for: 'opponents' }, clientsOnly)).statusCode).toBe(403);
    const opponentsOnly = await signInWith(t, ['opponents.view']);
    const theirs = (await check({ name: 'رامي نبيل', for: 'opponents' }, opponentsOnly)).json().data
      .matches as ConflictMatch[];
    expect(theirs.map((m) => m.entity)).toEqual(['opponents']);
    expect((await check({ name: 'رامي نبيل' }, opponentsOnly)).statusCode).toBe(403);
    const bad = await check({ name: 'رامي', for: 'lawyers' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['for']);
  });

  it('an opponent still named by a lawsuit is not deleted (409 naming the lawsuits)', async () => {
    const client = await create('/api/admin/customers', { name: 'منى سعيد', nationalId: nationalId() });
    const opponent = await create(URL, { name: 'خصم مرتبط' });
    await create('/api/admin/lawsuits', { customerIds: [client.id], opponentIds: [opponent.id] });
    const refused = await api('DELETE', `${URL}/${opponent.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().heldBy).toEqual([{ entity: 'lawsuits', count: 1 }]);
    expect((await api('DELETE', `${URL}/${opponent.id}`, undefined, 'ar')).json().message).toContain(
      'الدعاوى: 1',
    );
  });
});
