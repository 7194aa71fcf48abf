import Papa from 'papaparse';
import type { ExportDate } from '../dates/format';

/** One cell: text, a number (summable), or a date (a real date cell in XLSX, its text in CSV). */
export type ExportValue = string | number | ExportDate;

const isDate = (v: ExportValue): v is ExportDate => typeof v === 'object' && v !== null && v.kind === 'date';
const cellText = (v: ExportValue): string | number => (isDate(v) ? v.text : v);
/** Spreadsheet number formats of the seed's M/D/YYYY. */
const DATE_CELL_FORMAT = { date: 'm/d/yyyy', datetime: 'm/d/yyyy hh:mm' } as const;

/** A sheet ready to write: translated headers and one plain value per cell. */
export interface ExportSheet {
  /** Sheet and file base name (the entity's translated title). */
  title: string;
  headers: string[];
  rows: ExportValue[][];
  /** Right-to-left sheet view (Arabic). */
  rtl: boolean;
}

/** UTF-8 byte order mark: without it Excel reads a CSV as ANSI and Arabic turns into mojibake. */
export const BOM = '\uFEFF';

/**
 * Cells a spreadsheet would run as a formula (`=HYPERLINK(...)` typed into a name). Phone numbers
 * and negative numbers (`+966 ...`, `-5`) are left alone so they still read as written.
 */
const FORMULA = /^[=@\t\r]|^[+-](?![\d\s()]*$)/;

/** CSV text with a BOM and CRLF line ends, as Excel expects; formula-like cells are neutralised. */
export function toCsv(sheet: Pick<ExportSheet, 'headers' | 'rows'>): string {
  return (
    BOM +
    Papa.unparse(
      { fields: sheet.headers, data: sheet.rows.map((row) => row.map(cellText)) },
      { newline: '\r\n', escapeFormulae: FORMULA },
    )
  );
}

export function csvBlob(sheet: ExportSheet): Blob {
  return new Blob([toCsv(sheet)], { type: 'text/csv;charset=utf-8' });
}

/** XLSX workbook; exceljs is loaded on demand so it stays out of the main bundle. */
export async function xlsxBlob(sheet: ExportSheet): Promise<Blob> {
  const { Workbook } = await import('exceljs');
  const workbook = new Workbook();
  // Sheet names are limited to 31 characters and some punctuation.
  const worksheet = workbook.addWorksheet(sheet.title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1', {
    views: [{ rightToLeft: sheet.rtl, state: 'frozen', ySplit: 1 }],
  });
  worksheet.addRow(sheet.headers).font = { bold: true };
  for (const row of sheet.rows) {
    const added = worksheet.addRow(row.map((v) => (isDate(v) ? v.value : v)));
    row.forEach((v, index) => {
      if (isDate(v)) added.getCell(index + 1).numFmt = DATE_CELL_FORMAT[v.type];
    });
  }
  worksheet.columns.forEach((column, index) => {
    const longest = Math.max(
      sheet.headers[index]?.length ?? 0,
      ...sheet.rows.map((row) => {
        const v = row[index] ?? '';
        return isDate(v) ? DATE_CELL_FORMAT[v.type].length : String(v).length;
      }),
    );
    column.width = Math.min(Math.max(longest + 2, 10), 60);
  });
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

/** A file name safe on every OS: `<title>-<YYYY-MM-DD>.<ext>`. */
export function exportFileName(title: string, ext: 'csv' | 'xlsx', now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  const safe = title
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${safe || 'export'}-${day}.${ext}`;
}
