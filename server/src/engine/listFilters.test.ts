import fs from 'node:fs';
import path from 'node:path';
import FormData from 'form-data';
import { DEFAULT_TIME_ZONE } from '@mizan/contracts';
import { createUserWith, entityUrl, nextSeq } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { EntityServices } from './service';
import { engineReminders, reminderHooks, serveTestEntities, TEST_ENTITIES } from './testEntities';
import { officeToday } from './today';

type Row = Record<string, unknown> & { id: number; updatedAt: string; files: { id: number }[] };

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);

/**
 * Today plus `days` in the office's time zone (the default, Cairo), `YYYY-MM-DD`: the engine's
 * "today" turns at the office's midnight, not UTC's.
 */
const day = (days: number) => officeToday(DEFAULT_TIME_ZONE).daysFromToday(days);

describe.each(dialects())('declared list filters and file deletion by file id on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const url = entityUrl(engineReminders);
  const rows: Record<string, Row> = {};
  const tag = `r${nextSeq()}`;

  const list = (query: string, headers = admin.headers) =>
    t.app.inject({ method: 'GET', url: `${url}?pageSize=100&${query}`, headers });
  const names = async (query: string) => {
    const res = await list(query);
    expect([query, res.statusCode]).toEqual([query, 200]);
    const page = res.json().data as { items: Row[]; total: number };
    // The total counts the same rows the page shows.
    expect(page.total).toBe(page.items.length);
    return page.items.map((r) => String(r.name).replace(`${tag} `, '')).sort();
  };
  const storedFiles = () => fs.readdirSync(path.join(t.config.dataDir, 'files')).sort();

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { entities: TEST_ENTITIES } });
    await serveTestEntities(t);
    admin = await t.login();
    for (const [name, dueOn] of [
      ['yesterday', day(-1)],
      ['today', day(0)],
      ['in10', day(10)],
      ['in30', day(30)],
      ['in31', day(31)],
      ['open', null],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: admin.headers,
        payload: { name: `${tag} ${name}`, dueOn },
      });
      expect(res.statusCode).toBe(201);
      rows[name] = res.json().data;
    }
  });
  afterAll(() => t.close());

  it('narrows the page and its total by each declared filter, alone or with others', async () => {
    expect(await names('')).toEqual(['in10', 'in30', 'in31', 'open', 'today', 'yesterday']);
    expect(await names('dueWithin=30')).toEqual(['in10', 'in30', 'today']);
    expect(await names('dueWithin=0')).toEqual(['today']);
    // Arabic-Indic digits are the same number.
    expect(await names('dueWithin=%D9%A1%D9%A0')).toEqual(['in10', 'today']);
    expect(await names('overdue=true')).toEqual(['yesterday']);
    expect(await names('overdue=false')).toEqual(['in10', 'in30', 'in31', 'open', 'today']);
    expect(await names('overdue=false&dueWithin=10&sort=dueOn:asc')).toEqual(['in10', 'today']);
    expect(await names('overdue=true&dueWithin=10')).toEqual([]);
  });

  it.each([
    ['dueWithin=soon', 'dueWithin', /whole number/],
    ['dueWithin=366', 'dueWithin', /at most 365/],
    ['dueWithin=-1', 'dueWithin', /at least 0/],
    ['dueWithin=2.5', 'dueWithin', /whole number/],
    ['overdue=yes', 'overdue', /yes or no/],
  ])('answers 422 on the filter to %s', async (query, field, message) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${url}?${query}`,
      headers: { ...admin.headers, 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(res.json().errors[field].join(' ')).toMatch(message);
  });

  it('documents the filters in the list query of the OpenAPI document', async () => {
    const doc = t.app.swagger() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    const query = (doc.paths[url]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(query).toEqual(expect.arrayContaining(['dueWithin', 'overdue']));
    const del = doc.paths[`${url}/files/{fileId}`]?.delete;
    expect(del?.parameters?.map((p) => [p.in, p.name])).toEqual([['path', 'fileId']]);
  });

  it('refuses a declared filter without a condition: at start-up for the registry, when listed otherwise', async () => {
    const bare = new EntityServices(TEST_ENTITIES, {
      db: t.app.db,
      dialect: t.app.dialect,
      bus: t.app.bus,
      files: t.app.fileStore,
    });
    expect(() => bare.checkListFilters()).toThrow(
      /engineReminders declares the list filter "dueWithin" but no module gives its condition/,
    );
    await expect(bare.get('engineReminders').list({ overdue: 'true' })).rejects.toThrow(/"overdue"/);
    // Without the filter in the query the list needs no condition.
    await expect(bare.get('engineReminders').list({})).resolves.toMatchObject({ page: 1 });
    bare.hooks('engineReminders', reminderHooks);
    expect(() => bare.checkListFilters()).not.toThrow();
    expect(() =>
      t.app.entities.hooks('engineReminders', { listFilters: { soon: () => null as never } }),
    ).toThrow(/declares no list filter "soon"/);
    // Every registry definition with list filters got its conditions when the app started.
    expect(() => t.app.entities.checkListFilters(['engineWidgets'])).not.toThrow();
  });

  describe('fileDeletePath without the owner (/files/:fileId)', () => {
    async function withFiles(name: string) {
      const body = new FormData();
      body.append('name', `${tag} ${name}`);
      body.append('files', PDF, { filename: 'a.pdf', contentType: 'application/pdf' });
      body.append('files', PNG, { filename: 'b.png', contentType: 'image/png' });
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...admin.headers, ...body.getHeaders() },
        payload: body,
      });
      expect(res.statusCode).toBe(201);
      return res.json().data as Row;
    }

    it('finds the owner from the file and deletes that file only, as a write of the owner', async () => {
      const row = await withFiles('owner');
      expect(row.files).toHaveLength(2);
      const [first, second] = row.files;
      const storedName = String(
        (await t.app.db
          .selectFrom('files')
          .select('stored_name')
          .where('id', '=', first!.id)
          .executeTakeFirst())!.stored_name,
      );
      expect(storedFiles()).toContain(storedName);
      const events = t.published.length;
      const res = await t.app.inject({
        method: 'DELETE',
        url: `${url}/files/${first!.id}`,
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(200);
      const after = res.json().data as Row;
      expect(after.id).toBe(row.id);
      expect(after.files.map((f) => f.id)).toEqual([second!.id]);
      expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(row.updatedAt));
      expect(storedFiles()).not.toContain(storedName);
      const audit = await t.app.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity', '=', 'engineReminders')
        .where('entity_id', '=', row.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit.action).toBe('fileDelete');
      expect(t.published.slice(events)).toEqual([
        expect.objectContaining({
          channel: 'engineReminders',
          message: expect.objectContaining({
            action: 'update',
            data: expect.objectContaining({ id: row.id }),
          }),
        }),
      ]);
      // Gone: a second delete is 404.
      const again = await t.app.inject({
        method: 'DELETE',
        url: `${url}/files/${first!.id}`,
        headers: admin.headers,
      });
      expect(again.statusCode).toBe(404);
    });

    it('answers 404 for a file of another entity or no file, and 403 without the update permission', async () => {
      const employee = await t.app.db
        .insertInto('files')
        .values({
          entity: 'employees',
          owner_id: admin.user.id,
          field: 'files',
          stored_name: 'f'.repeat(32),
          original_name: 'cv.pdf',
          mime_type: 'application/pdf',
          size: 1,
          created_by: null,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const id of [Number(employee.id), 999_999]) {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `${url}/files/${id}`,
          headers: admin.headers,
        });
        expect([id, res.statusCode]).toEqual([id, 404]);
      }
      expect(
        await t.app.db
          .selectFrom('files')
          .select('id')
          .where('id', '=', Number(employee.id))
          .executeTakeFirst(),
      ).toBeDefined();
      const row = await withFiles('guarded');
      const creds = await createUserWith(t.app, admin.headers, ['engineReminders.view']);
      const viewer = await t.login(creds.email, creds.password);
      const refused = await t.app.inject({
        method: 'DELETE',
        url: `${url}/files/${row.files[0]!.id}`,
        headers: viewer.headers,
      });
      expect(refused.statusCode).toBe(403);
    });
  });
});
