import fs from 'node:fs';
import path from 'node:path';
import { foldArabic } from '@mizan/contracts';
import { loadExcel } from '../files/excel';
import type JSZip from 'jszip';
import { SaxesParser } from 'saxes';
import { ToolFailedError, ToolMissingError, findTool, runTool } from '../tools';

/**
 * Reading the text of one stored file, page by page, from a local copy. Everything heavy runs in
 * child processes at low priority through `runTool` (pdfinfo, pdftotext, pdftoppm, tesseract),
 * one page at a time, each within `secondsPerPage`; DOCX and XLSX are read from their XML here
 * (jszip, the zip reader exceljs already brings, and saxes), within a size limit.
 */

export interface ExtractLimits {
  /** Pages read at most (a longer file is read up to there). */
  maxPages: number;
  /** Time limit of each tool run on one page. */
  secondsPerPage: number;
}

export interface PageText {
  page: number;
  text: string;
  /** Mean word confidence (0-100) when the page was read by OCR, else null. */
  confidence: number | null;
}

/** The file cannot be read (a corrupt PDF or image): its text state is `failed` with this reason. */
export class UnreadableFileError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableFileError';
  }
}

/** A page needs OCR and tesseract is not installed: the text state is `unavailable`. */
export class OcrUnavailableError extends Error {
  constructor(readonly missing: ToolMissingError) {
    super(missing.message);
    this.name = 'OcrUnavailableError';
  }
}

export interface ExtractSink {
  /** How many pages will be read (once known). */
  total(pages: number): Promise<void>;
  /** One page read. */
  page(page: PageText): Promise<void>;
  signal?: AbortSignal;
}

/** A page whose own text folds to fewer letters than this is a scan: it is read by OCR. */
export const MIN_TEXT_LETTERS = 16;

/** Largest uncompressed XML read from a DOCX or XLSX (a zip bomb stops here). */
const MAX_XML_BYTES = 50 * 1024 * 1024;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const IMAGES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/tiff', 'image/gif']);

/** Whether a type has text this reads. */
export const hasText = (mimeType: string): boolean =>
  mimeType === 'application/pdf' || mimeType === DOCX || mimeType === XLSX || IMAGES.has(mimeType);

const ARABIC = /[\u0600-\u06ff]/;

/**
 * A text layer's lam-alef ligature after the article, split in visual order (`اإل`, `اال`), put
 * back (`الإ`, `الا`): two alefs in a row never occur in Arabic words, so this changes nothing else.
 *
 * @example repairLamAlef('قضية اإليجار') // 'قضية الإيجار'
 */
export const repairLamAlef = (text: string): string => text.replace(/ا([اأإآ])ل/g, 'ال$1');

const letters = (text: string) => foldArabic(text).replace(/\s/g, '').length;

/** Reads `file` (of type `mimeType`) into `sink`, page by page, in `work` (a temp folder of this run). */
export async function extractText(
  file: string,
  mimeType: string,
  work: string,
  limits: ExtractLimits,
  sink: ExtractSink,
): Promise<void> {
  if (mimeType === 'application/pdf') return extractPdf(file, work, limits, sink);
  if (IMAGES.has(mimeType)) {
    await sink.total(1);
    await sink.page({ page: 1, ...(await ocr(file, work, limits, 'image')) });
    return;
  }
  if (mimeType === DOCX) return emitPages(await docxPages(file), limits, sink);
  if (mimeType === XLSX) return emitPages(await xlsxPages(file), limits, sink);
}

async function emitPages(pages: string[], limits: ExtractLimits, sink: ExtractSink): Promise<void> {
  const kept = pages.slice(0, limits.maxPages);
  await sink.total(kept.length);
  for (const [i, text] of kept.entries()) await sink.page({ page: i + 1, text, confidence: null });
}

const timeout = (limits: ExtractLimits) => limits.secondsPerPage * 1000;

/** What a poppler tool said about a file it could not read, as the reason shown. */
function unreadable(error: unknown, what: string): never {
  if (error instanceof ToolFailedError && error.reason === 'exit')
    throw new UnreadableFileError(`${what}: ${error.message.replace(/^[a-z]+ failed \(exit\): /, '')}`);
  throw error;
}

async function extractPdf(
  file: string,
  work: string,
  limits: ExtractLimits,
  sink: ExtractSink,
): Promise<void> {
  const info = await runTool('pdfinfo', [file], { timeoutMs: timeout(limits) }).catch((e: unknown) =>
    unreadable(e, 'not a readable PDF'),
  );
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout.toString('utf8'))?.[1] ?? NaN);
  if (!Number.isInteger(pages)) throw new UnreadableFileError('not a readable PDF: no page count');
  const count = Math.min(pages, limits.maxPages);
  await sink.total(count);
  for (let page = 1; page <= count; page++) {
    if (sink.signal?.aborted) throw new Error('stopped');
    const own = await runTool('pdftotext', ['-f', `${page}`, '-l', `${page}`, '-enc', 'UTF-8', file, '-'], {
      timeoutMs: timeout(limits),
    }).catch((e: unknown) => unreadable(e, `page ${page} not readable`));
    const text = own.stdout.toString('utf8');
    // A page with its own text keeps it, unless that text is Arabic: text layers split the lam-alef
    // ligature in visual order (`الإيجار` read as `اإليجار`), OCR tools' layers reverse whole words,
    // so an Arabic page is read by tesseract (logical order) when it is installed, its own text
    // repaired where unambiguous otherwise. A scan (no text, or a few stray letters) is read by OCR.
    const arabic = ARABIC.test(text);
    if (letters(text) >= MIN_TEXT_LETTERS && (!arabic || !findTool('tesseract'))) {
      const kept = text.replace(/\f/g, '').trim();
      await sink.page({ page, text: arabic ? repairLamAlef(kept) : kept, confidence: null });
      continue;
    }
    const image = path.join(work, `page-${page}`);
    await runTool(
      'pdftoppm',
      ['-f', `${page}`, '-l', `${page}`, '-r', '300', '-gray', '-png', '-singlefile', file, image],
      { timeoutMs: timeout(limits) },
    ).catch((e: unknown) => unreadable(e, `page ${page} not rasterised`));
    try {
      await sink.page({ page, ...(await ocr(`${image}.png`, work, limits, `page ${page}`)) });
    } finally {
      fs.rmSync(`${image}.png`, { force: true });
    }
  }
}

/**
 * Tesseract's own text of an image (Arabic and English, in logical order) and its mean word
 * confidence, from one run writing both `txt` and `tsv`.
 */
async function ocr(
  image: string,
  work: string,
  limits: ExtractLimits,
  what: string,
): Promise<{ text: string; confidence: number | null }> {
  if (!findTool('tesseract')) throw new OcrUnavailableError(new ToolMissingError('tesseract'));
  const base = path.join(work, `ocr-${path.basename(image).replace(/\W/g, '_')}`);
  try {
    // One thread: the other core serves requests.
    await runTool('tesseract', [image, base, '-l', 'ara+eng', '--psm', '3', 'txt', 'tsv'], {
      timeoutMs: timeout(limits),
      env: { OMP_THREAD_LIMIT: '1' },
    });
  } catch (error) {
    unreadable(error, `${what} not readable as an image`);
  }
  const text = fs.readFileSync(`${base}.txt`, 'utf8').replace(/\f/g, '').trim();
  const words = fs
    .readFileSync(`${base}.tsv`, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .filter((cols) => cols[0] === '5' && Number(cols[10]) >= 0 && (cols[11] ?? '').trim() !== '')
    .map((cols) => Number(cols[10]));
  fs.rmSync(`${base}.txt`, { force: true });
  fs.rmSync(`${base}.tsv`, { force: true });
  const confidence = words.length ? words.reduce((a, b) => a + b, 0) / words.length : null;
  return { text, confidence: confidence === null ? null : Math.round(confidence * 10) / 10 };
}

/** An entry of a zip, as text, refused when it unpacks beyond `MAX_XML_BYTES`. */
async function zipText(zip: JSZip, name: string): Promise<string | null> {
  const entry = zip.file(name);
  if (!entry) return null;
  // jszip reads the declared size from the central directory; the stream check below stops a lie.
  const declared = (entry as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize;
  if (declared !== undefined && declared > MAX_XML_BYTES)
    throw new UnreadableFileError(`${name} unpacks to more than ${MAX_XML_BYTES / 1024 / 1024} MB`);
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    const stream = entry.nodeStream('nodebuffer');
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_XML_BYTES) {
        stream.removeAllListeners('data');
        reject(new UnreadableFileError(`${name} unpacks to more than ${MAX_XML_BYTES / 1024 / 1024} MB`));
      } else chunks.push(chunk);
    });
    stream.on('end', () => resolve());
    stream.on('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}

async function openZip(file: string): Promise<JSZip> {
  try {
    // jszip is loaded with the first office file read.
    const { default: JSZip } = await import('jszip');
    return await JSZip.loadAsync(fs.readFileSync(file));
  } catch (error) {
    throw new UnreadableFileError(`not a readable zip: ${(error as Error).message}`);
  }
}

/**
 * The text of a DOCX's body, split into pages where Word put a page break (typed, or where it
 * last laid a page out: `w:lastRenderedPageBreak`); paragraphs end in a new line.
 */
export async function docxPages(file: string): Promise<string[]> {
  const xml = await zipText(await openZip(file), 'word/document.xml');
  if (xml === null) throw new UnreadableFileError('not a Word document: word/document.xml is missing');
  const pages: string[] = [];
  let current = '';
  let inText = false;
  const parser = new SaxesParser({ position: false });
  const breakPage = () => {
    pages.push(current.trim());
    current = '';
  };
  parser.on('opentag', (tag) => {
    if (tag.name === 'w:t') inText = true;
    else if (tag.name === 'w:tab') current += '\t';
    else if (tag.name === 'w:br') {
      if (tag.attributes['w:type'] === 'page') breakPage();
      else current += '\n';
    } else if (tag.name === 'w:lastRenderedPageBreak') breakPage();
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'w:t') inText = false;
    else if (tag.name === 'w:p') current += '\n';
  });
  parser.on('text', (text) => {
    if (inText) current += text;
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    throw new UnreadableFileError(`word/document.xml is not well-formed: ${(error as Error).message}`);
  }
  pages.push(current.trim());
  // A break before any text (a leading rendered break) makes no empty first page.
  while (pages.length > 1 && pages[0] === '') pages.shift();
  return pages;
}

/** The text of an XLSX, one page per worksheet: its rows, cells apart by tabs (exceljs reads it). */
export async function xlsxPages(file: string): Promise<string[]> {
  await zipText(await openZip(file), 'xl/workbook.xml');
  const workbook = new (await loadExcel()).Workbook();
  try {
    await workbook.xlsx.readFile(file);
  } catch (error) {
    throw new UnreadableFileError(`not a readable workbook: ${(error as Error).message}`);
  }
  return workbook.worksheets.map((sheet) => {
    const lines: string[] = [sheet.name];
    sheet.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell((cell) => cells.push(cell.text));
      lines.push(cells.join('\t'));
    });
    return lines.join('\n');
  });
}
