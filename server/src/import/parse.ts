import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { loadExcel } from '../files/excel';
import Papa from 'papaparse';
import { sniff } from '../files/sniff';

/** Limits of one import upload ("Bad input"). */
export const IMPORT_LIMITS = {
  /**
   * Largest accepted upload in bytes (413 above), below the office's upload limit when that is
   * higher: a spreadsheet is read whole in memory and parsed, so its bound is about that work.
   */
  maxFileBytes: 10 * 1024 * 1024,
  /** Most data rows in one file (413 above). */
  maxRows: 50_000,
} as const;

export type ImportFormat = 'csv' | 'xlsx';

/** A parsed sheet: the header cells and each data row with its spreadsheet row number. */
export interface ParsedSheet {
  headers: string[];
  rows: { row: number; cells: string[] }[];
}

/** Why a file cannot be read at all; the caller maps each kind to its status and message. */
export class ImportFileError extends Error {
  constructor(
    readonly kind: 'unsupported' | 'empty' | 'headerless' | 'noRows' | 'tooManyRows' | 'unreadable',
    detail?: string,
  ) {
    super(detail ?? kind);
  }
}

const CSV_MIME = new Set([
  'text/csv',
  'text/plain',
  'application/csv',
  'application/vnd.ms-excel',
  'text/x-csv',
]);
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Decides the format from the bytes, checked against the name and declared type: a spreadsheet is
 * a ZIP container, a CSV is valid UTF-8 text without NUL bytes. Anything else (a PDF, an image, an
 * old binary .xls, a text file that does not claim to be CSV) is unsupported.
 */
export function detectFormat(buffer: Buffer, filename: string, mimeType: string): ImportFormat {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  const mime = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  // The server's one sniffer names the container; the whole file is checked as UTF-8 below.
  if (sniff(buffer.subarray(0, 8)) === 'zip') {
    if (ext === 'xlsx' || mime === XLSX_MIME) return 'xlsx';
    throw new ImportFileError('unsupported');
  }
  const claimsCsv =
    ext === 'csv' || (ext !== 'xlsx' && CSV_MIME.has(mime) && ext !== 'txt' && ext !== 'json');
  if (!claimsCsv) throw new ImportFileError('unsupported');
  if (buffer.includes(0)) throw new ImportFileError('unsupported');
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    throw new ImportFileError('unsupported');
  }
  return 'csv';
}

const isBlankRow = (cells: string[]) => cells.every((c) => c.trim() === '');

function finish(headers: string[], rows: { row: number; cells: string[] }[]): ParsedSheet {
  if (headers.every((h) => h.trim() === '')) throw new ImportFileError('headerless');
  if (rows.length === 0) throw new ImportFileError('noRows');
  return { headers: headers.map((h) => h.trim()), rows };
}

/**
 * The separator of the header line: comma, semicolon (Excel in Arabic and European locales) or tab,
 * whichever appears most outside quotes; comma when none does.
 */
export function guessDelimiter(text: string): string {
  const header = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const unquoted = header.replace(/"(?:[^"]|"")*"/g, '');
  const counts = [',', ';', '\t'].map((d) => [d, unquoted.split(d).length - 1] as const);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ',';
}

/** Reads a UTF-8 CSV (with or without BOM; comma, semicolon or tab separated). */
export function parseCsv(buffer: Buffer, maxRows: number = IMPORT_LIMITS.maxRows): ParsedSheet {
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new ImportFileError('empty');
  const result = Papa.parse<string[]>(text, { skipEmptyLines: false, delimiter: guessDelimiter(text) });
  const lines = result.data;
  // The header is the first non-blank line; row numbers count every line as a spreadsheet would.
  const headerIndex = lines.findIndex((cells) => !isBlankRow(cells));
  const headers = lines[headerIndex] ?? [];
  const rows: { row: number; cells: string[] }[] = [];
  for (let i = headerIndex + 1; i < lines.length; i++) {
    const cells = lines[i] ?? [];
    if (isBlankRow(cells)) continue;
    if (rows.length === maxRows) throw new ImportFileError('tooManyRows');
    rows.push({ row: i + 1, cells });
  }
  return finish(headers, rows);
}

/** The text a person sees in a cell, whatever exceljs made of it. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return '';
    return '';
  }
  return String(value);
}

/**
 * Reads the first worksheet of an XLSX workbook as a stream of rows, stopping as soon as the row
 * limit is passed: a small compressed file can hold millions of cells, which must never all be
 * loaded at once.
 */
export async function parseXlsx(
  buffer: Buffer,
  maxRows: number = IMPORT_LIMITS.maxRows,
): Promise<ParsedSheet> {
  // Styles are read so that date cells come back as dates rather than day numbers.
  const reader = new (await loadExcel()).stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let headers: string[] | undefined;
  const rows: { row: number; cells: string[] }[] = [];
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      for await (const row of sheet) {
        // row.values is 1-based: index 0 is always empty.
        const values = (row.values as ExcelJS.CellValue[]).slice(1);
        const cells = Array.from({ length: values.length }, (_, i) => cellText(values[i] ?? null));
        if (isBlankRow(cells)) continue;
        if (!headers) {
          headers = cells;
          continue;
        }
        if (rows.length === maxRows) throw new ImportFileError('tooManyRows');
        rows.push({ row: row.number, cells });
      }
      break; // the first worksheet only
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError('unreadable');
  }
  if (!sawSheet || !headers) throw new ImportFileError('empty');
  return finish(headers, rows);
}

/** Detects and parses an uploaded file. */
export async function parseImportFile(
  buffer: Buffer,
  filename: string,
  mimeType: string,
  maxRows: number = IMPORT_LIMITS.maxRows,
): Promise<ParsedSheet & { format: ImportFormat }> {
  if (buffer.length === 0) throw new ImportFileError('empty');
  const format = detectFormat(buffer, filename, mimeType);
  const sheet = format === 'csv' ? parseCsv(buffer, maxRows) : await parseXlsxSteadily(buffer, maxRows);
  return { ...sheet, format };
}

/** What a spreadsheet read by exceljs's streaming reader may fail with when the reader misses a part. */
const MISSED_PART = new Set<ImportFileError['kind']>(['unreadable', 'empty', 'headerless', 'noRows']);

/**
 * `parseXlsx`, read again when it fails as a file missing a part would. exceljs's streaming reader
 * sometimes misses a part of a sound workbook (the workbook part or the sheet's rows): the same
 * buffer read 400 times failed once ("unreadable" or "no rows"), and an import test failed in CI
 * so. A file that really lacks them fails three times alike, which costs little: the buffer is in
 * memory and each read stops at the row limit.
 */
async function parseXlsxSteadily(buffer: Buffer, maxRows: number, tries = 3): Promise<ParsedSheet> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await parseXlsx(buffer, maxRows);
    } catch (error) {
      if (attempt >= tries || !(error instanceof ImportFileError) || !MISSED_PART.has(error.kind))
        throw error;
    }
  }
}
