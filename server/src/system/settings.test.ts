import FormData from 'form-data';
import { AREA_PERMISSIONS, SYSTEM_SETTINGS_CHANNEL, procurations } from '@mizan/contracts';
import { countRows, entityUrl, validInput } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { getSecurityPolicy } from '../settings/repository';
import { signInWith } from './testing/users';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const GENERAL = '/api/admin/settings/system/general';
const APPEARANCE = '/api/admin/settings/system/general/appearances';

/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a5d1f4e80000000049454e44ae426082',
  'hex',
);
/** A minimal ICO header with one 16×16 entry (the bytes after it do not matter to the check). */
const ICO = Buffer.concat([Buffer.from('0000010001001010000001002000', 'hex'), Buffer.alloc(64, 1)]);

function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]) {
  const form = new FormData();
  for (const p of parts) {
    if (p.filename)
      form.append(p.name, p.value, {
        filename: p.filename,
        contentType: p.type ?? 'application/octet-stream',
      });
    else form.append(p.name, p.value);
  }
  return { payload: form.getBuffer(), headers: form.getHeaders() };
}

describe.each(dialects())('system settings on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('answers the defaults before anything is saved, and the public subset without auth', async () => {
    const res = await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: 1,
      officeName: 'ميزان للمحاماة',
      defaultLanguage: 'ar',
      defaultTheme: 'light',
      calendar: 'hijri',
      passwordMinLength: 8,
      logoUrl: null,
      primaryColor: '#1d4ed8',
    });
    const pub = await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings' });
    expect(pub.statusCode).toBe(200);
    expect(pub.json().data).toEqual({
      officeName: 'ميزان للمحاماة',
      logoUrl: null,
      faviconUrl: null,
      primaryColor: '#1d4ed8',
      defaultLanguage: 'ar',
      defaultTheme: 'light',
      calendar: 'hijri',
      timeZone: 'Africa/Cairo',
      maxUploadMb: 25,
    });
  });

  it('saves a change, audits it, publishes it and serves it publicly', async () => {
    const before = t.published.length;
    const res = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: admin.headers,
      payload: {
        officeName: '  مكتب العدالة للمحاماة  ',
        phone: '+20 2 1234 5678',
        email: 'office@adala.test',
        defaultLanguage: 'en',
        calendar: 'gregorian',
        sessionLifetimeHours: 24,
        passwordMinLength: 10,
        passwordRequireDigits: true,
      },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      officeName: 'مكتب العدالة للمحاماة',
      phone: '+20 2 1234 5678',
      email: 'office@adala.test',
      defaultLanguage: 'en',
      defaultTheme: 'light',
      calendar: 'gregorian',
      sessionLifetimeHours: 24,
      passwordMinLength: 10,
      passwordRequireDigits: true,
      passwordRequireSymbols: false,
      updatedBy: admin.user.id,
    });

    const events = t.published.slice(before).filter((p) => p.channel === SYSTEM_SETTINGS_CHANNEL);
    expect(events).toHaveLength(1);
    expect(events[0]!.message).toMatchObject({
      type: 'event',
      action: 'update',
      data: { officeName: 'مكتب العدالة للمحاماة', defaultLanguage: 'en', calendar: 'gregorian' },
    });

    const pub = await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings' });
    expect(pub.json().data.officeName).toBe('مكتب العدالة للمحاماة');

    const audit = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'systemSettings')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('update');
    expect(Number(audit.employee_id)).toBe(admin.user.id);
    expect(JSON.parse(String(audit.before)).officeName).toBe('ميزان للمحاماة');
    expect(JSON.parse(String(audit.after)).officeName).toBe('مكتب العدالة للمحاماة');

    expect(await getSecurityPolicy(t.app.db)).toEqual({
      sessionLifetimeHours: 24,
      passwordMinLength: 10,
      passwordRequireDigits: true,
      passwordRequireSymbols: false,
    });
  });

  it('keeps fields left out of a PUT', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: admin.headers,
      payload: { defaultTheme: 'dark' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      defaultTheme: 'dark',
      officeName: 'مكتب العدالة للمحاماة',
      passwordMinLength: 10,
    });
  });

  it('refuses invalid values with field messages in Arabic and English, changing nothing', async () => {
    const bad = {
      officeName: '   ',
      passwordMinLength: 4,
      defaultLanguage: 'fr',
      email: 'not-an-email',
      sessionLifetimeHours: 'x',
    };
    const ar = await t.app.inject({ method: 'PUT', url: GENERAL, headers: admin.headers, payload: bad });
    expect(ar.statusCode).toBe(422);
    const arBody = ar.json();
    expect(Object.keys(arBody.errors).sort()).toEqual(
      ['defaultLanguage', 'email', 'officeName', 'passwordMinLength', 'sessionLifetimeHours'].sort(),
    );
    expect(arBody.errors.officeName[0]).toContain('اسم المكتب');
    expect(arBody.message).toBe(Object.values(arBody.errors as Record<string, string[]>)[0]![0]);

    const en = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: { ...admin.headers, 'accept-language': 'en' },
      payload: { passwordMinLength: 4 },
    });
    expect(en.statusCode).toBe(422);
    expect(en.json().errors.passwordMinLength[0]).toContain('Minimum password length');
    expect(en.json().errors.passwordMinLength[0]).toContain('8');

    const res = await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers });
    expect(res.json().data).toMatchObject({
      officeName: 'مكتب العدالة للمحاماة',
      passwordMinLength: 10,
      defaultLanguage: 'en',
    });
  });

  it('answers 400 for a body that is not an object', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(res.statusCode).toBe(400);
  });

  it('needs the permissions: 401 without a token, 403 without systemSettings.*', async () => {
    expect((await t.app.inject({ method: 'GET', url: GENERAL })).statusCode).toBe(401);
    const viewer = await signInWith(t, [AREA_PERMISSIONS.systemSettingsView]);
    expect((await t.app.inject({ method: 'GET', url: GENERAL, headers: viewer.headers })).statusCode).toBe(
      200,
    );
    const put = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: viewer.headers,
      payload: { officeName: 'x' },
    });
    expect(put.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${GENERAL}/1`, headers: viewer.headers })).statusCode,
    ).toBe(403);
    const form = multipart([{ name: 'primaryColor', value: '#000000' }]);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: APPEARANCE,
          headers: { ...viewer.headers, ...form.headers },
          payload: form.payload,
        })
      ).statusCode,
    ).toBe(403);
    const nobody = await signInWith(t, ['courts.view']);
    expect((await t.app.inject({ method: 'GET', url: GENERAL, headers: nobody.headers })).statusCode).toBe(
      403,
    );
  });

  describe('appearance', () => {
    it('stores a logo, a favicon and a colour, served publicly by content type', async () => {
      const before = t.published.length;
      const form = multipart([
        { name: 'primaryColor', value: '#0F766E' },
        { name: 'logo', value: PNG, filename: 'logo.png', type: 'image/png' },
        // The declared type is wrong on purpose: the bytes decide.
        { name: 'favicon', value: ICO, filename: 'favicon.ico', type: 'application/octet-stream' },
      ]);
      const res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.primaryColor).toBe('#0f766e');
      expect(data.logoUrl).toMatch(/^\/api\/auth\/systemSettings\/logo\?v=\d+$/);
      expect(data.faviconUrl).toMatch(/^\/api\/auth\/systemSettings\/favicon\?v=\d+$/);
      expect(t.published.slice(before).some((p) => p.channel === SYSTEM_SETTINGS_CHANNEL)).toBe(true);

      const logo = await t.app.inject({ method: 'GET', url: data.logoUrl });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      expect(logo.rawPayload.equals(PNG)).toBe(true);
      const favicon = await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings/favicon' });
      expect(favicon.statusCode).toBe(200);
      expect(favicon.headers['content-type']).toBe('image/x-icon');

      const pub = await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings' });
      expect(pub.json().data).toMatchObject({
        logoUrl: data.logoUrl,
        faviconUrl: data.faviconUrl,
        primaryColor: '#0f766e',
      });
      const viewer = await signInWith(t, ['courts.view']);
      const file = await t.app.inject({
        method: 'GET',
        url: `/api/files/${data.logoFileId}`,
        headers: viewer.headers,
      });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(PNG)).toBe(true);
    });

    it('replaces the logo and removes the old file', async () => {
      const first = (await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers })).json().data;
      const form = multipart([{ name: 'logo', value: PNG, filename: 'new.png', type: 'image/png' }]);
      const res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.logoFileId).not.toBe(first.logoFileId);
      const old = await t.app.db
        .selectFrom('files')
        .select('id')
        .where('id', '=', first.logoFileId)
        .executeTakeFirst();
      expect(old).toBeUndefined();
      expect(res.json().data.primaryColor).toBe('#0f766e');
    });

    it('refuses a file that is too large (413) or not an accepted image (415), changing nothing', async () => {
      const current = (await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers })).json()
        .data;
      const big = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);
      let form = multipart([{ name: 'logo', value: big, filename: 'big.png', type: 'image/png' }]);
      let res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toContain('(٢٬٠٤٨ كيلوبايت)');

      form = multipart([
        { name: 'logo', value: Buffer.from('%PDF-1.7\n%...'), filename: 'logo.png', type: 'image/png' },
      ]);
      res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(415);

      // An ICO is a favicon, not a logo.
      form = multipart([{ name: 'logo', value: ICO, filename: 'logo.ico', type: 'image/x-icon' }]);
      res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(415);

      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>',
      );
      form = multipart([{ name: 'logo', value: svg, filename: 'logo.svg', type: 'image/svg+xml' }]);
      res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(415);

      form = multipart([{ name: 'primaryColor', value: 'blue' }]);
      res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.primaryColor).toHaveLength(1);

      res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: admin.headers,
        payload: { primaryColor: '#000000' },
      });
      expect(res.statusCode).toBe(415);

      const after = (await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers })).json().data;
      expect(after).toEqual(current);
    });

    it('accepts a clean SVG logo, served with a sandboxing policy', async () => {
      const svg = Buffer.from(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle r="4"/></svg>',
      );
      const form = multipart([{ name: 'logo', value: svg, filename: 'logo.svg', type: 'image/svg+xml' }]);
      const res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(200);
      const logo = await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings/logo' });
      expect(logo.headers['content-type']).toBe('image/svg+xml');
      expect(logo.headers['content-security-policy']).toContain('sandbox');
    });

    it('removes the logo on request; the public route then answers 404', async () => {
      const form = multipart([{ name: 'removeLogo', value: 'true' }]);
      const res = await t.app.inject({
        method: 'PUT',
        url: APPEARANCE,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.logoUrl).toBeNull();
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings/logo' })).statusCode).toBe(
        404,
      );
    });
  });

  it('answers 400 for a garbled multipart body and records nothing for a save that changes nothing', async () => {
    const a = multipart([{ name: 'primaryColor', value: '#111111' }]);
    const b = multipart([{ name: 'primaryColor', value: '#222222' }]);
    const res = await t.app.inject({
      method: 'PUT',
      url: APPEARANCE,
      headers: { ...admin.headers, ...a.headers },
      payload: b.payload,
    });
    expect(res.statusCode).toBe(400);

    const count = () => countRows(t.app, 'audit_log', { entity: 'systemSettings' });
    const before = await count();
    const current = (await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers })).json().data;
    const same = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: admin.headers,
      payload: { officeName: current.officeName },
    });
    expect(same.statusCode).toBe(200);
    expect(same.json().data).toEqual(current);
    expect(await count()).toBe(before);
  });

  it('resets to the defaults with DELETE /1 (404 for any other id)', async () => {
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${GENERAL}/2`, headers: admin.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${GENERAL}/abc`, headers: admin.headers })).statusCode,
    ).toBe(404);
    const res = await t.app.inject({ method: 'DELETE', url: `${GENERAL}/1`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      officeName: 'ميزان للمحاماة',
      defaultLanguage: 'ar',
      calendar: 'hijri',
      passwordMinLength: 8,
      logoUrl: null,
      faviconUrl: null,
      primaryColor: '#1d4ed8',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings/favicon' })).statusCode).toBe(
      404,
    );
    const files = await t.app.db
      .selectFrom('files')
      .select('id')
      .where('entity', '=', 'systemSettings')
      .execute();
    expect(files).toHaveLength(0);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'systemSettings')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('reset');
  });

  it('refuses a save made from an outdated read (409 with the current settings and who saved them), writing nothing', async () => {
    const read = (await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers })).json().data;
    const first = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: admin.headers,
      payload: { address: 'العنوان الأول', updatedAt: read.updatedAt },
    });
    expect(first.statusCode).toBe(200);
    const current = first.json().data;
    expect(current.updatedAt).not.toBe(read.updatedAt);
    const audits = () => countRows(t.app, 'audit_log', { entity: 'systemSettings' });
    const before = { audit: await audits(), events: t.published.length };
    for (const updatedAt of [read.updatedAt, null]) {
      const stale = await t.app.inject({
        method: 'PUT',
        url: GENERAL,
        headers: { ...admin.headers, 'accept-language': 'en' },
        payload: { address: 'العنوان الثاني', updatedAt },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({
        code: 'stale',
        message:
          'Someone else changed this record after you opened it: review the current data, then save again',
        current,
        changedBy: { id: admin.user.id, name: admin.user.name, gender: null },
        changedAt: current.updatedAt,
      });
    }
    expect({ audit: await audits(), events: t.published.length }).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers })).json().data).toEqual(
      current,
    );
    // Without a version the save goes ahead, as scripts send it.
    const blind = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: admin.headers,
      payload: { address: 'العنوان الثالث' },
    });
    expect(blind.json().data.address).toBe('العنوان الثالث');
  });
});

describe.each(dialects())('the one upload limit on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  /** A PDF of `bytes` bytes. */
  const pdfOf = (bytes: number) => Buffer.concat([PDF, Buffer.alloc(bytes - PDF.length, 0x20)]);
  const MB = 1024 * 1024;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const save = (payload: Record<string, unknown>, lang = 'ar') =>
    t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: { ...admin.headers, 'accept-language': lang },
      payload,
    });

  /** A power of attorney with one file, as the form sends it (multipart). */
  async function upload(file: Buffer, lang: string) {
    const body = await validInput(t.app, admin.headers, procurations);
    const form = new FormData();
    for (const [key, value] of Object.entries(body))
      for (const v of [value].flat()) if (v !== null && v !== undefined) form.append(key, String(v));
    form.append('files', file, { filename: 'توكيل.pdf', contentType: 'application/pdf' });
    return t.app.inject({
      method: 'POST',
      url: entityUrl(procurations),
      headers: { ...admin.headers, 'accept-language': lang, ...form.getHeaders() },
      payload: form.getBuffer(),
    });
  }

  it('is a general setting bounded 1 to 200 megabytes: outside, 422 on the field, nothing saved', async () => {
    const read = await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers });
    expect(read.json().data.maxUploadMb).toBe(25);
    for (const value of [0, 201, 2.5]) {
      const res = await save({ maxUploadMb: value });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['maxUploadMb']);
      expect(res.json().errors.maxUploadMb[0]).toContain('أقصى حجم للملف المرفوع');
    }
    const en = await save({ maxUploadMb: 201 }, 'en');
    expect(en.json().errors.maxUploadMb[0]).toContain('Largest uploaded file');
    const after = await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers });
    expect(after.json().data.maxUploadMb).toBe(25);
  });

  it('applies to the next upload once saved (413 giving the limit in the language), and is public for the forms', async () => {
    expect((await upload(pdfOf(MB + 1), 'ar')).statusCode).toBe(201);
    expect((await save({ maxUploadMb: 1 })).statusCode).toBe(200);
    const pub = await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings' });
    expect(pub.json().data.maxUploadMb).toBe(1);

    const ar = await upload(pdfOf(MB + 1), 'ar');
    expect(ar.statusCode).toBe(413);
    expect(ar.json().message).toContain('(١ ميجابايت)');
    expect(ar.json().errors['files.0'][0]).toContain('(١ ميجابايت)');
    const en = await upload(pdfOf(MB + 1), 'en');
    expect(en.statusCode).toBe(413);
    expect(en.json().message).toContain('(1 MB)');
    expect((await upload(pdfOf(MB), 'en')).statusCode).toBe(201);

    expect((await save({ maxUploadMb: 2 })).statusCode).toBe(200);
    expect((await upload(pdfOf(MB + 1), 'en')).statusCode).toBe(201);
    const twelve = await save({ maxUploadMb: 12 });
    expect(twelve.statusCode).toBe(200);
    const arTwelve = await upload(pdfOf(12 * MB + 1), 'ar');
    expect(arTwelve.statusCode).toBe(413);
    expect(arTwelve.json().message).toContain('(١٢ ميجابايت)');
  });
});
