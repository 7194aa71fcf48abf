import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import FormData from 'form-data';
import { employees } from '@mizan/contracts';
import { createUserWith, entityUrl, nextSeq, TEST_PASSWORD } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

const PDF = Buffer.from('%PDF-1.7\n% عقد\n%%EOF\n');

describe.each(dialects())('file downloads on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let fileId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const seq = nextSeq();
    const form = new FormData();
    for (const [k, v] of Object.entries({
      name: 'م',
      email: `f${seq}@mizan.test`,
      username: `files${seq}`,
      password: TEST_PASSWORD,
    })) {
      form.append(k, v);
    }
    form.append('files', PDF, { filename: 'عقد العمل.pdf', contentType: 'application/pdf' });
    const res = await t.app.inject({
      method: 'POST',
      url: entityUrl(employees),
      headers: { ...admin.headers, ...form.getHeaders() },
      payload: form,
    });
    fileId = res.json().data.files[0].id;
  });
  afterAll(() => t.close());

  it('serves the bytes inline, or as an attachment with its original name', async () => {
    const inline = await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: admin.headers });
    expect(inline.statusCode).toBe(200);
    expect(inline.rawPayload).toEqual(PDF);
    expect(inline.headers['content-type']).toBe('application/pdf');
    expect(inline.headers['x-content-type-options']).toBe('nosniff');
    expect(inline.headers['content-disposition']).toMatch(/^inline;/);
    const attachment = await t.app.inject({
      method: 'GET',
      url: `/api/files/${fileId}?download=1`,
      headers: admin.headers,
    });
    expect(attachment.headers['content-disposition']).toBe(
      `attachment; filename="___ _____.pdf"; filename*=UTF-8''${encodeURIComponent('عقد العمل.pdf')}`,
    );
  });

  it('answers a byte range 206 with Content-Range, a range past the end 416', async () => {
    const get = (range: string) =>
      t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: { ...admin.headers, range } });
    const head = await get('bytes=0-7');
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-7/${PDF.length}`);
    expect(head.rawPayload).toEqual(PDF.subarray(0, 8));
    const open = await get('bytes=9-');
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload).toEqual(PDF.subarray(9));
    // Past the end is cut to the end; several ranges (or another unit) get the whole file.
    expect((await get(`bytes=${PDF.length - 3}-99999`)).rawPayload).toEqual(PDF.subarray(-3));
    expect((await get('bytes=0-1,4-5')).statusCode).toBe(200);
    const past = await get(`bytes=${PDF.length}-`);
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${PDF.length}`);
  });

  it('refuses users who cannot view the owning row, strangers and unknown files', async () => {
    const creds = await createUserWith(t.app, admin.headers, ['courts.view']);
    const user = await t.login(creds.email, creds.password);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: user.headers })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${fileId}` })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/files/999999', headers: admin.headers })).statusCode,
    ).toBe(404);
    const viewer = await t.login(
      ...(Object.values(await createUserWith(t.app, admin.headers, ['employees.view'])).slice(0, 2) as [
        string,
        string,
      ]),
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: viewer.headers }))
        .statusCode,
    ).toBe(200);
  });
});

describe('file access rules', () => {
  /** A file attached under `owner` (a module outside the registry), on disk and in the table. */
  async function storeFile(t: TestApp, owner: string): Promise<number> {
    const storedName = crypto.randomBytes(16).toString('hex');
    await t.app.fileStore.put(storedName, Readable.from([PDF]), PDF.length);
    const row = await t.app.db
      .insertInto('files')
      .values({
        entity: owner,
        owner_id: 1,
        field: 'attachment',
        stored_name: storedName,
        original_name: 'note.pdf',
        mime_type: 'application/pdf',
        size: PDF.length,
        created_by: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  it('belong to one app instance: a rule set on one app is unknown to another in the same process', async () => {
    const one = await createTestApp();
    const two = await createTestApp();
    try {
      one.app.fileAccess.set('chatNotes', (user) => user.id > 0);
      const fileOne = await storeFile(one, 'chatNotes');
      const fileTwo = await storeFile(two, 'chatNotes');
      const adminOne = await one.login();
      const adminTwo = await two.login();
      const got = await one.app.inject({
        method: 'GET',
        url: `/api/files/${fileOne}`,
        headers: adminOne.headers,
      });
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload).toEqual(PDF);
      // The other app has no rule for this owner: refused, even to its administrator.
      expect(
        (await two.app.inject({ method: 'GET', url: `/api/files/${fileTwo}`, headers: adminTwo.headers }))
          .statusCode,
      ).toBe(403);
      // Each app's own modules still set their rules (the public logo and favicon).
      expect(two.app.fileAccess.get('systemSettings')).toBeDefined();
      expect(two.app.fileAccess.get('chatNotes')).toBeUndefined();
    } finally {
      await one.close();
      await two.close();
    }
  });
});
