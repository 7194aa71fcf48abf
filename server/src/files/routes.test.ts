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
