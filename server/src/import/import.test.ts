import ExcelJS from 'exceljs';
import FormData from 'form-data';
import { countRows } from '../test/fixtures';
import { createTestApp, type Session, type TestApp, splitDialects } from '../test/harness';
import { signInWith } from '../system/testing/users';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const STATIONS = '/api/admin/settings/places/policeStations';
const IMPORT = `${STATIONS}/import`;

function upload(content: Buffer | string, filename: string, type = 'text/csv') {
  const form = new FormData();
  form.append('file', Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), {
    filename,
    contentType: type,
  });
  return { payload: form.getBuffer(), headers: form.getHeaders() };
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('data');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.each(splitDialects())('police stations import on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const actor = { user: null };
    const e = (name: string) => t.app.entities.get(name);
    const africa = await e('continents').create(actor, { name: 'أفريقيا' });
    const egypt = await e('countries').create(actor, { name: 'مصر', continentId: africa.id });
    const sudan = await e('countries').create(actor, { name: 'السودان', continentId: africa.id });
    ids.cairo = (await e('governorates').create(actor, { name: 'القاهرة', countryId: egypt.id })).id;
    ids.giza = (await e('governorates').create(actor, { name: 'الجيزة', countryId: egypt.id })).id;
    // The same name in two countries: a reference by this name is ambiguous.
    await e('governorates').create(actor, { name: 'المنيا', countryId: egypt.id });
    await e('governorates').create(actor, { name: 'المنيا', countryId: sudan.id });
    await e('policeStations').create(actor, { name: 'قسم الأزبكية', governorateId: ids.cairo });
  });
  afterAll(() => t.close());

  const post = (
    file: { payload: Buffer; headers: Record<string, string> },
    query = '',
    session = admin,
    lang = 'ar',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `${IMPORT}${query}`,
      headers: { ...session.headers, ...file.headers, 'accept-language': lang },
      payload: file.payload,
    });
  const stationCount = () => countRows(t.app, 'police_stations');

  /** Good rows (2, 3), bad rows (4 name, 5 unknown governorate, 6 phone, 9 ambiguous), duplicates (7 in file, 8 existing). */
  const mixedCsv = () =>
    '\uFEFF' +
    [
      'اسم القسم أو المركز*,المحافظة,العنوان,الهاتف',
      'قسم عابدين,القاهرة,شارع الجمهورية,0223900000',
      `قسم الدقي,${ids.giza},,`,
      ',القاهرة,شارع,',
      'قسم الإسكندرية,الإسكندرية,,',
      'قسم الهرم,الجيزة,,abc',
      'قسم عابدين,القاهرة,,',
      'قسم الأزبكية,القاهرة,,',
      'قسم المنيا,المنيا,,',
    ].join('\r\n');

  it('previews a CSV with per-row errors and duplicates, writing nothing', async () => {
    const before = await stationCount();
    const res = await post(upload(mixedCsv(), 'stations.csv'), '?dryRun=1');
    expect(res.statusCode).toBe(200);
    const preview = res.json().data;
    expect(preview).toMatchObject({ total: 8, valid: 2, duplicates: 2 });
    expect(preview.errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`)).toEqual([
      '4:name',
      '5:governorateId',
      '6:phone',
      '9:governorateId',
    ]);
    expect(preview.errors[1].message).toContain('الإسكندرية');
    expect(preview.errors[3].message).toContain('أكثر من');
    expect(preview.duplicateRows.map((d: { row: number }) => d.row)).toEqual([7, 8]);
    expect(preview.duplicateRows[0].message).toContain('2');
    expect(preview.sample).toEqual([
      expect.objectContaining({
        row: 2,
        name: 'قسم عابدين',
        governorateId: ids.cairo,
        governorate: { id: ids.cairo, name: 'القاهرة' },
        phone: '0223900000',
      }),
      expect.objectContaining({ row: 3, name: 'قسم الدقي', governorateId: ids.giza }),
    ]);
    expect(await stationCount()).toBe(before);
  });

  it('previews what the commit will do: rows counted once, saved active, totals adding up', async () => {
    // Four rows: two good, one with two errors (no name, bad phone), one with one (unknown governorate).
    const csv = [
      'اسم القسم أو المركز*,المحافظة,الهاتف',
      'قسم شبرا,القاهرة,',
      'قسم بولاق,القاهرة,0223911111',
      ',القاهرة,abc',
      'قسم طنطا,الغربية,',
    ].join('\n');
    const res = await post(upload(csv, 'stations.csv'), '?dryRun=1', admin, 'en');
    expect(res.statusCode).toBe(200);
    const preview = res.json().data;
    expect(preview).toMatchObject({ total: 4, valid: 2, duplicates: 0, invalid: 2 });
    expect(preview.errors).toHaveLength(3);
    expect(preview.valid + preview.duplicates + preview.invalid).toBe(preview.total);
    // No status column: the commit stores the rows active, and the preview says so.
    expect(preview.sample.map((r: { name: string; status: boolean }) => [r.name, r.status])).toEqual([
      ['قسم شبرا', true],
      ['قسم بولاق', true],
    ]);

    const withStatus = `${csv.split('\n')[0]},الحالة\nقسم روض الفرج,القاهرة,,لا\nقسم الساحل,القاهرة,,\n`;
    const second = (await post(upload(withStatus, 'stations.csv'), '?dryRun=1')).json().data;
    expect(second).toMatchObject({ total: 2, valid: 2, invalid: 0 });
    expect(second.sample.map((r: { status: boolean }) => r.status)).toEqual([false, true]);
  });

  it('commits nothing when any row is invalid (422 with the rows)', async () => {
    const before = await stationCount();
    const published = t.published.length;
    const res = await post(upload(mixedCsv(), 'stations.csv'));
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toContain('4');
    expect(body.rejected.map((r: { row: number }) => r.row)).toEqual([4, 5, 6, 9]);
    expect(body.rejected[0].reasons[0]).toContain('اسم القسم أو المركز');
    expect(body.errors.rows[0]).toMatch(/^الصف 4: /);
    expect(await stationCount()).toBe(before);
    expect(t.published.length).toBe(published);
  });

  it('commits a valid CSV in one go: created, duplicates skipped, audited, one event', async () => {
    const before = await stationCount();
    const published = t.published.length;
    const csv = [
      'اسم القسم أو المركز*,المحافظة*,العنوان,الهاتف,الحالة',
      'قسم عابدين,القاهرة,شارع الجمهورية,0223900000,نعم',
      `قسم الدقي,${ids.giza},,,لا`,
      'قسم عابدين,القاهرة,,,',
      'قسم الأزبكية,القاهرة,,,',
    ].join('\n');
    const res = await post(upload(csv, 'stations.csv'));
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ created: 2, skipped: 2, rejected: [] });
    expect(await stationCount()).toBe(before + 2);

    const list = await t.app.inject({
      method: 'GET',
      url: `${STATIONS}?q=${encodeURIComponent('قسم الدقي')}`,
      headers: admin.headers,
    });
    expect(list.json().data.items[0]).toMatchObject({
      name: 'قسم الدقي',
      governorate: { id: ids.giza, name: 'الجيزة' },
      status: false,
    });
    const total = await t.app.inject({ method: 'GET', url: STATIONS, headers: admin.headers });
    expect(total.json().data.total).toBe(before + 2);

    const audit = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'policeStations')
      .where('action', '=', 'import')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit.every((a) => Number(a.employee_id) === admin.user.id)).toBe(true);
    expect(JSON.parse(String(audit[0]!.after)).name).toBe('قسم عابدين');

    const events = t.published.slice(published).filter((p) => p.channel === 'policeStations');
    expect(events).toEqual([
      {
        channel: 'policeStations',
        message: { type: 'event', channel: 'policeStations', action: 'create', data: { imported: 2 } },
      },
    ]);

    // The same file again: everything is a duplicate now.
    const again = await post(upload(csv, 'stations.csv'));
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ created: 0, skipped: 4 });
  });

  it('reads XLSX with English headers the same way', async () => {
    const before = await stationCount();
    const rows = [
      ['Name', 'Governorate', 'Address', 'Phone', 'Status'],
      ['Qasr El Nil station', 'القاهرة', 'Tahrir', '0225700000', 'yes'],
      ['Imbaba station', ids.giza, null, null, null],
      [null, 'الجيزة', null, null, null],
      ['Bad phone station', 'الجيزة', null, 'x', null],
      ['Qasr El Nil station', 'القاهرة', null, null, null],
      ['قسم الأزبكية', ids.cairo, null, null, null],
    ];
    const file = upload(await xlsx(rows), 'stations.xlsx', XLSX_TYPE);
    const preview = await post(file, '?dryRun=1', admin, 'en');
    expect(preview.statusCode).toBe(200);
    const data = preview.json().data;
    expect(data).toMatchObject({ total: 6, valid: 2, duplicates: 2 });
    expect(data.errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`)).toEqual([
      '4:name',
      '5:phone',
    ]);
    expect(data.errors[0].message).toContain('Name');

    const refused = await post(file, '', admin, 'en');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      'Nothing was imported: 2 rows are invalid. Correct them and try again',
    );
    expect(await stationCount()).toBe(before);

    const good = upload(await xlsx(rows.filter((_, i) => i !== 3 && i !== 4)), 'stations.xlsx', XLSX_TYPE);
    const res = await post(good, '', admin, 'en');
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ created: 2, skipped: 2 });
    expect(await stationCount()).toBe(before + 2);
  });

  it('answers 415 for anything but CSV or XLSX', async () => {
    const pdf = upload(Buffer.from('%PDF-1.7\n1 0 obj\n'), 'stations.pdf', 'application/pdf');
    expect((await post(pdf)).statusCode).toBe(415);
    const png = upload(Buffer.from('89504e470d0a1a0a0000000d4948445200', 'hex'), 'stations.csv', 'text/csv');
    expect((await post(png)).statusCode).toBe(415);
    const txt = upload('name\nx', 'notes.txt', 'text/plain');
    expect((await post(txt)).statusCode).toBe(415);
    const zip = upload(
      Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(100)]),
      'stations.xlsx',
      XLSX_TYPE,
    );
    const res = await post(zip);
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toContain('Excel');
    const json = await t.app.inject({
      method: 'POST',
      url: IMPORT,
      headers: admin.headers,
      payload: { rows: [] },
    });
    expect(json.statusCode).toBe(415);
  });

  it('answers 422 with a clear message for an empty, headerless or header-only file', async () => {
    const cases: [string, string][] = [
      ['', 'الملف فارغ'],
      ['\uFEFF \r\n \r\n', 'الملف فارغ'],
      ['قسم الموسكي,القاهرة\nقسم الزيتون,القاهرة', 'الصف الأول'],
      ['اسم القسم أو المركز,المحافظة\n', 'لا يحتوي الملف على صفوف'],
      ['اسم القسم أو المركز\nقسم الموسكي', 'المحافظة'],
    ];
    for (const [content, message] of cases) {
      const res = await post(upload(content, 'stations.csv'));
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toContain(message);
    }
    const emptyXlsx = upload(await xlsx([]), 'stations.xlsx', XLSX_TYPE);
    expect((await post(emptyXlsx)).statusCode).toBe(422);
    const noFile = new FormData();
    noFile.append('other', 'value');
    const res = await post({ payload: noFile.getBuffer(), headers: noFile.getHeaders() });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('يرجى اختيار ملف للاستيراد');
  });

  it('answers 413 above 50,000 rows (with the limit in the message) and above 10 MB', async () => {
    const before = await stationCount();
    const rows = ['name,governorateId'];
    for (let i = 0; i < 50_001; i++) rows.push(`s${i},${ids.cairo}`);
    const res = await post(upload(rows.join('\n'), 'big.csv'));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toContain('٥٠٬٠٠٠ صف على الأكثر');
    const huge = upload(Buffer.alloc(11 * 1024 * 1024, 'a'), 'huge.csv');
    const big = await post(huge);
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toContain('(١٠ ميجابايت)');
    expect(await stationCount()).toBe(before);
  });

  it('serves templates with the translated headers; a filled CSV template imports', async () => {
    const csv = await t.app.inject({
      method: 'GET',
      url: `${IMPORT}/template?format=csv`,
      headers: admin.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('policeStations-template.csv');
    expect(csv.body).toBe('\uFEFFاسم القسم أو المركز*,المحافظة*,العنوان,الهاتف,الحالة\r\n');

    const filled = `${csv.body}قسم المعادي,القاهرة,كورنيش النيل,,نعم\r\n`;
    const res = await post(upload(filled, 'template.csv'));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.created).toBe(1);

    const x = await t.app.inject({
      method: 'GET',
      url: `${IMPORT}/template?format=xlsx`,
      headers: { ...admin.headers, 'accept-language': 'en' },
    });
    expect(x.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(x.rawPayload as unknown as ExcelJS.Buffer);
    expect((workbook.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Name*',
      'Governorate*',
      'Address',
      'Phone',
      'Status',
    ]);
    expect(workbook.worksheets[1]!.rowCount).toBe(6);

    const bad = await t.app.inject({
      method: 'GET',
      url: `${IMPORT}/template?format=pdf`,
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(422);
  });

  it('answers 400 for a garbled multipart body', async () => {
    const a = upload('name,governorateId\nx,1', 'a.csv');
    const b = upload('name,governorateId\nx,1', 'b.csv');
    const res = await t.app.inject({
      method: 'POST',
      url: IMPORT,
      headers: { ...admin.headers, ...a.headers },
      payload: b.payload,
    });
    expect(res.statusCode).toBe(400);
  });

  it('needs policeStations.import', async () => {
    const viewer = await signInWith(t, ['policeStations.view', 'policeStations.create']);
    expect((await post(upload(mixedCsv(), 'stations.csv'), '?dryRun=1', viewer)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `${IMPORT}/template`, headers: viewer.headers })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: IMPORT })).statusCode).toBe(401);
  });

  it('imports any importable definition: lawsuit cases with enum labels', async () => {
    const csv = [
      'حالة الدعوى,النتيجة,اللون',
      'محكوم لصالحنا,حكم لصالح الموكل,#16a34a',
      'متداولة,,',
      'خاسرة,lost,',
    ].join('\n');
    const file = upload(csv, 'cases.csv');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/settings/lawsuit/cases/import',
      headers: { ...admin.headers, ...file.headers },
      payload: file.payload,
    });
    expect(res.statusCode).toBe(201);
    const rows = await t.app.db
      .selectFrom('lawsuit_cases')
      .select(['name', 'outcome'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => `${r.name}:${r.outcome}`)).toEqual([
      'محكوم لصالحنا:won',
      'متداولة:ongoing',
      'خاسرة:lost',
    ]);
  });
});

describe.each(splitDialects())('import preview runs the commit’s checks (clients) on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const CLIENTS_IMPORT = '/api/admin/customers/import';
  const post = (csv: string, query = '') => {
    const file = upload(csv, 'clients.csv');
    return t.app.inject({
      method: 'POST',
      url: `${CLIENTS_IMPORT}${query}`,
      headers: { ...admin.headers, ...file.headers, 'accept-language': 'en' },
      payload: file.payload,
    });
  };
  const state = async () => ({
    rows: await countRows(t.app, 'customers'),
    audit: await countRows(t.app, 'audit_log', { entity: 'customers' }),
    counted: Number(
      (
        await t.app.db
          .selectFrom('entity_counts')
          .select('total')
          .where('entity', '=', 'customers')
          .executeTakeFirstOrThrow()
      ).total,
    ),
  });

  /**
   * Row 2 good; rows 3 (a company without its registration) and 5 (a national ID of 5 digits) pass
   * the file's own checks and are refused only by the clients module's hooks; row 4 has no name
   * (the file's own check).
   */
  const csv = [
    'name,kind,nationalId,commercialRegister',
    'عميل صحيح,person,29801010000001,',
    'شركة بلا سجل,company,,',
    ',person,29801010000002,',
    'رقم قومي قصير,person,12345,',
  ].join('\n');

  it('reports the rows the hooks refuse by spreadsheet row, as the commit does, writing nothing', async () => {
    const before = await state();
    const published = t.published.length;

    const res = await post(csv, '?dryRun=1');
    expect(res.statusCode).toBe(200);
    const preview = res.json().data;
    expect(preview).toMatchObject({ total: 4, valid: 1, invalid: 3, duplicates: 0 });
    expect(preview.errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`)).toEqual([
      '3:commercialRegister',
      '4:name',
      '5:nationalId',
    ]);
    expect(preview.errors[0].message).toBe(
      'Commercial registration is required for a client that is a company',
    );
    expect(preview.errors[2].message).toContain('14');
    expect(preview.sample.map((r: { row: number; name: string }) => `${r.row}:${r.name}`)).toEqual([
      '2:عميل صحيح',
    ]);

    // Nothing stays: no row, audit entry, maintained count or event.
    expect(await state()).toEqual(before);
    expect(t.published.slice(published).filter((p) => p.channel === 'customers')).toEqual([]);

    // The commit refuses the same rows, for the same reasons.
    const commit = await post(csv);
    expect(commit.statusCode).toBe(422);
    expect(commit.json().rowErrors).toEqual(preview.errors);
    expect(await state()).toEqual(before);
  });

  it('previews a file the commit accepts as valid, then the commit writes it', async () => {
    const good = [csv.split('\n')[0], 'شركة بسجل,company,,445566', 'عميل ثان,person,29801010000003,'].join(
      '\n',
    );
    const before = await state();
    const preview = (await post(good, '?dryRun=1')).json().data;
    expect(preview).toMatchObject({ total: 2, valid: 2, invalid: 0, errors: [] });
    expect(await state()).toEqual(before);
    const commit = await post(good);
    expect(commit.statusCode).toBe(201);
    expect(commit.json().data.created).toBe(2);
    expect(await state()).toEqual({
      rows: before.rows + 2,
      audit: before.audit + 2,
      counted: before.counted + 2,
    });
  });
});
