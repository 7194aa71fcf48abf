import FormData from 'form-data';
import { circuits, employees, roles } from '@mizan/contracts';
import { createRow, entityUrl, nextSeq, TEST_PASSWORD } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

/**
 * Text safety and keyboard digits through the real API: what the shared field schemas refuse
 * never reaches the database, and what they normalise is stored normalised.
 */
describe.each(dialects())('text safety and Arabic-Indic digits on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...admin.headers, 'accept-language': lang, 'content-type': 'application/json' },
      // Built by hand: JSON.stringify escapes a lone surrogate as \ud800, which is what a client sends.
      payload: JSON.stringify(payload),
    });
  const roleNamed = async (name: string) =>
    t.app.db.selectFrom('roles').select('name').where('name', '=', name).executeTakeFirst();

  it.each([
    ['a NUL byte', 'a\u0000b', /control character/],
    ['a right-to-left override', '\u202Egnp.exe', /text-direction/],
    ['a lone surrogate', 'role \uD800', /damaged character/],
  ])('refuses a role name holding %s with 422 on the field, and stores nothing', async (_, name, message) => {
    const before = await t.app.db.selectFrom('roles').select('id').execute();
    const res = await post(entityUrl(roles), { name });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toEqual([expect.stringMatching(message)]);
    expect(await t.app.db.selectFrom('roles').select('id').execute()).toHaveLength(before.length);
  });

  it('answers in Arabic too', async () => {
    const res = await post(entityUrl(roles), { name: 'a\u0000b' }, 'ar');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toEqual([expect.stringMatching(/حرف تحكم/)]);
  });

  it('refuses the same on update and keeps the stored name', async () => {
    const role = await createRow(t.app, admin.headers, 'roles', { name: `سليم ${nextSeq()}` });
    const res = await t.app.inject({
      method: 'PUT',
      url: entityUrl(roles),
      headers: { ...admin.headers, 'accept-language': 'en' },
      payload: { ...role, name: '\u2066evil\u2069' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['name']);
    expect(await roleNamed(role.name as string)).toBeDefined();
  });

  it('keeps tabs, newlines and bidi marks in multi-line text and stores names NFC-normalised', async () => {
    const decomposed = `Cafe\u0301 ${nextSeq()}`;
    const res = await post(entityUrl(roles), {
      name: decomposed,
      description: 'سطر\tأول\nسطر \u202Bثان\u202C',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.name).toBe(decomposed.normalize('NFC'));
    expect(res.json().data.description).toBe('سطر\tأول\nسطر \u202Bثان\u202C');
    expect(await roleNamed(decomposed.normalize('NFC'))).toBeDefined();
    expect(await roleNamed(decomposed)).toBeUndefined();
  });

  it('stores Arabic-Indic and Persian digits of numbers, references and phones as ASCII (JSON)', async () => {
    const court = await createRow(t.app, admin.headers, 'courts');
    const res = await post(entityUrl(circuits), {
      name: `دائرة ${nextSeq()}`,
      number: '١٨٠٤',
      courtId: String(court.id).replace(/\d/g, (d) => String.fromCharCode(0x06f0 + Number(d))),
    });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    expect(res.json().data).toMatchObject({ number: 1804, courtId: court.id });
  });

  it('does the same for a multipart form (employees: phone, reference list, date)', async () => {
    const role = await createRow(t.app, admin.headers, 'roles');
    const seq = nextSeq();
    const body = new FormData();
    const arabic = (n: number | string) =>
      String(n).replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
    const fields: Record<string, string> = {
      name: `موظف ${seq}`,
      email: `digits${seq}@mizan.test`,
      username: `digits${seq}`,
      password: TEST_PASSWORD,
      phone: '٠١٠٠١٢٣٤٥٦٧',
      roleIds: arabic(role.id),
      hireDate: '٢٠٢٥-٠٩-٠١',
    };
    for (const [key, value] of Object.entries(fields)) body.append(key, value);
    const res = await t.app.inject({
      method: 'POST',
      url: entityUrl(employees),
      headers: { ...admin.headers, ...body.getHeaders(), 'accept-language': 'en' },
      payload: body,
    });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    expect(res.json().data).toMatchObject({
      phone: '01001234567',
      roleIds: [role.id],
      hireDate: '2025-09-01',
    });
  });
});
