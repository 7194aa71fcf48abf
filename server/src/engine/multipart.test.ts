import fs from 'node:fs';
import path from 'node:path';
import FormData from 'form-data';
import { employees, UPLOAD_DEFAULTS, uploadLimitBytes } from '@mizan/contracts';
import { countRows, createRow, entityUrl, nextSeq, TEST_PASSWORD } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(200, 7),
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0)]);
const url = entityUrl(employees);

describe.each(dialects())('multipart bodies (employees) on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let roleId: number;

  const storedFiles = () => fs.readdirSync(path.join(t.config.dataDir, 'files')).sort();
  const rowCount = () => countRows(t.app, 'employees');

  function form(
    fields: Record<string, string | string[]>,
    files: { name?: string; data: Buffer; filename: string; type: string }[],
  ) {
    const body = new FormData();
    for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(key, v);
    for (const f of files)
      body.append(f.name ?? 'files', f.data, { filename: f.filename, contentType: f.type });
    return body;
  }
  const send = (method: 'POST' | 'PUT', body: FormData, lang = 'en') =>
    t.app.inject({
      method,
      url,
      headers: { ...admin.headers, ...body.getHeaders(), 'accept-language': lang },
      payload: body,
    });
  const person = () => {
    const seq = nextSeq();
    return {
      name: `موظف ${seq}`,
      email: `m${seq}@mizan.test`,
      username: `member${seq}`,
      password: TEST_PASSWORD,
    };
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    roleId = (await createRow(t.app, admin.headers, 'roles')).id;
  });
  afterAll(() => t.close());

  it('creates with form fields coerced by type and files stored under random names', async () => {
    const before = storedFiles();
    const res = await send(
      'POST',
      form({ ...person(), roleIds: [String(roleId)], hireDate: '2025-09-01', branchId: '' }, [
        { data: PNG, filename: 'صورة.png', type: 'image/png' },
        { data: PDF, filename: '../../contract.pdf', type: 'application/octet-stream' },
      ]),
    );
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    const row = res.json().data;
    expect(row).toMatchObject({ roleIds: [roleId], hireDate: '2025-09-01', branchId: null });
    expect(row).not.toHaveProperty('password');
    expect(row.files).toEqual([
      {
        id: expect.any(Number),
        originalName: 'صورة.png',
        mimeType: 'image/png',
        size: PNG.length,
        createdAt: expect.any(String),
      },
      // The type is read from the bytes, the name loses its path.
      {
        id: expect.any(Number),
        originalName: 'contract.pdf',
        mimeType: 'application/pdf',
        size: PDF.length,
        createdAt: expect.any(String),
      },
    ]);
    const added = storedFiles().filter((f) => !before.includes(f));
    expect(added).toHaveLength(2);
    for (const name of added) expect(name).toMatch(/^[a-f0-9]{32}$/);
    const [stored] = await t.app.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', row.files[0].id)
      .execute();
    expect(fs.readFileSync(path.join(t.config.dataDir, 'files', String(stored!.stored_name)))).toEqual(PNG);
  });

  it('accepts arrays as a JSON string and updates with more files; deletes one file through fileDeletePath', async () => {
    const created = (await send('POST', form({ ...person(), roleIds: JSON.stringify([roleId]) }, []))).json()
      .data;
    expect(created.roleIds).toEqual([roleId]);
    const updated = await send(
      'PUT',
      form({ id: String(created.id), name: 'اسم جديد', email: created.email, username: created.username }, [
        { data: PNG, filename: 'a.png', type: 'image/png' },
      ]),
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      name: 'اسم جديد',
      roleIds: [roleId],
      files: [{ originalName: 'a.png' }],
    });
    const fileId = updated.json().data.files[0].id;
    const before = storedFiles();
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${url}/delete/file/${created.id}/${fileId}`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.files).toEqual([]);
    expect(storedFiles()).toHaveLength(before.length - 1);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${url}/delete/file/${created.id}/${fileId}`,
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('removes the stored files with their row when it is deleted', async () => {
    const before = storedFiles();
    const created = (
      await send('POST', form(person(), [{ data: PDF, filename: 'a.pdf', type: 'application/pdf' }]))
    ).json().data;
    expect(storedFiles()).toHaveLength(before.length + 1);
    const res = await t.app.inject({ method: 'DELETE', url: `${url}/${created.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(storedFiles()).toEqual(before);
    const rows = await t.app.db
      .selectFrom('files')
      .select('id')
      .where('id', '=', created.files[0].id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('answers 413 for a file over the size limit and writes nothing', async () => {
    const before = { files: storedFiles(), rows: await rowCount() };
    const big = Buffer.concat([PNG, Buffer.alloc(uploadLimitBytes(UPLOAD_DEFAULTS.maxUploadMb), 1)]);
    const res = await send('POST', form(person(), [{ data: big, filename: 'big.png', type: 'image/png' }]));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'The file \u2068big.png\u2069 is larger than allowed (25 MB)',
      code: 'payloadTooLarge',
      errors: { 'files.0': ['The file \u2068big.png\u2069 is larger than allowed (25 MB)'] },
    });
    expect({ files: storedFiles(), rows: await rowCount() }).toEqual(before);
  });

  it("names the refused one of several files (413), by its place among the field's files, in Arabic too", async () => {
    const before = { files: storedFiles(), rows: await rowCount() };
    const big = Buffer.concat([PNG, Buffer.alloc(uploadLimitBytes(UPLOAD_DEFAULTS.maxUploadMb), 1)]);
    const res = await send(
      'POST',
      form(person(), [
        { data: PNG, filename: 'first.png', type: 'image/png' },
        { data: PDF, filename: 'عقد.pdf', type: 'application/pdf' },
        { data: big, filename: 'C:\\scans\\مسح كبير.png', type: 'image/png' },
        { data: PNG, filename: 'last.png', type: 'image/png' },
      ]),
      'ar',
    );
    expect(res.statusCode).toBe(413);
    const body = res.json() as { message: string; errors: Record<string, string[]> };
    expect(Object.keys(body.errors)).toEqual(['files.2']);
    expect(body.errors['files.2']).toEqual([body.message]);
    expect(body.message).toContain('مسح كبير.png');
    expect(body.message).not.toContain('scans');
    expect(body.message).toContain('(٢٥ ميجابايت)');
    expect({ files: storedFiles(), rows: await rowCount() }).toEqual(before);
  });

  it('answers 415 for content that is not an accepted type, whatever the declared type, and writes nothing', async () => {
    const before = { files: storedFiles(), rows: await rowCount() };
    const res = await send(
      'POST',
      form(person(), [
        { data: PNG, filename: 'ok.png', type: 'image/png' },
        { data: EXE, filename: 'photo.png', type: 'image/png' },
      ]),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: 'The type of the file \u2068photo.png\u2069 is not allowed',
      code: 'unsupportedMediaType',
      errors: { 'files.1': ['The type of the file \u2068photo.png\u2069 is not allowed'] },
    });
    expect({ files: storedFiles(), rows: await rowCount() }).toEqual(before);
  });

  it('removes the stored files when validation or a unique check fails after the upload', async () => {
    const before = { files: storedFiles(), rows: await rowCount() };
    const blank = await send(
      'POST',
      form({ ...person(), name: '  ' }, [{ data: PNG, filename: 'a.png', type: 'image/png' }]),
      'ar',
    );
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors.name).toEqual([expect.stringMatching(/[\u0600-\u06FF]/)]);
    const taken = await send(
      'POST',
      form({ ...person(), email: 'admin@mizan.test' }, [{ data: PNG, filename: 'a.png', type: 'image/png' }]),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.email).toEqual([expect.any(String)]);
    const tooMany = await send(
      'POST',
      form(
        person(),
        Array.from({ length: 11 }, (_, i) => ({ data: PNG, filename: `${i}.png`, type: 'image/png' })),
      ),
    );
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors.files).toEqual(['Too many files (at most 10)']);
    const unknownPart = await send(
      'POST',
      form(person(), [{ name: 'avatar', data: PNG, filename: 'a.png', type: 'image/png' }]),
    );
    expect(unknownPart.statusCode).toBe(422);
    expect({ files: storedFiles(), rows: await rowCount() }).toEqual(before);
  });

  it('answers 415 to a multipart body on an entity without files', async () => {
    const body = form({ name: 'x' }, []);
    const res = await t.app.inject({
      method: 'POST',
      url: entityUrl('continents'),
      headers: { ...admin.headers, ...body.getHeaders() },
      payload: body,
    });
    expect(res.statusCode).toBe(415);
  });
});
