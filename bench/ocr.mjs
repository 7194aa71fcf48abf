// `node bench/ocr.mjs`: OCR pages per minute on this machine, through the built server's own
// extraction (server/dist/filetext/extract.js: pdftoppm at 300 dpi, then tesseract -l ara+eng, one
// page at a time, niced, one thread, as the background job runs it). The scan is made here: an
// Arabic document of BENCH_OCR_PAGES pages (default 6) rendered by LibreOffice, its pages
// rasterised by pdftoppm and wrapped again by LibreOffice into a PDF of images only. Needs
// soffice, poppler and tesseract with Arabic data; prints the figure and writes it to
// bench/results/ocr-<date>.json. Not a test: a figure to compare between machines and versions.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'server', 'package.json'));
const { extractText } = require(path.join(root, 'server', 'dist', 'filetext', 'extract.js'));
const { makeArabicScan } = require(path.join(root, 'server', 'dist', 'filetext', 'testing.js'));
const PAGES = Number(process.env.BENCH_OCR_PAGES ?? 6);

const LINES = [
  'بسم الله الرحمن الرحيم',
  'مذكرة بدفاع المدعى عليه في الدعوى رقم ١٢٣٤ لسنة ٢٠٢٦ مدني كلي',
  'المقدمة إلى محكمة الجيزة الابتدائية، الدائرة السابعة',
  'أولًا: الوقائع. أقام المدعي دعواه بطلب فسخ عقد الإيجار المؤرخ في الأول من يناير',
  'ثانيًا: الدفاع. ندفع بعدم قبول الدعوى لرفعها قبل الأوان، وبسقوط الحق في المطالبة',
  'لذلك نلتمس الحكم برفض الدعوى وإلزام المدعي المصروفات ومقابل أتعاب المحاماة',
];

const dir = mkdtempSync(path.join(os.tmpdir(), 'mizan-bench-ocr-'));
try {
  const { scanPdf } = await makeArabicScan(
    dir,
    Array.from({ length: PAGES }, (_, i) => [`صفحة ${i + 1}`, ...LINES]),
    { fontPt: 18, dpi: 200 },
  );
  const work = path.join(dir, 'work');
  mkdirSync(work);
  let read = 0;
  let confidence = 0;
  const started = process.hrtime.bigint();
  await extractText(
    scanPdf,
    'application/pdf',
    work,
    { maxPages: PAGES, secondsPerPage: 300 },
    {
      total: async () => undefined,
      page: async (page) => {
        read += 1;
        confidence += page.confidence ?? 0;
      },
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const result = {
    date: new Date().toISOString(),
    cpus: os.cpus().length,
    pages: read,
    seconds: Math.round(seconds * 10) / 10,
    pagesPerMinute: Math.round((read / seconds) * 60 * 10) / 10,
    meanConfidence: Math.round((confidence / Math.max(1, read)) * 10) / 10,
  };
  console.log(`OCR (ara+eng, 300 dpi, one page at a time): ${result.pagesPerMinute} pages/min`, result);
  const out = path.join(root, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    path.join(out, `ocr-${result.date.slice(0, 10)}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
