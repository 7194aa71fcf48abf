import fs from 'node:fs';
import path from 'node:path';
import FormData from 'form-data';
import PizZip from 'pizzip';
import {
  API_BASE,
  DOCX_TYPE,
  attachments,
  documentTemplates,
  formatHijri,
  localizeDigits,
  moneyToMajor,
  readZatcaTlv,
  type DocumentField,
  DOCUMENT_ROUTES,
  SYSTEM_SETTINGS_ROUTES,
} from '@mizan/contracts';
import { qrPng } from '../files/qrCode';
import { QR_IMAGE } from '../finance/qr';
import { countRows, createRow, createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { findTool } from '../tools';
import { GENERATED_GROUP } from './index';
import { STARTERS, buildStarterDocx, type Starter } from './starters';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(180_000);

type Row = Record<string, unknown> & { id: number; updatedAt: string };

const url = entityUrl(documentTemplates);

/** The text of a DOCX's body, paragraph by paragraph. */
function docxText(docx: Buffer): string[] {
  const xml = new PizZip(docx).file('word/document.xml')!.asText();
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''),
  );
}

/** A template of our own: the starter builder's right-to-left paragraphs around `lines`. */
const templateOf = (lines: string[], record: Starter['record'] = 'lawsuit') =>
  buildStarterDocx({ file: 'x.docx', name: 'x', kind: 'other', record, description: '', body: lines });

describe.each(dialects())('document templates on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let lawsuit: Row;
  let bareLawsuit: Row;
  let hearing: Row;
  let customer: Row;
  const filesDir = () => path.join(t.config.dataDir, 'files');
  const onDisk = () => (fs.existsSync(filesDir()) ? fs.readdirSync(filesDir()).sort() : []);
  const count = (table: string) => countRows(t.app, table);
  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const api = (method: 'GET' | 'POST', to: string, payload?: object, lang = 'en') =>
    t.app.inject({ method, url: to, headers: h(lang), ...(payload ? { payload } : {}) });

  const upload = (fields: Record<string, string>, file: { data: Buffer; filename: string; type: string }) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', file.data, { filename: file.filename, contentType: file.type });
    return t.app.inject({ method: 'POST', url, headers: { ...h(), ...form.getHeaders() }, payload: form });
  };
  const docx = (data: Buffer, filename = 'قالب.docx') => ({ data, filename, type: DOCX_TYPE });

  /** Runs `fn` and checks that no template, file row, stored file or audit entry was added. */
  async function leavesNothing(fn: () => Promise<void>) {
    const snapshot = async () => ({
      rows: await count(documentTemplates.table),
      files: await count('files'),
      audit: await count('audit_log'),
      disk: onDisk(),
    });
    const before = await snapshot();
    await fn();
    expect(await snapshot()).toEqual(before);
  }

  const templateId = async (file: string) => {
    const starter = STARTERS.find((s) => s.file === file)!;
    const res = await api('GET', `${url}?q=${encodeURIComponent(starter.name)}`);
    return (res.json().data.items as Row[]).find((r) => r.name === starter.name)!.id;
  };
  const generate = (templateId: number, record: { entity: string; id: number }, format = 'docx') =>
    api('POST', API_BASE + DOCUMENT_ROUTES.generate.path, { templateId, record, format });
  const download = async (to: string) => {
    const res = await t.app.inject({ method: 'GET', url: to, headers: h() });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    customer = await createRow(t.app, admin.headers, 'customers', { name: 'محمد أحمد عبد الله' });
    const court = await createRow(t.app, admin.headers, 'courts', { name: 'محكمة شمال القاهرة الابتدائية' });
    lawsuit = await createRow(t.app, admin.headers, 'lawsuits', {
      customerIds: [customer.id],
      courtId: court.id,
      caseNumber: '1234',
      caseYear: 2026,
      subject: 'مطالبة بقيمة عقد توريد',
      claimAmount: 5_000_000,
      agreedFee: 120_000,
      filingDate: '2026-01-10',
    });
    bareLawsuit = await createRow(t.app, admin.headers, 'lawsuits', {
      customerIds: [customer.id],
      caseNumber: null,
      caseYear: null,
      courtId: null,
      agreedFee: null,
      subject: null,
      claimAmount: null,
    });
    hearing = await createRow(t.app, admin.headers, 'sessions', {
      lawsuitId: lawsuit.id,
      date: '2026-03-15',
      time: '09:30',
      courtId: court.id,
      requirements: 'أصل عقد التوريد',
    });
  });
  afterAll(() => t.close());

  it('a new office has the five Arabic starter templates, each with its file', async () => {
    const res = await api('GET', `${url}?pageSize=50`);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data.items as (Row & { file: { originalName: string }[] })[];
    expect(rows.map((r) => r.name).sort()).toEqual(STARTERS.map((s) => s.name).sort());
    for (const row of rows) expect(row.file).toHaveLength(1);
    // Downloadable as the committed file.
    const memo = rows.find((r) => r.name === STARTERS[0]!.name)!;
    const file = (memo.file as unknown as { id: number }[])[0]!;
    const bytes = await download(`${API_BASE}/files/${file.id}?download=1`);
    expect(docxText(bytes)).toEqual(docxText(buildStarterDocx(STARTERS[0]!)));
  });

  it('the field catalogue lists a record kind’s fields, related records, loops and the office, in both languages', async () => {
    const res = await api('GET', `${API_BASE}${DOCUMENT_ROUTES.fields.path}?record=lawsuit`);
    expect(res.statusCode).toBe(200);
    const fields = res.json().data as DocumentField[];
    const byTag = new Map(fields.map((f) => [`${f.loop ?? ''}:${f.tag}`, f]));
    for (const tag of [
      'lawsuit.fileNumber',
      'lawsuit.customer.name',
      'lawsuit.court.name',
      'lawsuit.opponentsText',
      'lawsuit.agreedFeeWords',
      'lawsuit.filingDateHijri',
      'next.sessions.date',
      'sessions',
      'office.name',
      'today',
    ])
      expect([tag, byTag.has(`:${tag}`)]).toEqual([tag, true]);
    expect(byTag.get('sessions:decision')).toBeDefined();
    expect(byTag.get(':lawsuit.agreedFeeWords')!.label).toEqual({
      ar: '«الأتعاب المتفق عليها» كتابةً',
      en: expect.any(String),
    });
    expect(byTag.get(':lawsuit.agreedFeeWords')!.example.ar).toMatch(/^فقط .* لا غير$/);
    expect(byTag.get(':lawsuit.court.name')!.label.en).toBe('Name');
    // Loops through the rows naming a client among several (a `refs` field): a client's lawsuits.
    const customerFields = (
      await api('GET', `${API_BASE}${DOCUMENT_ROUTES.fields.path}?record=customer`)
    ).json().data as DocumentField[];
    expect(customerFields).toContainEqual(expect.objectContaining({ tag: 'lawsuits', kind: 'loop' }));
    expect(customerFields).toContainEqual(expect.objectContaining({ tag: 'procurations', kind: 'loop' }));
    expect(customerFields).toContainEqual(expect.objectContaining({ tag: 'subject', loop: 'lawsuits' }));
    for (const kind of ['lawsuit', 'customer', 'session', 'procuration']) {
      const all = (await api('GET', `${API_BASE}${DOCUMENT_ROUTES.fields.path}?record=${kind}`)).json()
        .data as DocumentField[];
      const keys = all.map((f) => `${f.loop ?? ''}:${f.tag}`);
      expect([kind, keys.length]).toEqual([kind, new Set(keys).size]);
    }
    expect(byTag.get(':office.logo')).toMatchObject({
      kind: 'image',
      label: { ar: 'شعار المكتب', en: 'Office logo' },
    });
    const bad = await api('GET', `${API_BASE}${DOCUMENT_ROUTES.fields.path}?record=expense`);
    expect(bad.statusCode).toBe(422);
  });

  it('generates each starter template from a seeded lawsuit: Arabic names, both calendars, the amount in words', async () => {
    const groupsBefore = await count('attachment_groups');
    const texts: Record<string, string> = {};
    // The invoice's starter is filled from an invoice (its own test, below).
    for (const starter of STARTERS.filter((s) => s.record !== 'invoice')) {
      const record =
        starter.record === 'session'
          ? { entity: 'sessions', id: hearing.id }
          : { entity: 'lawsuits', id: lawsuit.id };
      const res = await generate(await templateId(starter.file), record);
      expect([starter.file, res.statusCode, res.json().errors]).toEqual([starter.file, 201, undefined]);
      const { attachment, url: fileUrl } = res.json().data;
      expect(attachment).toMatchObject({ entity: attachments.name, mimeType: DOCX_TYPE });
      const bytes = await download(fileUrl);
      texts[starter.file] = docxText(bytes).join('\n');
      // Right to left and the template's font kept.
      const xml = new PizZip(bytes).file('word/document.xml')!.asText();
      expect(xml).toContain('<w:bidi/>');
      expect(xml).toContain('<w:rtl/>');
      expect(xml).toContain('w:cs="Arial"');
    }
    expect(texts['memo-to-court.docx']).toContain('مقدمة من: محمد أحمد عبد الله');
    expect(texts['memo-to-court.docx']).toContain('محكمة شمال القاهرة الابتدائية');
    expect(texts['memo-to-court.docx']).toContain('فقط خمسون ألف جنيه لا غير');
    const hijri = formatHijri(new Date('2026-03-15T12:00:00Z'), 'ar', 'UTC');
    expect(texts['hearing-notice.docx']).toContain('السيد/ محمد أحمد عبد الله المحترم');
    expect(texts['hearing-notice.docx']).toContain(`جلسة يوم ${hijri} الموافق ٣/١٥/٢٠٢٦ الساعة ٠٩:٣٠`);
    expect(texts['hearing-notice.docx']).toContain('والمطلوب للجلسة: أصل عقد التوريد');
    expect(texts['procuration-request.docx']).toContain('السيد/ محمد أحمد عبد الله المحترم');
    expect(texts['fee-receipt.docx']).toContain('(فقط ألف ومائتا جنيه لا غير)');
    expect(texts['fee-receipt.docx']).toContain('مبلغًا وقدره ١٬٢٠٠٫٠٠ جنيه');

    // Filed under the "generated documents" group (made once), on the lawsuit and the hearing.
    expect(await count('attachment_groups')).toBe(groupsBefore + 1);
    const listed = await api('GET', `${entityUrl(attachments)}?lawsuitId=${lawsuit.id}`);
    const rows = listed.json().data.items as Row[];
    expect(rows).toHaveLength(STARTERS.filter((s) => s.record !== 'invoice').length);
    expect(new Set(rows.map((r) => (r.group as { name: string }).name))).toEqual(
      new Set([GENERATED_GROUP.name]),
    );
    expect(rows.filter((r) => r.sessionId === hearing.id)).toHaveLength(1);
    // Audited as the attachment's creation, by the employee who generated it.
    const audited = await t.app.db
      .selectFrom('audit_log')
      .select(['employee_id', 'action'])
      .where('entity', '=', attachments.name)
      .where(
        'entity_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(audited.map((a) => [Number(a.employee_id), a.action])).toEqual(
      rows.map(() => [admin.user.id, 'create']),
    );
  });

  it('a record without a field the template names leaves it empty and lists it as missing', async () => {
    const res = await generate(await templateId('fee-receipt.docx'), {
      entity: 'lawsuits',
      id: bareLawsuit.id,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.missing).toEqual(
      expect.arrayContaining([
        'lawsuit.agreedFee',
        'lawsuit.agreedFeeWords',
        'lawsuit.caseNumber',
        'lawsuit.caseYear',
      ]),
    );
    const text = docxText(await download(res.json().data.url)).join('\n');
    expect(text).toContain('مبلغًا وقدره \n');
  });

  it('a client’s document is filed as a file of the client and audited', async () => {
    const created = await upload(
      { name: 'خطاب إلى موكل', record: 'customer', kind: 'clientLetter' },
      docx(
        templateOf(
          [
            'السيد/ {customer.name}',
            'تحريرًا في {todayHijri}',
            // The client's lawsuits: the rows whose `customerIds` name the client.
            'قضاياكم: {#lawsuits}[{subject}]{/lawsuits}',
          ],
          'customer',
        ),
      ),
    );
    expect([created.statusCode, created.json().errors]).toEqual([201, undefined]);
    const res = await generate(created.json().data.id, { entity: 'customer', id: customer.id });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    expect(res.json().data.attachment).toMatchObject({ entity: 'customers', id: customer.id });
    const text = docxText(await download(res.json().data.url));
    expect(text[0]).toBe('السيد/ محمد أحمد عبد الله');
    // Both lawsuits in the order they were made, the one without a subject empty.
    expect(text[2]).toBe('قضاياكم: [مطالبة بقيمة عقد توريد][]');
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'customers')
      .where('entity_id', '=', customer.id)
      .where('action', '=', 'generate')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('an invoice’s document: its fields, the total in words, a loop over its lines, filed as a file of the invoice', async () => {
    const fields = (await api('GET', `${API_BASE}${DOCUMENT_ROUTES.fields.path}?record=invoice`)).json()
      .data as {
      tag: string;
      loop: string | null;
    }[];
    const tags = new Set(fields.map((f) => `${f.loop ?? ''}:${f.tag}`));
    for (const tag of [
      ':invoice.number',
      ':invoice.totalWords',
      ':invoice.customer.name',
      'invoiceLines:description',
    ])
      expect([tag, tags.has(tag)]).toEqual([tag, true]);
    const invoice = await createRow(t.app, admin.headers, 'invoices', { customerId: customer.id });
    for (const [description, unitPrice] of [
      ['صياغة صحيفة الدعوى', 100_000],
      ['حضور الجلسة', 50_000],
    ] as const)
      await createRow(t.app, admin.headers, 'invoiceLines', {
        invoiceId: invoice.id,
        description,
        unitPrice,
      });
    const issued = await t.app.inject({
      method: 'POST',
      url: `${entityUrl('invoices')}/${invoice.id}/issue`,
      headers: h(),
    });
    expect(issued.statusCode).toBe(200);
    const created = await upload(
      { name: 'فاتورة الأتعاب', record: 'invoice', kind: 'receipt' },
      docx(
        templateOf(
          [
            'فاتورة رقم {invoice.number} إلى {invoice.customer.name}',
            '{#invoiceLines}{description}{/invoiceLines}',
            '{invoice.totalWords}',
          ],
          'invoice',
        ),
      ),
    );
    expect([created.statusCode, created.json().errors]).toEqual([201, undefined]);
    const res = await generate(created.json().data.id, { entity: 'invoices', id: invoice.id });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    expect(res.json().data.attachment).toMatchObject({ entity: 'invoices', id: invoice.id });
    const text = docxText(await download(res.json().data.url));
    // Codes read in the template's digits, as every code of a document.
    const number = localizeDigits(String(issued.json().data.number), 'ar');
    expect(text[0]).toBe(`فاتورة رقم ${number} إلى محمد أحمد عبد الله`);
    expect(text.join('\n')).toContain('صياغة صحيفة الدعوىحضور الجلسة');
    expect(text.join('\n')).toMatch(/فقط .* لا غير/);

    // The starter invoice, filled from the same invoice: both calendars, its lines, VAT, in words.
    const starter = await generate(await templateId('invoice.docx'), { entity: 'invoices', id: invoice.id });
    expect([starter.statusCode, starter.json().errors]).toEqual([201, undefined]);
    const filled = docxText(await download(starter.json().data.url)).join('\n');
    const data = issued.json().data as Row;
    const hijri = formatHijri(new Date(`${String(data.issueDate)}T12:00:00Z`), 'ar', 'UTC');
    expect(filled).toContain(`رقم الفاتورة: ${number}`);
    expect(filled).toContain(`تاريخ الإصدار: ${hijri} الموافق`);
    expect(filled).toContain('العميل: محمد أحمد عبد الله');
    expect(filled).toMatch(/صياغة صحيفة الدعوى: الكمية [٠-٩]+ × ١٬٠٠٠٫٠٠ جنيه، الصافي [٠-٩٬٫]+ جنيه/);
    expect(filled).toMatch(/حضور الجلسة: الكمية [٠-٩]+ × ٥٠٠٫٠٠ جنيه/);
    expect(Number(data.vatTotal)).toBeGreaterThan(0);
    expect(filled).toMatch(/المجموع قبل الضريبة: [٠-٩٬٫]+ جنيه\nضريبة القيمة المضافة: [٠-٩٬٫]+ جنيه/);
    expect(filled).toMatch(/الإجمالي شاملًا الضريبة: [٠-٩٬٫]+ جنيه/);
    expect(filled).toMatch(/\(فقط .* لا غير\)/);
  });

  it('the office logo is drawn where `{%office.logo}` stands; without one it is listed as missing', async () => {
    const created = await upload(
      { name: 'ترويسة بالشعار', record: 'lawsuit' },
      docx(templateOf(['{%office.logo}', '{office.name}'])),
    );
    expect([created.statusCode, created.json().errors]).toEqual([201, undefined]);
    const record = { entity: 'lawsuits', id: lawsuit.id };
    const without = await generate(created.json().data.id, record);
    expect(without.json().data.missing).toEqual(['office.logo']);
    const bare = new PizZip(await download(without.json().data.url));
    expect(Object.keys(bare.files).some((n) => n.startsWith('word/media/'))).toBe(false);

    // A 1×1 PNG as the office's logo (system settings, appearance).
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a5d1f4e80000000049454e44ae426082',
      'hex',
    );
    const form = new FormData();
    form.append('logo', png, { filename: 'logo.png', contentType: 'image/png' });
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/system/general/appearances',
      headers: { ...h(), ...form.getHeaders() },
      payload: form,
    });
    expect(set.statusCode).toBe(200);
    const res = await generate(created.json().data.id, record);
    expect([res.statusCode, res.json().data.missing]).toEqual([201, []]);
    const zip = new PizZip(await download(res.json().data.url));
    const media = Object.keys(zip.files).filter((n) => n.startsWith('word/media/'));
    expect(media).toHaveLength(1);
    expect(zip.file(media[0]!)!.asNodeBuffer().equals(png)).toBe(true);
    const id = /<a:blip r:embed="([^"]+)"/.exec(zip.file('word/document.xml')!.asText())![1];
    expect(zip.file('word/_rels/document.xml.rels')!.asText()).toContain(
      `Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${media[0]!.slice('word/'.length)}"`,
    );
  });

  it('an issued invoice’s Saudi QR code is drawn where `{%invoice.qr}` stands, the PNG of the QR route; a draft’s is left empty', async () => {
    const fields = (await api('GET', `${API_BASE}${DOCUMENT_ROUTES.fields.path}?record=invoice`)).json()
      .data as DocumentField[];
    expect(fields.find((f) => f.tag === 'invoice.qr')).toMatchObject({ kind: 'image', loop: null });
    const general = API_BASE + SYSTEM_SETTINGS_ROUTES.get.path;
    const put = (payload: object) => t.app.inject({ method: 'PUT', url: general, headers: h(), payload });
    const before = (await api('GET', general)).json().data as Record<string, unknown>;
    expect((await put({ officeCountry: 'SA', vatNumber: '310122393500003' })).statusCode).toBe(200);
    try {
      const created = await upload(
        { name: 'فاتورة برمز الاستجابة', record: 'invoice' },
        docx(templateOf(['فاتورة رقم {invoice.number}', '{%invoice.qr}'], 'invoice')),
      );
      expect([created.statusCode, created.json().errors]).toEqual([201, undefined]);
      const invoice = await createRow(t.app, admin.headers, 'invoices', { customerId: customer.id });
      await createRow(t.app, admin.headers, 'invoiceLines', {
        invoiceId: invoice.id,
        description: 'استشارة',
        unitPrice: 100_000,
      });
      const fill = async () => {
        const res = await generate(created.json().data.id, { entity: 'invoices', id: invoice.id });
        expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
        const zip = new PizZip(await download(res.json().data.url));
        const media = Object.keys(zip.files).filter((n) => n.startsWith('word/media/'));
        return { zip, media, missing: res.json().data.missing as string[] };
      };

      // A draft has no QR code (nor number): the tag is left empty, no error.
      const draft = await fill();
      expect([draft.media, draft.missing]).toEqual([[], ['invoice.number', 'invoice.qr']]);
      expect(draft.zip.file('word/document.xml')!.asText()).not.toContain('<w:drawing>');

      const issued = await t.app.inject({
        method: 'POST',
        url: `${entityUrl('invoices')}/${invoice.id}/issue`,
        headers: h(),
      });
      expect(issued.statusCode).toBe(200);
      const filled = await fill();
      expect(filled.missing).toEqual([]);
      expect(filled.media).toHaveLength(1);
      const drawn = filled.zip.file(filled.media[0]!)!.asNodeBuffer();
      // The QR route's PNG, byte for byte: the office's TLV (name, VAT number, instant, totals).
      const qrUrl = `${entityUrl('invoices')}/${invoice.id}/qr`;
      const route = await download(`${qrUrl}?format=png`);
      expect(drawn.equals(route)).toBe(true);
      expect([drawn.readUInt32BE(16), drawn.readUInt32BE(20)]).toEqual([240, 240]);
      const { tlv } = (await api('GET', qrUrl)).json().data as { tlv: string };
      const row = issued.json().data as Row;
      expect(readZatcaTlv(tlv)).toMatchObject({
        vatNumber: '310122393500003',
        total: moneyToMajor(Number(row.total)),
        vatTotal: moneyToMajor(Number(row.vatTotal)),
      });
      expect(drawn.equals(await qrPng(tlv, QR_IMAGE))).toBe(true);
      const id = /<a:blip r:embed="([^"]+)"/.exec(filled.zip.file('word/document.xml')!.asText())![1];
      expect(filled.zip.file('word/_rels/document.xml.rels')!.asText()).toContain(
        `Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"`,
      );

      // The starter invoice draws it too.
      const starter = await generate(await templateId('invoice.docx'), {
        entity: 'invoices',
        id: invoice.id,
      });
      expect([starter.statusCode, starter.json().errors]).toEqual([201, undefined]);
      expect(starter.json().data.missing).not.toContain('invoice.qr');
      const starterZip = new PizZip(await download(starter.json().data.url));
      const starterMedia = Object.keys(starterZip.files).filter((n) => n.startsWith('word/media/'));
      // Beside the office's logo (set by the test before).
      expect(starterMedia.filter((n) => starterZip.file(n)!.asNodeBuffer().equals(route))).toHaveLength(1);

      // Outside Saudi Arabia an issued invoice has none either.
      expect((await put({ officeCountry: before.officeCountry })).statusCode).toBe(200);
      const abroad = await fill();
      expect([abroad.media, abroad.missing]).toEqual([[], ['invoice.qr']]);
    } finally {
      await put({ officeCountry: before.officeCountry, vatNumber: before.vatNumber ?? null });
    }
  });

  it('a template of another record kind is 422; an unknown template or record 404', async () => {
    const memo = await templateId('memo-to-court.docx');
    expect((await generate(memo, { entity: 'sessions', id: hearing.id })).statusCode).toBe(422);
    expect((await generate(999_999, { entity: 'lawsuits', id: lawsuit.id })).statusCode).toBe(404);
    expect((await generate(memo, { entity: 'lawsuits', id: 999_999 })).statusCode).toBe(404);
    expect((await generate(memo, { entity: 'tasks', id: 1 })).statusCode).toBe(422);
  });

  it('an employee who may not file papers on the record cannot generate there (403), nothing stored', async () => {
    const reader = await createUserWith(t.app, admin.headers, [
      'documentTemplates.view',
      'lawsuits.view',
      'attachments.view',
    ]);
    const session = await t.login(reader.email, reader.password);
    const memo = await templateId('memo-to-court.docx');
    const before = await count('files');
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + DOCUMENT_ROUTES.generate.path,
      headers: session.headers,
      payload: { templateId: memo, record: { entity: 'lawsuits', id: lawsuit.id } },
    });
    expect(res.statusCode).toBe(403);
    expect(await count('files')).toBe(before);
  });

  describe('upload checks: refused, nothing stored', () => {
    it('a macro-enabled document (.docm) is 415, declared as such or renamed', async () => {
      const zip = new PizZip(templateOf(['{lawsuit.fileNumber}']));
      zip.file('word/vbaProject.bin', Buffer.alloc(100, 1));
      const docm = zip.generate({ type: 'nodebuffer' });
      await leavesNothing(async () => {
        const declared = await upload(
          { name: 'ماكرو', record: 'lawsuit' },
          { data: docm, filename: 'x.docm', type: 'application/vnd.ms-word.document.macroEnabled.12' },
        );
        expect(declared.statusCode).toBe(415);
        const renamed = await upload({ name: 'ماكرو', record: 'lawsuit' }, docx(docm, 'x.docx'));
        expect(renamed.statusCode).toBe(415);
        expect(renamed.json().errors.file[0]).toMatch(/macros/);
      });
    });

    it('a file that is not a DOCX is 415', async () => {
      await leavesNothing(async () => {
        const pdf = await upload(
          { name: 'ليس وورد', record: 'lawsuit' },
          docx(Buffer.from('%PDF-1.7\n%%EOF\n')),
        );
        expect(pdf.statusCode).toBe(415);
        const zip = new PizZip();
        zip.file('a.txt', 'not a document');
        const plainZip = await upload(
          { name: 'ليس وورد', record: 'lawsuit' },
          docx(zip.generate({ type: 'nodebuffer' })),
        );
        expect(plainZip.statusCode).toBe(415);
      });
    });

    it('a zip bomb (unpacks past the limit) is 413', async () => {
      const zip = new PizZip(templateOf(['{lawsuit.fileNumber}']));
      zip.file('word/media/filler.bin', Buffer.alloc(60 * 1024 * 1024));
      const bomb = zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
      expect(bomb.length).toBeLessThan(1024 * 1024);
      await leavesNothing(async () => {
        const res = await upload({ name: 'قنبلة', record: 'lawsuit' }, docx(bomb));
        expect(res.statusCode).toBe(413);
      });
    });

    it('a broken tag is 422 naming the tag and where it stands', async () => {
      await leavesNothing(async () => {
        const res = await upload(
          { name: 'وسم مكسور', record: 'lawsuit' },
          docx(templateOf(['رقم {lawsuit.fileNumber'])),
        );
        expect(res.statusCode).toBe(422);
        expect(res.json().tags).toEqual([
          expect.objectContaining({ tag: 'lawsuit.fileNumber', part: 'word/document.xml', offset: 4 }),
        ]);
        expect(res.json().errors.file[0]).toContain('lawsuit.fileNumber');
      });
    });

    it('an unknown tag is 422 naming the tag and where it stands, in the record kind it fills from', async () => {
      await leavesNothing(async () => {
        const res = await upload(
          { name: 'حقل مجهول', record: 'lawsuit' },
          docx(
            templateOf(['{lawsuit.fileNumber} {lawsuit.shoeSize}', '{#sessions}{date} {colour}{/sessions}']),
          ),
        );
        expect(res.statusCode).toBe(422);
        expect(res.json().tags.map((p: { tag: string }) => p.tag)).toEqual(['lawsuit.shoeSize', 'colour']);
        expect(res.json().tags[0].offset).toBe(21);
        expect(res.json().errors.file[0]).toContain('lawsuit.shoeSize');
        // The same tags are a hearing's own: a lawsuit's field is unknown to a hearing template.
        const session = await upload(
          { name: 'حقل مجهول', record: 'session' },
          docx(templateOf(['{lawsuit.fileNumber}'])),
        );
        expect(session.statusCode).toBe(422);
      });
    });

    it('a template is replaced by uploading a new file in its place (checked the same way)', async () => {
      const created = await upload(
        { name: 'قالب يستبدل', record: 'lawsuit' },
        docx(templateOf(['{lawsuit.fileNumber}'])),
      );
      expect(created.statusCode).toBe(201);
      const row = created.json().data as Row & { file: { id: number }[] };
      const del = await t.app.inject({
        method: 'DELETE',
        url: `${url}/files/${row.file[0]!.id}`,
        headers: h(),
      });
      expect(del.statusCode).toBeLessThan(300);
      const form = new FormData();
      form.append('updatedAt', (await api('GET', `${url}/${row.id}`)).json().data.updatedAt);
      form.append('file', templateOf(['{lawsuit.shoeSize}']), { filename: 'x.docx', contentType: DOCX_TYPE });
      const bad = await t.app.inject({
        method: 'PATCH',
        url: `${url}/${row.id}`,
        headers: { ...h(), ...form.getHeaders() },
        payload: form,
      });
      expect(bad.statusCode).toBe(422);
    });
  });

  it('many records at once make one archive of their documents', async () => {
    const second = await createRow(t.app, admin.headers, 'sessions', {
      lawsuitId: lawsuit.id,
      date: '2026-03-16',
    });
    const res = await api('POST', API_BASE + DOCUMENT_ROUTES.batch.path, {
      templateId: await templateId('hearing-notice.docx'),
      records: [
        { entity: 'sessions', id: hearing.id },
        { entity: 'sessions', id: second.id },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = new PizZip(res.rawPayload);
    const docs = Object.keys(zip.files).filter((n) => n.endsWith('.docx'));
    expect(docs).toHaveLength(2);
    expect(docxText(zip.file(docs[0]!)!.asNodeBuffer()).join('\n')).toContain('محمد أحمد عبد الله');
  });

  it('tells whether PDF can be made, and makes it when LibreOffice is installed', async () => {
    const tools = await api('GET', API_BASE + DOCUMENT_ROUTES.tools.path);
    expect(tools.json().data.pdf).toBe(findTool('soffice') !== null);
    if (!findTool('soffice')) return;
    const res = await generate(
      await templateId('fee-receipt.docx'),
      { entity: 'lawsuits', id: lawsuit.id },
      'pdf',
    );
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    expect(res.json().data.attachment.mimeType).toBe('application/pdf');
    const pdf = await download(res.json().data.url);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // A preview is a PDF stored nowhere.
    const files = await count('files');
    const preview = await api('POST', API_BASE + DOCUMENT_ROUTES.preview.path, {
      templateId: await templateId('hearing-notice.docx'),
      record: { entity: 'sessions', id: hearing.id },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('application/pdf');
    expect(preview.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await count('files')).toBe(files);
  });
});
