import fs from 'node:fs';
import path from 'node:path';
import FormData from 'form-data';
import {
  UPLOAD_DEFAULTS,
  uploadLimitBytes,
  ATTACHMENT_GROUP_SEEDS,
  SEEDED_ROLES,
  attachmentGroups,
  attachments,
  recordTitle,
} from '@mizan/contracts';
import { countRows, createRow, entityUrl } from '../test/fixtures';
import { seedAttachmentGroups } from './attachments';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(90_000);

type StoredFile = { id: number; originalName: string; mimeType: string; size: number };
type Row = Record<string, unknown> & { id: number; updatedAt: string; files: StoredFile[] };
type Upload = { data: Buffer; filename: string; type: string };

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
/** A Windows program named like a PDF. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0)]);
const pdf = (filename = 'صحيفة.pdf'): Upload => ({ data: PDF, filename, type: 'application/pdf' });
const png = (filename = 'مستند.png'): Upload => ({ data: PNG, filename, type: 'image/png' });

const url = entityUrl(attachments);
const groupsUrl = entityUrl(attachmentGroups);

describe('attachment permissions of the seeded roles', () => {
  const role = (key: string) => SEEDED_ROLES.find((r) => r.key === key)!;
  it.each(['lawyer', 'secretary'])('a %s views, files and updates attachments, deletes none', (key) => {
    for (const action of ['view', 'create', 'update'])
      expect([action, role(key).permissions(`attachments.${action}`)]).toEqual([action, true]);
    expect(role(key).permissions('attachments.delete')).toBe(false);
    expect(role(key).permissions('attachmentGroups.view')).toBe(true);
    for (const action of ['create', 'update', 'delete', 'status'])
      expect([action, role(key).permissions(`attachmentGroups.${action}`)]).toEqual([action, false]);
  });
  it('a lawyer exports them, as every list; the administrator holds them all', () => {
    expect(role('lawyer').permissions('attachments.export')).toBe(true);
    expect(role('administrator').permissions('attachments.delete')).toBe(true);
    expect(role('administrator').permissions('attachmentGroups.create')).toBe(true);
  });
  it('seeded groups read in English in English until renamed', () => {
    expect(recordTitle('attachmentGroups', 'الأحكام', 'en')).toBe('Judgments');
    expect(recordTitle('attachmentGroups', 'الأحكام', 'ar')).toBe('الأحكام');
    expect(recordTitle('attachmentGroups', 'مراسلات', 'en')).toBe('مراسلات');
  });
});

describe.each(dialects())('lawsuit attachments on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let lawsuit: number;
  let otherLawsuit: number;
  let hearing: number;
  let otherHearing: number;
  let group: number;

  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const filesDir = () => path.join(t.config.dataDir, 'files');
  const onDisk = () => (fs.existsSync(filesDir()) ? fs.readdirSync(filesDir()).sort() : []);
  const count = (table: string) => countRows(t.app, table);
  const storedNames = async (ids: number[]) =>
    (await t.app.db.selectFrom('files').select('stored_name').where('id', 'in', ids).execute()).map((r) =>
      String(r.stored_name),
    );
  const api = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    to: string,
    payload?: object,
    lang = 'en',
  ) => t.app.inject({ method, url: to, headers: h(lang), ...(payload ? { payload } : {}) });

  function form(fields: Record<string, unknown>, files: Upload[]) {
    const out = new FormData();
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      out.append(key, value === null ? '' : String(value));
    }
    for (const f of files) out.append('files', f.data, { filename: f.filename, contentType: f.type });
    return out;
  }
  const send = (method: 'POST' | 'PUT', payload: FormData, lang = 'en') =>
    t.app.inject({ method, url, headers: { ...h(lang), ...payload.getHeaders() }, payload });
  const body = (extra: Record<string, unknown> = {}) => ({
    lawsuitId: lawsuit,
    groupId: group,
    title: 'صحيفة افتتاح الدعوى',
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}, files: Upload[] = []) => {
    const res = await send('POST', form(body(extra), files));
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data as Row;
  };

  /** Runs `fn` and checks that no attachment, file row, file on disk or audit entry was added or removed. */
  async function leavesNothing(fn: () => Promise<void>) {
    const snapshot = async () => ({
      rows: await count('attachments'),
      files: await count('files'),
      audit: await count('audit_log'),
      disk: onDisk(),
    });
    const before = await snapshot();
    await fn();
    expect(await snapshot()).toEqual(before);
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const client = (await createRow(t.app, admin.headers, 'customers')).id;
    const newLawsuit = async () =>
      (await createRow(t.app, admin.headers, 'lawsuits', { customerIds: [client], filingDate: '2026-01-01' }))
        .id;
    lawsuit = await newLawsuit();
    otherLawsuit = await newLawsuit();
    hearing = (await createRow(t.app, admin.headers, 'sessions', { lawsuitId: lawsuit, date: '2026-02-01' }))
      .id;
    otherHearing = (
      await createRow(t.app, admin.headers, 'sessions', { lawsuitId: otherLawsuit, date: '2026-02-01' })
    ).id;
    group = (await api('GET', groupsUrl)).json().data.items[0].id;
  });
  afterAll(() => t.close());

  describe('groups', () => {
    it('a fresh database holds the four default groups, in their order, in both languages', async () => {
      const res = await api('GET', groupsUrl);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.total).toBe(ATTACHMENT_GROUP_SEEDS.length);
      expect(res.json().data.items.map((g: Row) => [g.name, g.nameEn, g.order, g.status])).toEqual(
        ATTACHMENT_GROUP_SEEDS.map((g) => [g.name, g.nameEn, g.order, true]),
      );
      // Folded search finds a seeded group (its search text was written with it).
      const found = await api('GET', `${groupsUrl}?q=${encodeURIComponent('الاحكام')}`);
      expect(found.json().data.items.map((g: Row) => g.nameEn)).toEqual(['Judgments']);
    });

    it('creates, updates, sorts by order, refuses a duplicate name (409) and deletes', async () => {
      const first = await api('POST', groupsUrl, {
        name: 'التوكيلات والإقرارات',
        nameEn: 'Powers',
        order: 0,
      });
      expect(first.statusCode).toBe(201);
      const created = first.json().data as Row;
      let list = (await api('GET', groupsUrl)).json().data.items as Row[];
      expect(list[0]!.id).toBe(created.id);
      const moved = await api('PUT', groupsUrl, { id: created.id, updatedAt: created.updatedAt, order: 9 });
      expect([moved.statusCode, moved.json().data.order]).toEqual([200, 9]);
      list = (await api('GET', groupsUrl)).json().data.items as Row[];
      expect(list[list.length - 1]!.id).toBe(created.id);
      const desc = (await api('GET', `${groupsUrl}?sort=order:desc`)).json().data.items as Row[];
      expect(desc[0]!.id).toBe(created.id);
      const dup = await api('POST', groupsUrl, { name: 'الأحكام' });
      expect([dup.statusCode, Object.keys(dup.json().errors)]).toEqual([409, ['name']]);
      const gone = await api('DELETE', `${groupsUrl}/${created.id}`);
      expect(gone.statusCode).toBe(200);
      expect((await api('GET', `${groupsUrl}/${created.id}`)).statusCode).toBe(404);
    });

    it('a group holding attachments is not deleted (409 naming them)', async () => {
      const held = (await api('POST', groupsUrl, { name: 'مراسلات', order: 5 })).json().data as Row;
      await create({ groupId: held.id });
      const refused = await api('DELETE', `${groupsUrl}/${held.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().heldBy).toEqual([{ entity: 'attachments', count: 1 }]);
    });
  });

  it('creates with two files (multipart), a hearing of the lawsuit and a group; lists by lawsuit and group', async () => {
    const before = onDisk();
    const row = await create({ sessionId: hearing, notes: 'قدمت بالجلسة' }, [pdf(), png()]);
    expect(row).toMatchObject({
      lawsuitId: lawsuit,
      sessionId: hearing,
      groupId: group,
      title: 'صحيفة افتتاح الدعوى',
      notes: 'قدمت بالجلسة',
    });
    expect(row.files.map((f) => [f.originalName, f.mimeType])).toEqual([
      ['صحيفة.pdf', 'application/pdf'],
      ['مستند.png', 'image/png'],
    ]);
    expect(onDisk().filter((f) => !before.includes(f))).toHaveLength(2);
    const listed = (await api('GET', `${url}?lawsuitId=${lawsuit}&sessionId=${hearing}`)).json().data;
    expect(listed.items.map((r: Row) => r.id)).toContain(row.id);
    const none = (await api('GET', `${url}?lawsuitId=${otherLawsuit}`)).json().data;
    expect(none.items.map((r: Row) => r.id)).not.toContain(row.id);
  });

  it('adds two files on update, keeping the stored ones; the lawsuit is not changed by an update', async () => {
    const row = await create({}, [pdf('first.pdf')]);
    const res = await send(
      'PUT',
      form({ id: row.id, updatedAt: row.updatedAt, title: 'مذكرة دفاع', lawsuitId: otherLawsuit }, [
        pdf('second.pdf'),
        png('third.png'),
      ]),
    );
    expect([res.statusCode, res.json().errors]).toEqual([200, undefined]);
    expect(res.json().data).toMatchObject({ title: 'مذكرة دفاع', lawsuitId: lawsuit });
    expect(res.json().data.files.map((f: StoredFile) => f.originalName)).toEqual([
      'first.pdf',
      'second.pdf',
      'third.png',
    ]);
  });

  it('answers 415 to a refused type and 413 to a file over the limit, storing nothing', async () => {
    await leavesNothing(async () => {
      const fake = await send('POST', form(body(), [pdf('ok.pdf'), { ...pdf('invoice.pdf'), data: EXE }]));
      expect(fake.statusCode).toBe(415);
      const text = await send(
        'POST',
        form(body(), [{ data: Buffer.from('hello'), filename: 'a.txt', type: 'text/plain' }]),
      );
      expect(text.statusCode).toBe(415);
      const big = Buffer.concat([
        PDF,
        Buffer.alloc(uploadLimitBytes(UPLOAD_DEFAULTS.maxUploadMb) + 1 - PDF.length, 0x20),
      ]);
      const tooBig = await send('POST', form(body(), [{ ...pdf('big.pdf'), data: big }]));
      expect(tooBig.statusCode).toBe(413);
    });
    const row = await create();
    await leavesNothing(async () => {
      const fake = await send(
        'PUT',
        form({ id: row.id }, [pdf('fine.pdf'), { ...pdf('fake.pdf'), data: EXE }]),
      );
      expect(fake.statusCode).toBe(415);
    });
  });

  it('refuses a hearing of another lawsuit (422 on sessionId, translated), on create and update, storing nothing', async () => {
    await leavesNothing(async () => {
      const res = await send('POST', form(body({ sessionId: otherHearing }), [pdf()]));
      expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([422, ['sessionId']]);
      expect(res.json().errors.sessionId[0]).toContain('Session');
      const ar = await send('POST', form(body({ sessionId: otherHearing }), [pdf()]), 'ar');
      expect(ar.json().errors.sessionId[0]).toContain('الجلسة');
    });
    const row = await create();
    const res = await api('PUT', url, { id: row.id, sessionId: otherHearing });
    expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([422, ['sessionId']]);
    const ok = await api('PUT', url, { id: row.id, sessionId: hearing });
    expect([ok.statusCode, ok.json().data.sessionId]).toEqual([200, hearing]);
    const missing = await api('POST', url, body({ sessionId: 999999 }));
    expect([missing.statusCode, Object.keys(missing.json().errors)]).toEqual([422, ['sessionId']]);
  });

  it('DELETE /files/:fileId removes that file only (row and disk)', async () => {
    const row = await create({}, [pdf('a.pdf'), pdf('b.pdf')]);
    const [a, b] = row.files;
    const [gone] = await storedNames([b!.id]);
    const [kept] = await storedNames([a!.id]);
    const res = await api('DELETE', `${url}/files/${b!.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.files.map((f: StoredFile) => f.id)).toEqual([a!.id]);
    expect(onDisk()).not.toContain(gone);
    expect(onDisk()).toContain(kept);
    expect((await api('DELETE', `${url}/files/${b!.id}`)).statusCode).toBe(404);
  });

  it('deleting an attachment removes its files from disk', async () => {
    const row = await create({}, [pdf('a.pdf'), png('b.png')]);
    const names = await storedNames(row.files.map((f) => f.id));
    expect(onDisk()).toEqual(expect.arrayContaining(names));
    const res = await api('DELETE', `${url}/${row.id}`);
    expect(res.statusCode).toBe(200);
    for (const name of names) expect(onDisk()).not.toContain(name);
    expect(await storedNames(row.files.map((f) => f.id))).toEqual([]);
  });

  it('a hearing named by an attachment is not deleted (409 naming attachments)', async () => {
    const held = (
      await createRow(t.app, admin.headers, 'sessions', { lawsuitId: lawsuit, date: '2026-04-01' })
    ).id;
    await create({ sessionId: held });
    const refused = await api('DELETE', `${entityUrl('sessions')}/${held}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().heldBy).toEqual([{ entity: 'attachments', count: 1 }]);
  });
});

describe.each(dialects())('default attachment groups on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('are filed once, audited as the system; deleted, they do not come back at the next start', async () => {
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'employee_id'])
      .where('entity', '=', attachmentGroups.name)
      .execute();
    expect(audit.map((a) => [a.action, a.employee_id])).toEqual(
      ATTACHMENT_GROUP_SEEDS.map(() => ['create', null]),
    );
    // A second start finds them and adds nothing.
    await seedAttachmentGroups(t.app);
    const { headers } = await t.login();
    const list = await t.app.inject({ method: 'GET', url: groupsUrl, headers });
    expect(list.json().data.total).toBe(ATTACHMENT_GROUP_SEEDS.length);
    for (const group of list.json().data.items as Row[])
      expect(
        (await t.app.inject({ method: 'DELETE', url: `${groupsUrl}/${group.id}`, headers })).statusCode,
      ).toBe(200);
    await seedAttachmentGroups(t.app);
    expect((await t.app.inject({ method: 'GET', url: groupsUrl, headers })).json().data.total).toBe(0);
  });
});
