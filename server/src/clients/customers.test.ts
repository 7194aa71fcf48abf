import FormData from 'form-data';
import { NATIONAL_ID_LENGTH, isReferencedError } from '@mizan/contracts';
import { countRows } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { signInWith } from '../system/testing/users';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const URL = '/api/admin/customers';
const TYPES = '/api/admin/customers/settings/types';

let serial = 0;
/** A well-formed national ID, unique within the test process. */
const nationalId = () => `2980101${String(++serial).padStart(NATIONAL_ID_LENGTH - 7, '0')}`;

function csv(text: string) {
  const form = new FormData();
  form.append('file', Buffer.from(text, 'utf8'), { filename: 'clients.csv', contentType: 'text/csv' });
  return { payload: form.getBuffer(), headers: form.getHeaders() };
}

describe.each(dialects())('customers on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const api = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    lang = 'en',
  ) => t.app.inject({ method, url, headers: h(lang), ...(payload ? { payload } : {}) });
  const stored = (id: number) =>
    t.app.db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
  const total = () => countRows(t.app, 'customers');

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('serves every route: create, get, list with search and filters, PUT, PATCH, status, delete', async () => {
    const type = (await api('POST', TYPES, { name: 'أفراد' })).json().data;
    const id = nationalId();
    const created = await api('POST', URL, {
      name: 'محمد علي حسن',
      nameEn: 'Mohamed Ali Hassan',
      customerTypeId: type.id,
      nationalId: id,
      mobile: '+20 100 123 4567',
      email: 'm.ali@example.com',
      notes: 'موكل منذ 2020',
    });
    expect(created.statusCode).toBe(201);
    const row = created.json().data;
    expect(row).toMatchObject({
      name: 'محمد علي حسن',
      kind: 'person',
      nationalId: id,
      commercialRegister: null,
      customerTypeId: type.id,
      customerType: { id: type.id, name: 'أفراد' },
      status: true,
    });

    expect((await api('GET', `${URL}/${row.id}`)).json().data).toEqual(row);
    const list = (await api('GET', `${URL}?kind=person&customerTypeId=${type.id}`)).json().data;
    expect(list.items.map((r: { id: number }) => r.id)).toEqual([row.id]);
    // The folded search finds the client by a variant spelling and by the ID typed in Eastern digits.
    const byId = (
      await api('GET', `${URL}?q=${encodeURIComponent(id.replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[+d]!))}`)
    ).json().data;
    expect(byId.items.map((r: { id: number }) => r.id)).toEqual([row.id]);

    const put = await api('PUT', URL, { id: row.id, name: 'محمد علي حسن السيد', updatedAt: row.updatedAt });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({
      name: 'محمد علي حسن السيد',
      nationalId: id,
      nameEn: 'Mohamed Ali Hassan',
    });

    const patch = await api('PATCH', `${URL}/${row.id}`, { phone: '٠٢٢٣٤٥٦٧٨٩' });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().data.phone).toBe('0223456789');

    const status = await api('PATCH', `${URL}/status/${row.id}`);
    expect(status.statusCode).toBe(200);
    expect(status.json().data.status).toBe(false);

    const removed = await api('DELETE', `${URL}/${row.id}`);
    expect(removed.statusCode).toBe(200);
    expect(await stored(row.id)).toBeUndefined();
    expect((await api('GET', `${URL}/${row.id}`)).statusCode).toBe(404);
  });

  it('stores an ID typed in Arabic-Indic digits as ASCII', async () => {
    const ascii = nationalId();
    const eastern = ascii.replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[+d]!);
    const res = await api('POST', URL, { name: 'سارة أحمد', nationalId: eastern });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.nationalId).toBe(ascii);
    expect((await stored(res.json().data.id))?.national_id).toBe(ascii);
    const company = await api('POST', URL, {
      name: 'شركة النيل',
      kind: 'company',
      commercialRegister: '۱۲۳۴۵',
    });
    expect(company.statusCode).toBe(201);
    expect(company.json().data.commercialRegister).toBe('12345');
  });

  it('requires the national ID of a person and the registration of a company (422 on the field, translated), nothing stored', async () => {
    const before = await total();
    const person = await api('POST', URL, { name: 'بلا رقم' });
    expect(person.statusCode).toBe(422);
    expect(person.json().errors).toEqual({
      nationalId: ['National ID is required for a client who is a person'],
    });
    const ar = await api('POST', URL, { name: 'بلا رقم' }, 'ar');
    expect(ar.json().errors.nationalId).toEqual(['الحقل «الرقم القومي» مطلوب للموكل من الأشخاص الطبيعيين']);

    const company = await api('POST', URL, {
      name: 'شركة بلا سجل',
      kind: 'company',
      nationalId: nationalId(),
    });
    expect(company.statusCode).toBe(422);
    expect(company.json().errors).toEqual({
      commercialRegister: ['Commercial registration is required for a client that is a company'],
    });
    const arCompany = await api('POST', URL, { name: 'شركة بلا سجل', kind: 'company' }, 'ar');
    expect(arCompany.json().errors.commercialRegister).toEqual([
      'الحقل «رقم السجل التجاري» مطلوب للموكل من الشركات',
    ]);
    expect(await total()).toBe(before);
  });

  it('checks the format: national ID of exactly the set length, registration digits only', async () => {
    const before = await total();
    for (const bad of ['2980101123456', '2980101123456a', '29801-01123456']) {
      const res = await api('POST', URL, { name: 'رقم خطأ', nationalId: bad });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['nationalId']);
    }
    const short = await api('POST', URL, { name: 'رقم خطأ', nationalId: '2980101123456' });
    expect(short.json().errors.nationalId).toEqual([
      `National ID must be exactly ${NATIONAL_ID_LENGTH} digits, without spaces or symbols`,
    ]);
    const cr = await api('POST', URL, { name: 'شركة', kind: 'company', commercialRegister: '12-34' }, 'ar');
    expect(cr.statusCode).toBe(422);
    expect(cr.json().errors.commercialRegister).toEqual([
      'يجب أن يتكون «رقم السجل التجاري» من أرقام فقط (من رقم واحد إلى ٢٠ رقمًا)',
    ]);
    expect(await total()).toBe(before);
  });

  it('clears the identifier of the other kind, on create and when the kind changes (PUT and PATCH)', async () => {
    const id = nationalId();
    const res = await api('POST', URL, { name: 'علي', nationalId: id, commercialRegister: '999' });
    expect(res.statusCode).toBe(201);
    const row = res.json().data;
    expect(row.commercialRegister).toBeNull();

    // Becoming a company without a registration: 422, the row unchanged.
    const refused = await api('PATCH', `${URL}/${row.id}`, { kind: 'company' });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['commercialRegister']);
    expect((await stored(row.id))?.kind).toBe('person');

    const company = await api('PATCH', `${URL}/${row.id}`, { kind: 'company', commercialRegister: '٤٤٤٥' });
    expect(company.statusCode).toBe(200);
    expect(company.json().data).toMatchObject({
      kind: 'company',
      commercialRegister: '4445',
      nationalId: null,
    });

    const back = await api('PUT', URL, { id: row.id, kind: 'person' });
    expect(back.statusCode).toBe(422);
    expect(Object.keys(back.json().errors)).toEqual(['nationalId']);
    const person = await api('PUT', URL, { id: row.id, kind: 'person', nationalId: id });
    expect(person.statusCode).toBe(200);
    expect(person.json().data).toMatchObject({ kind: 'person', nationalId: id, commercialRegister: null });
    // Blanking the identifier of the row's own kind is refused too.
    const blank = await api('PATCH', `${URL}/${row.id}`, { nationalId: '' });
    expect(blank.statusCode).toBe(422);
  });

  it('keeps each identifier unique within its kind (409 on the field), on create and update', async () => {
    const id = nationalId();
    const first = (await api('POST', URL, { name: 'الأول', nationalId: id })).json().data;
    const before = await total();
    const dup = await api('POST', URL, { name: 'الثاني', nationalId: id });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors).toEqual({ nationalId: ['This National ID is already in use'] });
    expect(await total()).toBe(before);

    await api('POST', URL, { name: 'شركة أ', kind: 'company', commercialRegister: '5566' });
    const dupCr = await api(
      'POST',
      URL,
      { name: 'شركة ب', kind: 'company', commercialRegister: '5566' },
      'ar',
    );
    expect(dupCr.statusCode).toBe(409);
    expect(dupCr.json().errors.commercialRegister).toEqual([
      'القيمة المدخلة في «رقم السجل التجاري» مستخدمة من قبل',
    ]);

    // The same digits as a person's ID and as a company's registration are different identifiers.
    const other = await api('POST', URL, { name: 'شركة ج', kind: 'company', commercialRegister: id });
    expect(other.statusCode).toBe(201);

    const second = (await api('POST', URL, { name: 'الثالث', nationalId: nationalId() })).json().data;
    const taken = await api('PATCH', `${URL}/${second.id}`, { nationalId: id });
    expect(taken.statusCode).toBe(409);
    expect((await stored(second.id))?.national_id).not.toBe(id);
    expect(first.id).toBeLessThan(second.id);
  });

  it('imports from CSV through the same rules: all rows or none, errors by spreadsheet row', async () => {
    const a = nationalId();
    const b = nationalId();
    const good = await t.app.inject({
      method: 'POST',
      url: `${URL}/import`,
      ...(() => {
        const file = csv(
          `name,kind,nationalId,commercialRegister\nمستورد أول,person,${a},\nشركة مستوردة,company,,778899\n`,
        );
        return { payload: file.payload, headers: { ...h(), ...file.headers } };
      })(),
    });
    expect(good.statusCode).toBe(201);
    expect(good.json().data.created).toBe(2);
    const imported = await t.app.db
      .selectFrom('customers')
      .select(['kind', 'national_id', 'commercial_register'])
      .where('name', 'in', ['مستورد أول', 'شركة مستوردة'])
      .orderBy('id')
      .execute();
    expect(imported).toEqual([
      { kind: 'person', national_id: a, commercial_register: null },
      { kind: 'company', national_id: null, commercial_register: '778899' },
    ]);

    const before = await total();
    const file = csv(`name,kind,nationalId,commercialRegister\nصحيح,person,${b},\nشركة بلا سجل,company,,\n`);
    const bad = await t.app.inject({
      method: 'POST',
      url: `${URL}/import`,
      payload: file.payload,
      headers: { ...h(), ...file.headers },
    });
    expect(bad.statusCode).toBe(422);
    // Reported by spreadsheet row (the header is row 1), like the file's own problems.
    expect(bad.json().rowErrors).toEqual([
      {
        row: 3,
        field: 'commercialRegister',
        message: 'Commercial registration is required for a client that is a company',
      },
    ]);
    expect(bad.json().rejected).toEqual([
      {
        row: 3,
        reasons: [
          'Commercial registration: Commercial registration is required for a client that is a company',
        ],
      },
    ]);
    expect(await total()).toBe(before);
  });

  it('createMany reports the kind rules per row and writes nothing', async () => {
    const service = t.app.entities.get('customers');
    const before = await total();
    await expect(
      service.createMany({ user: null }, [
        { name: 'صف صحيح', nationalId: nationalId() },
        { name: 'صف بلا رقم' },
        { name: 'شركة', kind: 'company', commercialRegister: 'abc' },
      ]),
    ).rejects.toMatchObject({
      statusCode: 422,
      options: {
        rows: [
          { index: 1, errors: { nationalId: [{ key: 'clients.customers.nationalIdRequired' }] } },
          {
            index: 2,
            errors: {
              commercialRegister: [
                expect.objectContaining({ key: 'clients.customers.commercialRegisterFormat' }),
              ],
            },
          },
        ],
      },
    });
    expect(await total()).toBe(before);
  });

  it('refuses to delete a client type its clients still refer to (409 naming the holder and count, in the request language)', async () => {
    const type = (await api('POST', TYPES, { name: 'شركات كبرى' })).json().data;
    for (const name of ['عميل أ', 'عميل ب'])
      expect(
        (await api('POST', URL, { name, nationalId: nationalId(), customerTypeId: type.id })).statusCode,
      ).toBe(201);
    const en = await api('DELETE', `${TYPES}/${type.id}`);
    expect(en.statusCode).toBe(409);
    expect(en.json()).toEqual({
      code: 'referenced',
      message: '“شركات كبرى” cannot be deleted: other records still refer to it (Client data: 2)',
      heldBy: [{ entity: 'customers', count: 2 }],
    });
    expect(isReferencedError(en.json())).toBe(true);
    const ar = await api('DELETE', `${TYPES}/${type.id}`, undefined, 'ar');
    expect(ar.json().message).toBe(
      'لا يمكن حذف «شركات كبرى»: ما زالت سجلات أخرى مرتبطة بهذا السجل (بيانات الموكلين: 2)',
    );
    expect((await api('GET', `${TYPES}/${type.id}`)).statusCode).toBe(200);
  });

  it('refuses to delete a client its powers of attorney still name (409: which and how many), then deletes it once they go', async () => {
    const client = (await api('POST', URL, { name: 'هدى سامي عبد الرحمن', nationalId: nationalId() })).json()
      .data;
    const held: number[] = [];
    for (const number of ['101', '102', '103']) {
      const res = await api('POST', '/api/admin/customers/procurations', {
        number,
        year: 2026,
        customerIds: [client.id],
        issueDate: '2026-01-10',
      });
      expect(res.statusCode).toBe(201);
      held.push(res.json().data.id);
    }
    const en = await api('DELETE', `${URL}/${client.id}`);
    expect(en.statusCode).toBe(409);
    expect(en.json()).toEqual({
      code: 'referenced',
      message:
        '“هدى سامي عبد الرحمن” cannot be deleted: other records still refer to it (Powers of attorney: 3)',
      heldBy: [{ entity: 'procurations', count: 3 }],
    });
    const ar = await api('DELETE', `${URL}/${client.id}`, undefined, 'ar');
    expect(ar.json().message).toBe(
      'لا يمكن حذف «هدى سامي عبد الرحمن»: ما زالت سجلات أخرى مرتبطة بهذا السجل (التوكيلات: 3)',
    );
    expect(await stored(client.id)).toBeDefined();
    for (const id of held)
      expect((await api('DELETE', `/api/admin/customers/procurations/${id}`)).statusCode).toBe(200);
    expect((await api('DELETE', `${URL}/${client.id}`)).statusCode).toBe(200);
  });

  it('answers 403 to a user without the permission and 401 without a session', async () => {
    const reader = await signInWith(t, ['customers.view']);
    const headers = { ...reader.headers, 'accept-language': 'en' };
    expect((await t.app.inject({ method: 'GET', url: URL, headers })).statusCode).toBe(200);
    const create = await t.app.inject({
      method: 'POST',
      url: URL,
      headers,
      payload: { name: 'x', nationalId: nationalId() },
    });
    expect(create.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `${URL}/1`, headers })).statusCode).toBe(403);
    const none = await signInWith(t, []);
    expect((await t.app.inject({ method: 'GET', url: URL, headers: none.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });
});
