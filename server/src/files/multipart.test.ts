import FormData from 'form-data';
import { API_BASE, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { entityUrl } from '../test/fixtures';
import { createTestApp, type Session, type TestApp } from '../test/harness';

const APPEARANCE = API_BASE + SYSTEM_SETTINGS_ROUTES.appearance.path;

// Every multipart route reads its body through `readParts`: the parser's own errors are 400.
describe('multipart routes on sqlite', () => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect: 'sqlite' });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const routes: [string, string][] = [
    ['POST', entityUrl('employees')],
    ['PUT', entityUrl('employees')],
    ['PUT', APPEARANCE],
    ['POST', `${entityUrl('courts')}/import`],
  ];

  it.each(routes)(
    '%s %s: a multipart body without a boundary is 400, in the request language',
    async (method, url) => {
      const res = await t.app.inject({
        method: method as 'POST' | 'PUT',
        url,
        headers: { ...admin.headers, 'content-type': 'multipart/form-data', 'accept-language': 'en' },
        payload: '--x\r\ncontent-disposition: form-data; name="name"\r\n\r\nA\r\n--x--\r\n',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'malformed' });
    },
  );

  it.each(routes)('%s %s: a body cut inside a file part is 400', async (method, url) => {
    const form = new FormData();
    form.append('file', Buffer.alloc(2000, 65), { filename: 'a.csv', contentType: 'text/csv' });
    const whole = form.getBuffer();
    const res = await t.app.inject({
      method: method as 'POST' | 'PUT',
      url,
      headers: { ...admin.headers, ...form.getHeaders() },
      payload: whole.subarray(0, whole.length - 600),
    });
    // A cut body may also be refused before the parts are read (the file part is unknown: 422).
    expect([400, 422]).toContain(res.statusCode);
  });

  it('refuses a logo whose script hides behind a namespace prefix, and keeps the settings', async () => {
    const before = (
      await t.app.inject({
        method: 'GET',
        url: API_BASE + SYSTEM_SETTINGS_ROUTES.get.path,
        headers: admin.headers,
      })
    ).json();
    const form = new FormData();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg"><s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script></svg>';
    form.append('logo', Buffer.from(svg), { filename: 'logo.svg', contentType: 'image/svg+xml' });
    const res = await t.app.inject({
      method: 'PUT',
      url: APPEARANCE,
      headers: { ...admin.headers, ...form.getHeaders() },
      payload: form.getBuffer(),
    });
    expect(res.statusCode).toBe(415);
    const after = (
      await t.app.inject({
        method: 'GET',
        url: API_BASE + SYSTEM_SETTINGS_ROUTES.get.path,
        headers: admin.headers,
      })
    ).json();
    expect(after).toEqual(before);
  });
});
