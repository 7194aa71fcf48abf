import { ValueType, Workbook } from 'exceljs';
import { exportFileName, toCsv, xlsxBlob } from './exportFile';

const readBytes = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.readAsArrayBuffer(blob);
  });

describe('export files', () => {
  it('writes CSV with a BOM, CRLF and quoting of commas, quotes and new lines', () => {
    const csv = toCsv({
      headers: ['الاسم', 'العنوان'],
      rows: [
        ['مكتب "الميزان"', 'الرياض، حي العليا, شارع 1'],
        ['سطر\nثان', 3],
      ],
    });
    expect(csv).toBe('\uFEFFالاسم,العنوان\r\n"مكتب ""الميزان""","الرياض، حي العليا, شارع 1"\r\n"سطر\nثان",3');
  });

  it('neutralises formula-like cells but keeps phone and negative numbers as written', () => {
    const csv = toCsv({
      headers: ['a'],
      rows: [['=HYPERLINK("http://x")'], ['@SUM(A1)'], ['+966 500 000 000'], ['-5'], ['-cmd']],
    });
    expect(csv.split('\r\n').slice(1)).toEqual([
      '"\'=HYPERLINK(""http://x"")"',
      '"\'@SUM(A1)"',
      '+966 500 000 000',
      '-5',
      '"\'-cmd"',
    ]);
  });

  it('writes an XLSX workbook with a right-to-left sheet, bold headers and numbers kept as numbers', async () => {
    const blob = await xlsxBlob({
      title: 'الدول',
      headers: ['الاسم', 'الرقم'],
      rows: [['مصر', 2]],
      rtl: true,
    });
    const workbook = new Workbook();
    await workbook.xlsx.load(await readBytes(blob));
    const sheet = workbook.getWorksheet('الدول')!;
    expect(sheet.views[0]?.rightToLeft).toBe(true);
    expect(sheet.getRow(1).values).toEqual([undefined, 'الاسم', 'الرقم']);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.getCell('B2').value).toBe(2);
  });

  it('writes dates as real date cells in XLSX and as the screen text in CSV', async () => {
    const day = {
      kind: 'date',
      type: 'date',
      value: new Date(Date.UTC(2024, 4, 1)),
      text: '٢٢ شوال ١٤٤٥ هـ (٥/١/٢٠٢٤)',
    } as const;
    const at = {
      kind: 'date',
      type: 'datetime',
      value: new Date(Date.UTC(2024, 4, 1, 9, 30)),
      text: 'x',
    } as const;
    const sheet = { title: 'Hearings', headers: ['Day', 'At'], rows: [[day, at]], rtl: false };
    expect(toCsv(sheet).split('\r\n')[1]).toBe('٢٢ شوال ١٤٤٥ هـ (٥/١/٢٠٢٤),x');
    const workbook = new Workbook();
    await workbook.xlsx.load(await readBytes(await xlsxBlob(sheet)));
    const cells = workbook.getWorksheet('Hearings')!.getRow(2);
    expect(cells.getCell(1).type).toBe(ValueType.Date);
    expect(cells.getCell(1).value).toEqual(new Date(Date.UTC(2024, 4, 1)));
    expect(cells.getCell(1).numFmt).toBe('m/d/yyyy');
    expect(cells.getCell(2).value).toEqual(new Date(Date.UTC(2024, 4, 1, 9, 30)));
    expect(cells.getCell(2).numFmt).toBe('m/d/yyyy hh:mm');
  });

  it('names files after the title and the day, without characters a file system refuses', () => {
    expect(exportFileName('أقسام/مراكز: الشرطة', 'csv', new Date('2024-05-01T10:00:00Z'))).toBe(
      'أقسام مراكز الشرطة-2024-05-01.csv',
    );
  });
});
