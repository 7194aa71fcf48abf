import type ExcelJS from 'exceljs';

/**
 * exceljs, loaded the first time a spreadsheet is read or written: it takes longer to load than
 * any other library the server uses, and most processes never touch a spreadsheet.
 */
export async function loadExcel(): Promise<typeof ExcelJS> {
  return (await import('exceljs')).default;
}
