import fs from 'node:fs';
import path from 'node:path';
import FormData from 'form-data';
import {
  DEFAULT_TIME_ZONE,
  PROCURATION_FILE_MAX_COUNT,
  UPLOAD_DEFAULTS,
  uploadLimitBytes,
  PROCURATION_EXPIRY_WARNING_DAYS,
  procurations,
} from '@mizan/contracts';
import { officeToday } from '../engine/today';
import { countRows, createRow, createUserWith, entityUrl, nextSeq } from '../test/fixtures';
import { createTestApp, type Session, type TestApp, splitDialects } from '../test/harness';

type StoredFile = { id: number; originalName: string; mimeType: string; size: number };
type Row = Record<string, unknown> & { id: number; updatedAt: string; files: StoredFile[] };

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
/** A Windows program named like a PDF. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0)]);
const url = entityUrl(procurations);

/** Today plus `days` in the office's default zone, `YYYY-MM-DD`, as the list filters count it. */
const day = (days: number) => officeToday(DEFAULT_TIME_ZONE).daysFromToday(days);

type Upload = { data: Buffer; filename: string; type: string };
const pdf = (filename = 'توكيل.pdf'): Upload => ({ data: PDF, filename, type: 'application/pdf' });

describe.each(splitDialects())('powers of attorney on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let clientA: number;
  let clientB: number;
  let lawyer: number;
  let caseId: number;

  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const filesDir = () => path.join(t.config.dataDir, 'files');
  const onDisk = () => fs.readdirSync(filesDir()).sort();
  const count = (table: string) => countRows(t.app, table);
  const storedNames = async (ids: number[]) =>
    (await t.app.db.selectFrom('files').select('stored_name').where('id', 'in', ids).execute()).map((r) =>
      String(r.stored_name),
    );

  /** A valid body: a fresh number, this year, client A, issued today, no expiry. */
  const body = (extra: Record<string, unknown> = {}) => ({
    number: String(1000 + nextSeq()),
    year: 2026,
    customerIds: [clientA],
    issuer: 'مكتب توثيق الجيزة',
    issueDate: day(0),
    ...extra,
  });

  function form(fields: Record<string, unknown>, files: Upload[]) {
    const out = new FormData();
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      for (const v of [value].flat()) out.append(key, v === null ? '' : String(v));
    }
    for (const f of files) out.append('files', f.data, { filename: f.filename, contentType: f.type });
    return out;
  }
  const send = (method: 'POST' | 'PUT', payload: FormData) =>
    t.app.inject({ method, url, headers: { ...h(), ...payload.getHeaders() }, payload });
  const create = async (extra: Record<string, unknown> = {}, files: Upload[] = []) => {
    const res = await send('POST', form(body(extra), files));
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data as Row;
  };

  /** Runs `fn` and checks that no row, file row, file on disk or audit entry was added or removed. */
  async function leavesNothing(fn: () => Promise<void>) {
    const snapshot = async () => ({
      rows: await count('procurations'),
      files: await count('files'),
      audit: await count('audit_log'),
      disk: onDisk(),
    });
    const before = await snapshot();
    await fn();
    expect(await snapshot()).toEqual(before);
  }

  const customer = async (name: string) =>
    (
      await createRow(t.app, admin.headers, 'customers', {
        name,
        kind: 'person',
        nationalId: `2${String(nextSeq()).padStart(13, '0')}`,
        commercialRegister: null,
        customerTypeId: null,
        nationalityId: null,
        governorateId: null,
        branchId: null,
        lawyerId: null,
      })
    ).id;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    clientA = await customer('أحمد إبراهيم');
    clientB = await customer('شركة النور');
    lawyer = (await createRow(t.app, admin.headers, 'employees')).id;
    caseId = (await createRow(t.app, admin.headers, 'procurationCases')).id;
  });
  afterAll(() => t.close());

  it('creates with several files at once (multipart), clients, lawyers and case', async () => {
    const before = onDisk();
    const row = await create(
      { customerIds: [clientA, clientB], lawyerIds: [lawyer], procurationCaseId: caseId },
      [
        pdf(),
        { data: PNG, filename: 'scan.png', type: 'image/png' },
        { data: JPEG, filename: 'scan2.jpg', type: 'image/jpeg' },
      ],
    );
    expect(row).toMatchObject({
      customerIds: [clientA, clientB].sort((a, b) => a - b),
      lawyerIds: [lawyer],
      procurationCaseId: caseId,
      year: 2026,
      expiryDate: null,
    });
    expect(row.files.map((f) => [f.originalName, f.mimeType])).toEqual([
      ['توكيل.pdf', 'application/pdf'],
      ['scan.png', 'image/png'],
      ['scan2.jpg', 'image/jpeg'],
    ]);
    expect(onDisk().filter((f) => !before.includes(f))).toHaveLength(3);
  });

  it('adds files on update, keeping the stored ones', async () => {
    const row = await create({}, [pdf('first.pdf')]);
    const res = await send(
      'PUT',
      form({ id: row.id, updatedAt: row.updatedAt, scope: 'جميع القضايا' }, [
        pdf('second.pdf'),
        pdf('third.pdf'),
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.scope).toBe('جميع القضايا');
    expect(res.json().data.files.map((f: StoredFile) => f.originalName)).toEqual([
      'first.pdf',
      'second.pdf',
      'third.pdf',
    ]);
  });

  it('answers 413 to a file over the limit and 415 to a non-PDF named .pdf, storing nothing', async () => {
    const big = Buffer.concat([
      PDF,
      Buffer.alloc(uploadLimitBytes(UPLOAD_DEFAULTS.maxUploadMb) + 1 - PDF.length, 0x20),
    ]);
    await leavesNothing(async () => {
      const tooBig = await send('POST', form(body(), [pdf('ok.pdf'), { ...pdf('big.pdf'), data: big }]));
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json().message).toMatch(/25 MB/);
      const fake = await send('POST', form(body(), [pdf('ok.pdf'), { ...pdf('invoice.pdf'), data: EXE }]));
      expect(fake.statusCode).toBe(415);
    });
    const row = await create();
    await leavesNothing(async () => {
      const fake = await send('PUT', form({ id: row.id }, [{ ...pdf('fake.pdf'), data: EXE }]));
      expect(fake.statusCode).toBe(415);
    });
  });

  it('a refused multipart body (422) leaves no file on disk', async () => {
    await leavesNothing(async () => {
      const res = await send(
        'POST',
        form(body({ issueDate: 'not a date', customerIds: [] }), [pdf(), pdf()]),
      );
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual(['customerIds', 'issueDate']);
    });
  });

  it('refuses more files than the definition allows, on create and when an update would exceed it', async () => {
    const many = Array.from({ length: PROCURATION_FILE_MAX_COUNT + 1 }, (_, i) => pdf(`p${i}.pdf`));
    await leavesNothing(async () => {
      const res = await send('POST', form(body(), many));
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.files.join(' ')).toMatch(String(PROCURATION_FILE_MAX_COUNT));
    });
    const row = await create({}, many.slice(0, PROCURATION_FILE_MAX_COUNT - 1));
    await leavesNothing(async () => {
      const res = await send('PUT', form({ id: row.id }, [pdf('a.pdf'), pdf('b.pdf')]));
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['files']);
    });
  });

  it('DELETE /files/:fileId removes that file only (row and disk); the others stay', async () => {
    const row = await create({}, [pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf')]);
    const [a, b, c] = row.files;
    const [gone] = await storedNames([b!.id]);
    const kept = await storedNames([a!.id, c!.id]);
    const res = await t.app.inject({ method: 'DELETE', url: `${url}/files/${b!.id}`, headers: h() });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.files.map((f: StoredFile) => f.id)).toEqual([a!.id, c!.id]);
    expect(onDisk()).not.toContain(gone);
    expect(onDisk()).toEqual(expect.arrayContaining(kept));
    const again = await t.app.inject({ method: 'DELETE', url: `${url}/files/${b!.id}`, headers: h() });
    expect(again.statusCode).toBe(404);
  });

  it('deleting a power of attorney removes its files from disk', async () => {
    const row = await create({}, [pdf('a.pdf'), { data: PNG, filename: 'b.png', type: 'image/png' }]);
    const names = await storedNames(row.files.map((f) => f.id));
    expect(onDisk()).toEqual(expect.arrayContaining(names));
    const res = await t.app.inject({ method: 'DELETE', url: `${url}/${row.id}`, headers: h() });
    expect(res.statusCode).toBe(200);
    for (const name of names) expect(onDisk()).not.toContain(name);
    expect(await storedNames(row.files.map((f) => f.id))).toEqual([]);
  });

  it('refuses a second power of attorney with the same number and year (409 on number); another year is fine', async () => {
    const first = await create();
    await leavesNothing(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: h(),
        payload: body({ number: first.number, year: first.year }),
      });
      expect(res.statusCode).toBe(409);
      expect(Object.keys(res.json().errors)).toEqual(['number']);
    });
    await create({ number: first.number, year: 2025 });
  });

  describe('dates', () => {
    it('refuses an expiry before the issue date (422 on expiryDate), in Arabic and English', async () => {
      await leavesNothing(async () => {
        for (const [lang, text] of [
          ['en', /Expiry date.*before the issue date \(2026-03-10\)/],
          ['ar', /«تاريخ الانتهاء».*2026-03-10/],
        ] as const) {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: h(lang),
            payload: body({ issueDate: '2026-03-10', expiryDate: '2026-03-09' }),
          });
          expect(res.statusCode).toBe(422);
          expect(Object.keys(res.json().errors)).toEqual(['expiryDate']);
          expect(res.json().errors.expiryDate[0]).toMatch(text);
        }
      });
      // The same day is allowed.
      await create({ issueDate: '2026-03-10', expiryDate: '2026-03-10' });
    });

    it('compares a changed date with the stored other one, on PATCH and PUT', async () => {
      const row = await create({ issueDate: '2026-03-10', expiryDate: '2026-12-31' });
      for (const [method, payload] of [
        ['PATCH', { expiryDate: '2026-01-01' }],
        ['PATCH', { issueDate: '2027-01-01' }],
        ['PUT', { id: row.id, expiryDate: '2026-03-01' }],
        ['PUT', { id: row.id, issueDate: '2027-02-02' }],
      ] as const) {
        const res = await t.app.inject({
          method,
          url: method === 'PATCH' ? `${url}/${row.id}` : url,
          headers: h(),
          payload,
        });
        expect([method, payload, res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([
          method,
          payload,
          422,
          ['expiryDate'],
        ]);
      }
      const stored = (await t.app.inject({ method: 'GET', url: `${url}/${row.id}`, headers: h() })).json()
        .data;
      expect(stored).toMatchObject({
        issueDate: '2026-03-10',
        expiryDate: '2026-12-31',
        updatedAt: row.updatedAt,
      });
      const ok = await t.app.inject({
        method: 'PATCH',
        url: `${url}/${row.id}`,
        headers: h(),
        payload: { expiryDate: null },
      });
      expect([ok.statusCode, ok.json().data.expiryDate]).toEqual([200, null]);
    });

    it('needs one client at least, on create and on change', async () => {
      const row = await create();
      await leavesNothing(async () => {
        const none = await t.app.inject({
          method: 'POST',
          url,
          headers: h(),
          payload: body({ customerIds: [] }),
        });
        expect(none.statusCode).toBe(422);
        expect(Object.keys(none.json().errors)).toEqual(['customerIds']);
        const missing = await t.app.inject({
          method: 'POST',
          url,
          headers: h(),
          payload: body({ customerIds: undefined }),
        });
        expect(Object.keys(missing.json().errors)).toEqual(['customerIds']);
        const cleared = await t.app.inject({
          method: 'PATCH',
          url: `${url}/${row.id}`,
          headers: h(),
          payload: { customerIds: [] },
        });
        expect([cleared.statusCode, Object.keys(cleared.json().errors)]).toEqual([422, ['customerIds']]);
      });
    });
  });

  describe('list filters', () => {
    const ids: Record<string, number> = {};
    const tag = `F${nextSeq()}`;
    let otherCase: number;

    /** The names (number suffixes) of this block's rows matching `query`, and the total the same. */
    const listed = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${url}?pageSize=100&q=${tag}&${query}`,
        headers: h(),
      });
      expect([query, res.statusCode]).toEqual([query, 200]);
      const page = res.json().data as { items: Row[]; total: number };
      expect(page.total).toBe(page.items.length);
      return page.items.map((r) => String(r.number).slice(tag.length + 1)).sort();
    };

    beforeAll(async () => {
      otherCase = (await createRow(t.app, admin.headers, 'procurationCases')).id;
      const rows: [string, Record<string, unknown>][] = [
        [
          'expired',
          { expiryDate: day(-1), issueDate: day(-400), customerIds: [clientA], lawyerIds: [lawyer] },
        ],
        [
          'today',
          { expiryDate: day(0), issueDate: day(-10), customerIds: [clientB], procurationCaseId: caseId },
        ],
        [
          'soon',
          { expiryDate: day(10), issueDate: day(-10), customerIds: [clientA, clientB], lawyerIds: [lawyer] },
        ],
        [
          'warn',
          {
            expiryDate: day(PROCURATION_EXPIRY_WARNING_DAYS),
            issueDate: day(-1),
            procurationCaseId: otherCase,
          },
        ],
        ['later', { expiryDate: day(PROCURATION_EXPIRY_WARNING_DAYS + 1), issueDate: day(-1) }],
        ['open', { expiryDate: null, issueDate: day(-1), procurationCaseId: caseId }],
      ];
      for (const [name, extra] of rows) ids[name] = (await create({ number: `${tag}-${name}`, ...extra })).id;
    });

    it('by client, lawyer and case', async () => {
      expect(await listed(`customerIds=${clientA}`)).toEqual(['expired', 'later', 'open', 'soon', 'warn']);
      expect(await listed(`customerIds=${clientB}`)).toEqual(['soon', 'today']);
      expect(await listed(`lawyerIds=${lawyer}`)).toEqual(['expired', 'soon']);
      expect(await listed(`procurationCaseId=${caseId}`)).toEqual(['open', 'today']);
      expect(await listed(`procurationCaseId=${otherCase}&customerIds=${clientA}`)).toEqual(['warn']);
    });

    it('expires within N days (today included) and expired (open-ended ones never expire)', async () => {
      expect(await listed(`expiresWithin=${PROCURATION_EXPIRY_WARNING_DAYS}`)).toEqual([
        'soon',
        'today',
        'warn',
      ]);
      expect(await listed('expiresWithin=0')).toEqual(['today']);
      expect(await listed('expiresWithin=%D9%A1%D9%A0')).toEqual(['soon', 'today']);
      expect(await listed('expired=true')).toEqual(['expired']);
      expect(await listed('expired=false')).toEqual(['later', 'open', 'soon', 'today', 'warn']);
      expect(await listed(`expired=false&expiresWithin=10&customerIds=${clientA}`)).toEqual(['soon']);
    });

    it.each([
      ['customerIds=abc', 'customerIds'],
      ['lawyerIds=-2', 'lawyerIds'],
      ['procurationCaseId=x', 'procurationCaseId'],
      ['expiresWithin=soon', 'expiresWithin'],
      ['expiresWithin=-1', 'expiresWithin'],
      ['expiresWithin=99999', 'expiresWithin'],
      ['expired=maybe', 'expired'],
    ])('answers 422 on the filter to %s', async (query, field) => {
      for (const lang of ['en', 'ar']) {
        const res = await t.app.inject({ method: 'GET', url: `${url}?${query}`, headers: h(lang) });
        expect(res.statusCode).toBe(422);
        expect(Object.keys(res.json().errors)).toEqual([field]);
      }
      const labelled = await t.app.inject({
        method: 'GET',
        url: `${url}?expiresWithin=soon`,
        headers: h('en'),
      });
      expect(labelled.json().errors.expiresWithin[0]).toMatch(/Expires within \(days\)/);
    });
  });

  it('serves a PDF inline to a viewer of powers of attorney and 403 to someone without the permission', async () => {
    const row = await create({}, [pdf('view.pdf')]);
    const fileUrl = `/api/files/${row.files[0]!.id}`;
    const viewerCreds = await createUserWith(t.app, admin.headers, ['procurations.view']);
    const viewer = await t.login(viewerCreds.email, viewerCreds.password);
    const res = await t.app.inject({ method: 'GET', url: fileUrl, headers: viewer.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toMatch(/^inline; filename="view.pdf"/);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    const otherCreds = await createUserWith(t.app, admin.headers, ['customers.view']);
    const other = await t.login(otherCreds.email, otherCreds.password);
    expect((await t.app.inject({ method: 'GET', url: fileUrl, headers: other.headers })).statusCode).toBe(
      403,
    );
    // Deleting a file takes procurations.update, not view.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${url}/files/${row.files[0]!.id}`,
      headers: viewer.headers,
    });
    expect(del.statusCode).toBe(403);
  });

  it('a client named on a power of attorney cannot be deleted (409); once it is gone the client can', async () => {
    const client = await customer('موكل مرتبط');
    const row = await create({ customerIds: [client] });
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `${entityUrl('customers')}/${client}`,
      headers: h(),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/Powers of attorney/);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${row.id}`, headers: h() })).statusCode).toBe(
      200,
    );
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${entityUrl('customers')}/${client}`,
      headers: h(),
    });
    expect(deleted.statusCode).toBe(200);
  });
});
