import ExcelJS from 'exceljs';
import { courts, lawsuitCases, policeStations, type Entity, type Fields } from '@mizan/contracts';
import { mapHeaders, normalise, splitList, toBoolean, toEnum, toNumber } from './mapping';
import { cellText, detectFormat, ImportFileError, parseCsv, parseImportFile } from './parse';

const kind = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ImportFileError) return error.kind;
    throw error;
  }
  return 'none';
};

describe('detectFormat', () => {
  it('judges by the bytes, checked against the name', () => {
    expect(detectFormat(Buffer.from('a,b\n1,2'), 'x.csv', 'text/csv')).toBe('csv');
    expect(detectFormat(Buffer.from('a,b\n1,2'), 'x.csv', 'application/octet-stream')).toBe('csv');
    expect(detectFormat(Buffer.from('a,b\n1,2'), 'x', 'text/csv')).toBe('csv');
    expect(detectFormat(Buffer.from('504b030400', 'hex'), 'x.xlsx', 'application/octet-stream')).toBe('xlsx');
    expect(kind(() => detectFormat(Buffer.from('504b030400', 'hex'), 'x.zip', 'application/zip'))).toBe(
      'unsupported',
    );
    expect(kind(() => detectFormat(Buffer.from('a,b'), 'x.txt', 'text/plain'))).toBe('unsupported');
    expect(kind(() => detectFormat(Buffer.from('a,b'), 'x.json', 'text/csv'))).toBe('unsupported');
    expect(kind(() => detectFormat(Buffer.from([0x61, 0x00, 0x62]), 'x.csv', 'text/csv'))).toBe(
      'unsupported',
    );
    // Windows-1256 Arabic is not UTF-8.
    expect(kind(() => detectFormat(Buffer.from([0xc7, 0xe1, 0xd1, 0x2c, 0x31]), 'x.csv', 'text/csv'))).toBe(
      'unsupported',
    );
    expect(
      kind(() => detectFormat(Buffer.from('d0cf11e0a1b11ae1', 'hex'), 'x.xls', 'application/vnd.ms-excel')),
    ).toBe('unsupported');
  });
});

describe('parseCsv', () => {
  it('reads BOM, CRLF, quotes, semicolons, and numbers rows as a spreadsheet does', () => {
    const sheet = parseCsv(
      Buffer.from('\uFEFFname;address\r\n\r\n"قسم ""أ""";"شارع 1; الدور 2"\r\nب;\r\n', 'utf8'),
    );
    expect(sheet.headers).toEqual(['name', 'address']);
    expect(sheet.rows).toEqual([
      { row: 3, cells: ['قسم "أ"', 'شارع 1; الدور 2'] },
      { row: 4, cells: ['ب', ''] },
    ]);
  });

  it('tells empty, header-only and too-long files apart', () => {
    expect(kind(() => parseCsv(Buffer.from('  \n\n')))).toBe('empty');
    expect(kind(() => parseCsv(Buffer.from('name,phone\n,\n')))).toBe('noRows');
    // A line of bare separators is blank: the next line is the header, and nothing follows it.
    expect(kind(() => parseCsv(Buffer.from(',,\nx,y')))).toBe('noRows');
    expect(parseCsv(Buffer.from('a\tb\n1\t2')).rows).toEqual([{ row: 2, cells: ['1', '2'] }]);
    expect(kind(() => parseCsv(Buffer.from('name\na\nb\nc'), 2))).toBe('tooManyRows');
    expect(kind(() => parseCsv(Buffer.from('name\na\nb'), 2))).toBe('none');
  });
});

describe('parseImportFile (xlsx)', () => {
  it('reads the first sheet with rich text, formulas, dates and numbers as text', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('s');
    sheet.addRow(['name', 'order', 'date']);
    sheet.addRow([
      { richText: [{ text: 'قسم ' }, { text: 'أ' }] },
      { formula: '1+1', result: 2 },
      new Date('2026-03-01T00:00:00Z'),
    ]);
    sheet.addRow([]);
    sheet.addRow(['ب', 3, null]);
    workbook.addWorksheet('ignored').addRow(['x']);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    const parsed = await parseImportFile(buffer, 'a.xlsx', '');
    expect(parsed.format).toBe('xlsx');
    expect(parsed.headers).toEqual(['name', 'order', 'date']);
    expect(parsed.rows).toEqual([
      { row: 2, cells: ['قسم أ', '2', '2026-03-01'] },
      { row: 4, cells: ['ب', '3'] },
    ]);
  });

  it('stops reading as soon as the row limit is passed', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('s');
    sheet.addRow(['name']);
    for (let i = 0; i < 5; i++) sheet.addRow([`r${i}`]);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    await expect(parseImportFile(buffer, 'a.xlsx', '', 4)).rejects.toMatchObject({ kind: 'tooManyRows' });
    expect((await parseImportFile(buffer, 'a.xlsx', '', 5)).rows).toHaveLength(5);
  });

  it('refuses a ZIP that is not a workbook and an empty workbook', async () => {
    await expect(
      parseImportFile(Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(50)]), 'a.xlsx', ''),
    ).rejects.toMatchObject({ kind: 'unreadable' });
    const empty = new ExcelJS.Workbook();
    empty.addWorksheet('s');
    await expect(
      parseImportFile(Buffer.from(await empty.xlsx.writeBuffer()), 'a.xlsx', ''),
    ).rejects.toMatchObject({ kind: 'empty' });
    await expect(parseImportFile(Buffer.alloc(0), 'a.csv', 'text/csv')).rejects.toMatchObject({
      kind: 'empty',
    });
  });

  it('turns cells into text whatever exceljs made of them', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(true)).toBe('true');
    expect(cellText({ text: 'link', hyperlink: 'https://x' })).toBe('link');
    expect(cellText({ error: '#N/A' } as ExcelJS.CellErrorValue)).toBe('');
    expect(cellText(new Date('2026-03-01T10:00:00Z'))).toBe('2026-03-01T10:00:00.000Z');
  });
});

describe('mapHeaders', () => {
  const stations = policeStations as unknown as Entity<Fields>;

  it('matches keys and Arabic or English labels, with stars, spacing and letter forms folded', () => {
    const map = mapHeaders(stations, [
      'اسم القسم او المركز*',
      ' Governorate ',
      'PHONE',
      'ملاحظات',
      'الهاتف',
      'الحالة',
    ]);
    expect(map.columns).toEqual(['name', 'governorateId', 'phone', null, null, 'status']);
    expect(map.ignored).toEqual(['ملاحظات', 'الهاتف']);
    expect(map.missing).toEqual([]);
  });

  it('names the required columns that are missing (a field with a default is not)', () => {
    expect(mapHeaders(stations, ['name']).missing).toEqual(['governorateId']);
    expect(mapHeaders(lawsuitCases as unknown as Entity<Fields>, ['name']).missing).toEqual([]);
    expect(mapHeaders(courts as unknown as Entity<Fields>, ['governorate']).columns).toEqual([
      'governorateId',
    ]);
  });
});

describe('cell conversions', () => {
  it('reads booleans, numbers (Arabic-Indic digits too), enum labels and lists', () => {
    expect([
      toBoolean('نعم'),
      toBoolean('No'),
      toBoolean('1'),
      toBoolean('غير نشط'),
      toBoolean('maybe'),
    ]).toEqual([true, false, true, false, 'maybe']);
    expect([toNumber('١٢'), toNumber('-3.5'), toNumber('12a')]).toEqual([12, -3.5, '12a']);
    const cases = lawsuitCases as unknown as Entity<Fields>;
    expect(toEnum(cases, 'outcome', ['ongoing', 'won', 'lost'], 'حكم لصالح الموكل')).toBe('won');
    expect(toEnum(cases, 'outcome', ['ongoing', 'won', 'lost'], 'LOST')).toBe('lost');
    expect(toEnum(cases, 'outcome', ['ongoing', 'won', 'lost'], 'تعادل')).toBe('تعادل');
    expect(splitList('أ; ب|ج، د ;')).toEqual(['أ', 'ب', 'ج', 'د']);
    expect(normalise('  إسم_القسمة  ')).toBe('اسم القسمه');
  });
});
