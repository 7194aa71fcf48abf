import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  API_BASE,
  attachmentGroups,
  attachments,
  type FileTextResult,
  type GlobalSearchResult,
} from '@mizan/contracts';
import JSZip from 'jszip';
import { createRow, createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { findTool } from '../tools';
import { makeArabicScan } from './testing';
import { snippet } from '.';
import { repairLamAlef, repairLamAlef as repair } from './extract';

// OCR of a few pages and LibreOffice's start take tens of seconds on a busy machine.
jest.setTimeout(400_000);

const PDF = 'application/pdf';
const PNG = 'image/png';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * The Arabic pages every test reads, made at test time: an HTML document of two pages rendered by
 * LibreOffice to a PDF with text (page 1 English, page 2 Arabic), its pages rasterised to PNG by
 * pdftoppm, and those images made into a scanned PDF (images only, no text) by LibreOffice again.
 */
interface Fixtures {
  textPdf: Buffer;
  scanPdf: Buffer;
  pagePng: Buffer;
  docx: Buffer;
}

const PAGE_TWO = 'قضية الإيجار أمام المحكمة الابتدائية';

async function makeFixtures(): Promise<Fixtures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-ocr-fixture-'));
  const made = await makeArabicScan(
    dir,
    [
      ['Lease agreement of the flat in Giza, first copy', 'Signed by both parties before witnesses'],
      [PAGE_TWO, 'طلب فسخ عقد الإيجار لعدم السداد'],
    ],
    { fontPt: 20, dpi: 200 },
  );
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
  );
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document ${w}><w:body>
<w:p><w:r><w:t>مذكرة بدفاع المدعى عليه</w:t></w:r></w:p>
<w:p><w:r><w:br w:type="page"/><w:t xml:space="preserve">نلتمس رفض الدعوى </w:t></w:r><w:r><w:t>وإلزام المدعي المصروفات</w:t></w:r></w:p>
</w:body></w:document>`,
  );
  const fixtures = {
    textPdf: fs.readFileSync(made.textPdf),
    scanPdf: fs.readFileSync(made.scanPdf),
    pagePng: fs.readFileSync(made.images[1]!),
    docx: await zip.generateAsync({ type: 'nodebuffer' }),
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return fixtures;
}

let made: Promise<Fixtures> | null = null;
const fixtures = () => (made ??= makeFixtures());

describe('text helpers', () => {
  it('puts back a lam-alef split after the article, and nothing else', () => {
    expect(repair('قضية اإليجار االبتدائية')).toBe('قضية الإيجار الابتدائية');
    expect(repairLamAlef('إلى السلام')).toBe('إلى السلام');
  });
  it('a snippet shows the words around the one found, as written', () => {
    expect(snippet('تقدم المدعي بمذكرة إلى المحكمة الابتدائية', ['المحكمه'])).toBe(
      'تقدم المدعي بمذكرة إلى المحكمة الابتدائية',
    );
  });
});

const tools = ['soffice', 'pdftoppm', 'pdftotext', 'pdfinfo', 'tesseract'] as const;
const installed = tools.every((tool) => findTool(tool));

(installed ? describe.each(dialects()) : describe.skip.each(dialects()))('text of files on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let base: string;
  let lawsuit: number;
  let group: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = (await createRow(t.app, admin.headers, 'customers')).id;
    lawsuit = (
      await createRow(t.app, admin.headers, 'lawsuits', { customerIds: [client], filingDate: '2026-01-01' })
    ).id;
    group = (
      await t.app.inject({ method: 'GET', url: entityUrl(attachmentGroups), headers: admin.headers })
    ).json().data.items[0].id;
    await fixtures();
  });
  afterAll(() => t.close());

  /** Files an attachment of the lawsuit over HTTP; answers its id and its file's id. */
  async function upload(name: string, type: string, data: Buffer): Promise<{ id: number; fileId: number }> {
    const form = new FormData();
    form.append('lawsuitId', String(lawsuit));
    form.append('groupId', String(group));
    form.append('title', name);
    form.append('files', new Blob([data], { type }), name);
    const res = await fetch(base + entityUrl(attachments), {
      method: 'POST',
      headers: admin.headers,
      body: form,
    });
    const body = (await res.json()) as { data: { id: number; files: { id: number }[] } };
    expect(res.status).toBe(201);
    return { id: body.data.id, fileId: body.data.files[0]!.id };
  }
  const get = async <T>(url: string, headers = admin.headers): Promise<{ status: number; data: T }> => {
    const res = await fetch(base + url, { headers });
    return { status: res.status, data: ((await res.json()) as { data: T }).data };
  };
  const textOf = (f: { id: number; fileId: number }) =>
    get<FileTextResult>(`${API_BASE}/files/text?entity=attachments&id=${f.id}&fileId=${f.fileId}`);
  const search = async (q: string) =>
    (await get<GlobalSearchResult>(`${API_BASE}/search?q=${encodeURIComponent(q)}`)).data.groups.find(
      (g) => g.kind === 'files',
    );
  const pageOf = async (q: string, fileId: number) =>
    (await search(q))?.items.find((hit) => hit.id === fileId)?.file?.page ?? null;

  it('a scanned PDF (images only) is OCR-read and found by folded words on the right page', async () => {
    const scan = await upload('صحيفة الدعوى.pdf', PDF, (await fixtures()).scanPdf);
    expect((await textOf(scan)).data.state).toBe('queued');
    await t.app.jobs.drain();
    const { data } = await textOf(scan);
    expect([data.state, data.pages.length, data.progress]).toEqual(['ocr', 2, { done: 2, total: 2 }]);
    expect(data.confidence).toBeGreaterThan(50);
    expect(data.pages[1]!.text).toContain('المحكمة');
    // Hamza written or left out, ta marbuta as heh: the same page.
    expect(await pageOf('الايجار', scan.fileId)).toBe(2);
    expect(await pageOf('المحكمه الإبتدائيه', scan.fileId)).toBe(2);
    expect(await pageOf('lease agreement', scan.fileId)).toBe(1);
    const hit = (await search('الايجار'))!.items.find((h) => h.id === scan.fileId)!;
    expect(hit.file).toMatchObject({ entity: 'attachments', ownerId: scan.id, mimeType: PDF });
    expect(hit.file!.snippet).toContain('الإيجار');
  });

  it('an image is OCR-read; a text PDF keeps its English text and reads its Arabic page by OCR', async () => {
    const png = await upload('صفحة.png', PNG, (await fixtures()).pagePng);
    const pdf = await upload('عقد.pdf', PDF, (await fixtures()).textPdf);
    await t.app.jobs.drain();
    const image = (await textOf(png)).data;
    expect([image.state, image.pages.length]).toEqual(['ocr', 1]);
    expect(image.pages[0]!.text).toContain('الإيجار');
    const text = (await textOf(pdf)).data;
    expect(text.state).toBe('ocr');
    expect(text.pages[0]!.text).toContain('Lease agreement of the flat in Giza');
    expect(text.pages[1]!.text).toContain('الإيجار');
    expect(await pageOf('lease agreement', pdf.fileId)).toBe(1);
    expect(await pageOf('بالايجار فسخ', pdf.fileId)).toBe(null);
    expect(await pageOf('فسخ الايجار', pdf.fileId)).toBe(2);
  });

  it('a DOCX is read from its XML, page by page; a corrupt PDF fails with the reason and is kept', async () => {
    const docx = await upload('مذكرة.docx', DOCX, (await fixtures()).docx);
    const corrupt = await upload(
      'تالف.pdf',
      PDF,
      Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage\n'),
    );
    await t.app.jobs.drain();
    const word = (await textOf(docx)).data;
    expect([word.state, word.confidence, word.pages]).toEqual([
      'extracted',
      null,
      [
        { page: 1, text: 'مذكرة بدفاع المدعى عليه' },
        { page: 2, text: 'نلتمس رفض الدعوى وإلزام المدعي المصروفات' },
      ],
    ]);
    expect(await pageOf('والزام المدعي', docx.fileId)).toBe(2);
    const broken = (await textOf(corrupt)).data;
    expect([broken.state, broken.pages]).toEqual(['failed', []]);
    expect(broken.error).toMatch(/PDF/);
    const download = await fetch(`${base}${API_BASE}/files/${corrupt.fileId}`, { headers: admin.headers });
    expect(download.status).toBe(200);
  });

  it('the text and the content search follow the file’s read permission', async () => {
    const scan = (await search('الايجار'))!.items[0]!;
    const file = await t.app.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', scan.id)
      .executeTakeFirstOrThrow();
    const outsider = await createUserWith(t.app, admin.headers, ['customers.view']);
    const other = await t.login(outsider.email, outsider.password);
    const refused = await get(
      `${API_BASE}/files/text?entity=attachments&id=${Number(file.owner_id)}&fileId=${scan.id}`,
      other.headers,
    );
    expect(refused.status).toBe(403);
    const found = await get<GlobalSearchResult>(
      `${API_BASE}/search?q=${encodeURIComponent('الايجار')}`,
      other.headers,
    );
    expect(found.data.groups.map((g) => g.kind)).not.toContain('files');
    const wrongOwner = await get(
      `${API_BASE}/files/text?entity=attachments&id=${lawsuit + 999}&fileId=${scan.id}`,
    );
    expect(wrongOwner.status).toBe(404);
    const bad = await get(`${API_BASE}/files/text?entity=attachments&id=x&fileId=${scan.id}`);
    expect(bad.status).toBe(422);
  });

  it('a new version keeps the earlier one; search reads the current one; an earlier one is made current again', async () => {
    const first = await upload('نسخة.docx', DOCX, (await fixtures()).docx);
    await t.app.jobs.drain();
    expect(await pageOf('نلتمس رفض', first.fileId)).toBe(2);
    const form = new FormData();
    form.append('file', new Blob([(await fixtures()).pagePng], { type: PNG }), 'نسخة ممسوحة.png');
    const res = await fetch(`${base}${API_BASE}/files/${first.fileId}/versions`, {
      method: 'POST',
      headers: admin.headers,
      body: form,
    });
    expect(res.status).toBe(201);
    const versions = (
      (await res.json()) as { data: { items: { id: number; current: boolean; originalName: string }[] } }
    ).data.items;
    expect(versions.map((v) => [v.current, v.originalName])).toEqual([
      [true, 'نسخة ممسوحة.png'],
      [false, 'نسخة.docx'],
    ]);
    await t.app.jobs.drain();
    expect(await pageOf('نلتمس رفض', first.fileId)).toBe(null);
    expect(await pageOf('الايجار', first.fileId)).toBe(1);
    // The earlier version downloads as it was.
    const old = await fetch(`${base}${API_BASE}/files/${versions[1]!.id}`, { headers: admin.headers });
    expect(Buffer.from(await old.arrayBuffer()).equals((await fixtures()).docx)).toBe(true);
    // A type the field refuses is 415 and changes nothing.
    const refused = new FormData();
    refused.append('file', new Blob([Buffer.from('MZ' + '\0'.repeat(300))], { type: PDF }), 'x.pdf');
    const bad = await fetch(`${base}${API_BASE}/files/${first.fileId}/versions`, {
      method: 'POST',
      headers: admin.headers,
      body: refused,
    });
    expect(bad.status).toBe(415);
    const restored = await fetch(
      `${base}${API_BASE}/files/${first.fileId}/versions/${versions[1]!.id}/restore`,
      {
        method: 'POST',
        headers: admin.headers,
      },
    );
    expect(restored.status).toBe(200);
    const after = (
      (await restored.json()) as { data: { items: { current: boolean; originalName: string }[] } }
    ).data.items;
    expect(after.map((v) => [v.current, v.originalName])).toEqual([
      [true, 'نسخة.docx'],
      [false, 'نسخة ممسوحة.png'],
    ]);
    await t.app.jobs.drain();
    expect(await pageOf('نلتمس رفض', first.fileId)).toBe(2);
  });
});
