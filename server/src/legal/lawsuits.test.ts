import FormData from 'form-data';
import { DEFAULT_TIME_ZONE, MONEY_MAX, NATIONAL_ID_LENGTH } from '@mizan/contracts';
import { setCounter } from '../db/counters';
import { officeToday } from '../engine/today';
import { countRows } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { signInWith } from '../system/testing/users';
import { FILE_NUMBERS } from './lawsuits';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(90_000);

const URL = '/api/admin/lawsuits';
// The office's year (its time zone, the default one here), as file numbers take it.
const YEAR = Number(officeToday(DEFAULT_TIME_ZONE).today.slice(0, 4));
let serial = 0;
const nationalId = () => `2850505${String(++serial).padStart(NATIONAL_ID_LENGTH - 7, '0')}`;

describe.each(dialects())('lawsuits on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const api = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    lang = 'en',
    session = admin,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...session.headers, 'accept-language': lang },
      ...(payload ? { payload } : {}),
    });
  const create = async (path: string, body: object) => {
    const res = await api('POST', `/api${path}`, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: number } & Record<string, unknown>;
  };
  const count = (table: string) => countRows(t.app, table);
  const ids = (res: { json(): { data: { items: { id: number }[] } } }) =>
    res
      .json()
      .data.items.map((r) => r.id)
      .sort((a, b) => a - b);

  const s: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    s.courtA = (await create('/admin/settings/courts/courts', { name: 'محكمة شمال القاهرة' })).id;
    s.courtB = (await create('/admin/settings/courts/courts', { name: 'محكمة الجيزة' })).id;
    s.circuitA = (
      await create('/admin/settings/courts/circuits', { name: 'الدائرة 5', number: 5, courtId: s.courtA })
    ).id;
    s.circuitB = (
      await create('/admin/settings/courts/circuits', { name: 'الدائرة 7', number: 7, courtId: s.courtB })
    ).id;
    s.judgeA = (
      await create('/admin/settings/courts/judges', { name: 'المستشار أحمد', circuitId: s.circuitA })
    ).id;
    s.judgeB = (
      await create('/admin/settings/courts/judges', { name: 'المستشار خالد', circuitId: s.circuitB })
    ).id;
    s.type = (await create('/admin/settings/lawsuit/types', { name: 'مدني' })).id;
    s.otherType = (await create('/admin/settings/lawsuit/types', { name: 'تجاري' })).id;
    s.ongoing = (await create('/admin/settings/lawsuit/cases', { name: 'متداولة', outcome: 'ongoing' })).id;
    s.won = (await create('/admin/settings/lawsuit/cases', { name: 'حكم نهائي لصالحنا', outcome: 'won' })).id;
    s.owner = (await create('/admin/settings/lawsuit/owners', { name: 'مدعٍ' })).id;
    s.branch = (await create('/admin/settings/offices/branches', { name: 'فرع المعادي' })).id;
    s.client = (await create('/admin/customers', { name: 'محمد علي حسن', nationalId: nationalId() })).id;
    s.client2 = (await create('/admin/customers', { name: 'سارة أحمد', nationalId: nationalId() })).id;
    s.opponent = (await create('/admin/lawsuits/opponents', { name: 'شركة الدلتا', kind: 'company' })).id;
    s.lawyer = admin.user.id;
  });
  afterAll(() => t.close());

  it('serves every route: create with a generated file number, get, list, PUT, PATCH, delete', async () => {
    const res = await api('POST', URL, {
      caseNumber: '١٢٣٤',
      caseYear: 2026,
      lawsuitTypeId: s.type,
      lawsuitCaseId: s.ongoing,
      courtId: s.courtA,
      circuitId: s.circuitA,
      judgeId: s.judgeA,
      branchId: s.branch,
      customerIds: [s.client],
      ownerTypeId: s.owner,
      opponentIds: [s.opponent],
      lawyerIds: [s.lawyer],
      subject: 'مطالبة بقيمة عقد توريد',
      claimAmount: 123450,
      agreedFee: 5000000,
      filingDate: '2026-01-15',
    });
    expect(res.statusCode).toBe(201);
    const row = res.json().data;
    expect(row).toMatchObject({
      fileNumber: expect.stringMatching(new RegExp(`^${YEAR}/\\d{4,}$`)),
      caseNumber: '1234',
      state: 'active',
      claimAmount: 123450,
      agreedFee: 5000000,
      customers: [{ id: s.client, name: 'محمد علي حسن' }],
      opponents: [{ id: s.opponent, name: 'شركة الدلتا' }],
      court: { id: s.courtA, name: 'محكمة شمال القاهرة' },
    });
    expect((await api('GET', `${URL}/${row.id}`)).json().data).toEqual(row);
    // The folded search finds it by its subject and by its file number.
    expect(ids(await api('GET', `${URL}?q=${encodeURIComponent('توريد')}`))).toEqual([row.id]);
    expect(ids(await api('GET', `${URL}?q=${encodeURIComponent(row.fileNumber)}`))).toEqual([row.id]);
    const put = await api('PUT', URL, { id: row.id, subject: 'مطالبة معدلة', updatedAt: row.updatedAt });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({ subject: 'مطالبة معدلة', fileNumber: row.fileNumber });
    const patch = await api('PATCH', `${URL}/${row.id}`, { fileNumber: `${YEAR}/9000-A` });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().data.fileNumber).toBe(`${YEAR}/9000-A`);
    expect((await api('DELETE', `${URL}/${row.id}`)).statusCode).toBe(200);
    expect((await api('GET', `${URL}/${row.id}`)).statusCode).toBe(404);
  });

  it('stores money exactly as minor units (BIGINT), up to the largest amount, and refuses fractions and negatives', async () => {
    const big = await api('POST', URL, { customerIds: [s.client], claimAmount: MONEY_MAX, agreedFee: 30 });
    expect(big.statusCode).toBe(201);
    expect(big.json().data).toMatchObject({ claimAmount: MONEY_MAX, agreedFee: 30 });
    const stored = await t.app.db
      .selectFrom('lawsuits')
      .select(['claim_amount', 'agreed_fee'])
      .where('id', '=', big.json().data.id)
      .executeTakeFirstOrThrow();
    expect([String(stored.claim_amount), String(stored.agreed_fee)]).toEqual([String(MONEY_MAX), '30']);
    const before = await count('lawsuits');
    const fraction = await api('POST', URL, { customerIds: [s.client], claimAmount: 10.5 });
    expect(fraction.statusCode).toBe(422);
    expect(fraction.json().errors).toEqual({
      claimAmount: ['Claim amount must be an amount with at most two decimal places'],
    });
    const negative = await api('POST', URL, { customerIds: [s.client], agreedFee: -1 }, 'ar');
    expect(negative.statusCode).toBe(422);
    expect(negative.json().errors.agreedFee).toEqual(['يجب ألا تقل قيمة «الأتعاب المتفق عليها» عن ٠']);
    const tooBig = await api('POST', URL, { customerIds: [s.client], claimAmount: MONEY_MAX + 1 });
    expect(Object.keys(tooBig.json().errors)).toEqual(['claimAmount']);
    expect(await count('lawsuits')).toBe(before);
  });

  it('generates per-year file numbers: distinct under concurrent creates, after the largest one typed, a typed one kept, a duplicate 409', async () => {
    const [a, b, c] = await Promise.all(
      [0, 1, 2].map(() => api('POST', URL, { customerIds: [s.client] }).then((r) => r.json().data)),
    );
    const numbers = [a.fileNumber, b.fileNumber, c.fileNumber];
    expect(new Set(numbers).size).toBe(3);
    for (const n of numbers) expect(n).toMatch(new RegExp(`^${YEAR}/\\d{4}$`));
    const seqs = numbers.map((n: string) => Number(n.split('/')[1])).sort((x, y) => x - y);
    expect(seqs[2]! - seqs[0]!).toBe(2);

    const typed = await api('POST', URL, { customerIds: [s.client], fileNumber: `${YEAR}/0420` });
    expect(typed.statusCode).toBe(201);
    expect(typed.json().data.fileNumber).toBe(`${YEAR}/0420`);
    const next = await api('POST', URL, { customerIds: [s.client] });
    expect(next.json().data.fileNumber).toBe(`${YEAR}/0421`);
    // Another year's and non-numeric numbers do not move this year's sequence.
    await api('POST', URL, { customerIds: [s.client], fileNumber: `${YEAR - 1}/5000` });
    await api('POST', URL, { customerIds: [s.client], fileNumber: `${YEAR}/99999-B` });
    expect((await api('POST', URL, { customerIds: [s.client] })).json().data.fileNumber).toBe(`${YEAR}/0422`);

    const before = await count('lawsuits');
    const dup = await api('POST', URL, { customerIds: [s.client], fileNumber: `${YEAR}/0420` });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors).toEqual({ fileNumber: ['This Office file number is already in use'] });
    expect(await count('lawsuits')).toBe(before);
    const blank = await api('PATCH', `${URL}/${typed.json().data.id}`, { fileNumber: '' });
    expect(blank.statusCode).toBe(422);
    expect(Object.keys(blank.json().errors)).toEqual(['fileNumber']);

    // A batch (createMany) numbers each row once.
    const batch = await t.app.entities
      .get('lawsuits')
      .createMany({ user: null }, [{ customerIds: [s.client] }, { customerIds: [s.client] }]);
    expect(batch.map((r) => r.fileNumber)).toEqual([`${YEAR}/0423`, `${YEAR}/0424`]);
  });

  it("keeps each year's file-number counter: a deleted lawsuit's number is not handed out again, numbers the counter missed are skipped", async () => {
    const number = async () =>
      (await api('POST', URL, { customerIds: [s.client] })).json().data as { id: number; fileNumber: string };
    const seq = (fileNumber: string) => Number(fileNumber.split('/')[1]);
    const last = await number();
    expect((await api('DELETE', `${URL}/${last.id}`)).statusCode).toBe(200);
    expect(seq((await number()).fileNumber)).toBe(seq(last.fileNumber) + 1);

    // Rows the counter never saw (a year begun before it, another release, a restore): the
    // counter set back finds its next number taken, and starts again after the largest.
    await setCounter(t.app.db, t.dialect, FILE_NUMBERS, YEAR, seq(last.fileNumber));
    expect(seq((await number()).fileNumber)).toBe(seq(last.fileNumber) + 2);
    // Changing a number by hand to one further on moves the counter past it too.
    const edited = await number();
    await api('PATCH', `${URL}/${edited.id}`, { fileNumber: `${YEAR}/7000` });
    expect((await number()).fileNumber).toBe(`${YEAR}/7001`);
  });

  it('keeps court, circuit and judge consistent: 422 on the field, translated, nothing stored', async () => {
    const before = await count('lawsuits');
    const circuit = await api('POST', URL, {
      customerIds: [s.client],
      courtId: s.courtA,
      circuitId: s.circuitB,
    });
    expect(circuit.statusCode).toBe(422);
    expect(circuit.json().errors).toEqual({
      circuitId: ["Judicial circuit is not one of the chosen court's circuits"],
    });
    const judge = await api(
      'POST',
      URL,
      { customerIds: [s.client], courtId: s.courtA, circuitId: s.circuitA, judgeId: s.judgeB },
      'ar',
    );
    expect(judge.statusCode).toBe(422);
    expect(judge.json().errors).toEqual({ judgeId: ['«القاضي» ليس من قضاة الدائرة القضائية المختارة'] });
    const noCourt = await api('POST', URL, { customerIds: [s.client], circuitId: s.circuitA });
    expect(Object.keys(noCourt.json().errors)).toEqual(['circuitId']);
    expect(await count('lawsuits')).toBe(before);

    const ok = await create('/admin/lawsuits', {
      customerIds: [s.client],
      courtId: s.courtA,
      circuitId: s.circuitA,
      judgeId: s.judgeA,
    });
    // Changing only the court leaves the circuit of the other court: refused on the circuit.
    const moved = await api('PATCH', `${URL}/${ok.id}`, { courtId: s.courtB });
    expect(moved.statusCode).toBe(422);
    expect(Object.keys(moved.json().errors)).toEqual(['circuitId']);
    const all = await api('PATCH', `${URL}/${ok.id}`, {
      courtId: s.courtB,
      circuitId: s.circuitB,
      judgeId: s.judgeB,
    });
    expect(all.statusCode).toBe(200);
    expect(all.json().data).toMatchObject({ courtId: s.courtB, circuitId: s.circuitB, judgeId: s.judgeB });
  });

  it('closes with the final case and reopens, each audited under its own name; state moves only by them', async () => {
    const row = await create('/admin/lawsuits', { customerIds: [s.client], lawsuitCaseId: s.ongoing });
    const noCase = await api('PATCH', `${URL}/${row.id}/close`, {});
    expect(noCase.statusCode).toBe(422);
    expect(noCase.json().errors).toEqual({ lawsuitCaseId: ['Lawsuit case is required'] });
    const missing = await api('PATCH', `${URL}/${row.id}/close`, { lawsuitCaseId: 999999 });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['lawsuitCaseId']);
    const byForm = await api('PATCH', `${URL}/${row.id}`, { state: 'completed' });
    expect(byForm.statusCode).toBe(422);
    expect(byForm.json().errors).toEqual({
      state: [
        '“Lawsuit status” is recorded by the system or by its own action, and cannot be sent from a form',
      ],
    });
    expect((await api('GET', `${URL}/${row.id}`)).json().data.state).toBe('active');

    const closed = await api('PATCH', `${URL}/${row.id}/close`, {
      lawsuitCaseId: String(s.won),
      updatedAt: row.updatedAt,
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data).toMatchObject({ state: 'completed', lawsuitCaseId: s.won });
    // A stale version is refused (409), as for every write.
    const stale = await api('PATCH', `${URL}/${row.id}/reopen`, { updatedAt: row.updatedAt });
    expect(stale.statusCode).toBe(409);
    const again = await api('PATCH', `${URL}/${row.id}/close`, { lawsuitCaseId: s.won });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This lawsuit is already closed');
    // A completed lawsuit keeps its final case.
    const cleared = await api('PATCH', `${URL}/${row.id}`, { lawsuitCaseId: null });
    expect(cleared.statusCode).toBe(422);
    expect(Object.keys(cleared.json().errors)).toEqual(['lawsuitCaseId']);

    const reopened = await api('PATCH', `${URL}/${row.id}/reopen`);
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().data).toMatchObject({ state: 'active', lawsuitCaseId: s.won });
    expect((await api('PATCH', `${URL}/${row.id}/reopen`, undefined, 'ar')).json().message).toBe(
      'هذه الدعوى غير مغلقة: لا يعاد فتح إلا الدعوى المغلقة',
    );
    const trail = await t.app.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('entity', '=', 'lawsuits')
      .where('entity_id', '=', row.id)
      .orderBy('id')
      .execute();
    expect(trail.map((e) => e.action)).toEqual(['create', 'close', 'reopen']);

    // Nor is a lawsuit created closed: it is closed by `close`, with its final case.
    const created = await api('POST', URL, { customerIds: [s.client], state: 'completed' });
    expect(created.statusCode).toBe(422);
    expect(Object.keys(created.json().errors)).toEqual(['state']);
  });

  it('starts a new lawsuit at the pending case, and closes only with a final one', async () => {
    const fresh = await api('POST', URL, { customerIds: [s.client] });
    expect(fresh.statusCode).toBe(201);
    // The office's first active case still pending ("متداولة" here): a new lawsuit is pending.
    expect(fresh.json().data.lawsuitCaseId).toBe(s.ongoing);
    const chosen = await api('POST', URL, { customerIds: [s.client], lawsuitCaseId: s.won });
    expect(chosen.json().data.lawsuitCaseId).toBe(s.won);
    const pending = await api(
      'PATCH',
      `${URL}/${fresh.json().data.id}/close`,
      { lawsuitCaseId: s.ongoing },
      'ar',
    );
    expect(pending.statusCode).toBe(422);
    expect(pending.json().errors.lawsuitCaseId[0]).toContain('ليست حالة ختامية');
    expect((await api('GET', `${URL}/${fresh.json().data.id}`)).json().data.state).toBe('active');
  });

  it('filters by client, opponent, court, lawyer, type, case, state, branch and filing-date range', async () => {
    const other = await create('/admin/lawsuits/opponents', { name: 'مؤسسة النور' });
    const a = await create('/admin/lawsuits', {
      customerIds: [s.client2],
      opponentIds: [other.id],
      lawyerIds: [s.lawyer],
      courtId: s.courtB,
      lawsuitTypeId: s.otherType,
      lawsuitCaseId: s.won,
      branchId: s.branch,
      filingDate: '2025-03-10',
    });
    const b = await create('/admin/lawsuits', {
      customerIds: [s.client2],
      opponentIds: [other.id],
      courtId: s.courtB,
      lawsuitTypeId: s.otherType,
      filingDate: '2025-03-20',
    });
    await api('PATCH', `${URL}/${b.id}/close`, { lawsuitCaseId: s.won });
    const q = (query: string) => api('GET', `${URL}?customerIds=${s.client2}&${query}`);
    expect(ids(await q(''))).toEqual([a.id, b.id]);
    expect(ids(await q(`opponentIds=${other.id}`))).toEqual([a.id, b.id]);
    expect(ids(await q(`courtId=${s.courtB}&lawyerIds=${s.lawyer}`))).toEqual([a.id]);
    expect(ids(await q(`lawsuitTypeId=${s.otherType}&lawsuitCaseId=${s.won}`))).toEqual([a.id, b.id]);
    expect(ids(await q('state=completed'))).toEqual([b.id]);
    expect(ids(await q('state=active'))).toEqual([a.id]);
    expect(ids(await q(`branchId=${s.branch}`))).toEqual([a.id]);
    expect(ids(await q('filedFrom=2025-03-10&filedTo=2025-03-19'))).toEqual([a.id]);
    expect(ids(await q('filedFrom=٢٠٢٥-٠٣-١١'))).toEqual([b.id]);
    expect(ids(await q('filedTo=2025-03-20'))).toEqual([a.id, b.id]);
    const list = (await q('filedFrom=2025-03-11')).json().data;
    expect(list.total).toBe(1);

    for (const bad of ['2025-02-30', '2025-3-1', 'yesterday']) {
      const res = await q(`filedFrom=${bad}`);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['filedFrom']);
    }
    expect((await q('filedTo=2025-13-01')).json().errors.filedTo).toEqual(['Filed to is not a valid date']);
    expect((await q('state=closed')).json().data.items).toEqual([]);
  });

  it("filters by a hearing within the next N days (the office's today included), and 422 on a bad N", async () => {
    // The office's day (its time zone, the default one here), as the engine counts it.
    const day = officeToday(DEFAULT_TIME_ZONE).daysFromToday;
    const client = await create('/admin/customers', { name: 'هالة منصور', nationalId: nationalId() });
    const soon = await create('/admin/lawsuits', { customerIds: [client.id] });
    const later = await create('/admin/lawsuits', { customerIds: [client.id] });
    const past = await create('/admin/lawsuits', { customerIds: [client.id] });
    await create('/admin/lawsuits', { customerIds: [client.id] });
    await create('/admin/lawsuits/sessions', { lawsuitId: soon.id, date: day(0) });
    await create('/admin/lawsuits/sessions', { lawsuitId: soon.id, date: day(3) });
    await create('/admin/lawsuits/sessions', { lawsuitId: later.id, date: day(7) });
    await create('/admin/lawsuits/sessions', { lawsuitId: past.id, date: day(-1) });
    const q = (n: string) => api('GET', `${URL}?customerIds=${client.id}&hearingWithinDays=${n}`);
    expect(ids(await q('0'))).toEqual([soon.id]);
    expect(ids(await q('6'))).toEqual([soon.id]);
    expect(ids(await q('٧'))).toEqual([soon.id, later.id]);
    // One row per lawsuit however many hearings match, and the total agrees.
    expect((await q('7')).json().data.total).toBe(2);
    for (const bad of ['-1', '367', 'soon', '1.5']) {
      const res = await q(bad);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['hearingWithinDays']);
    }
  });

  it('is not deleted while hearings, payments or attachments hold it: 409 naming them, nothing removed', async () => {
    const row = await create('/admin/lawsuits', {
      customerIds: [s.client],
      agreedFee: 100000,
      filingDate: '2026-01-01',
    });
    await create('/admin/lawsuits/sessions', { lawsuitId: row.id, date: '2026-02-01' });
    await create('/admin/lawsuits/sessions', { lawsuitId: row.id, date: '2026-03-01' });
    await create('/admin/lawsuits/payments', { lawsuitId: row.id, amount: 2500, paidOn: '2026-02-02' });
    const group = (await api('GET', `${URL}/attachments/groups`)).json().data.items[0].id;
    await create('/admin/lawsuits/attachments', { lawsuitId: row.id, groupId: group, title: 'صحيفة الدعوى' });
    const refused = await api('DELETE', `${URL}/${row.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().heldBy).toEqual(
      expect.arrayContaining([
        { entity: 'sessions', count: 2 },
        { entity: 'lawsuitPayments', count: 1 },
        { entity: 'attachments', count: 1 },
      ]),
    );
    expect(refused.json().message).toContain('Attachments: 1');
    const ar = (await api('DELETE', `${URL}/${row.id}`, undefined, 'ar')).json().message;
    expect(ar).toContain('جلسات الدعاوى: 2');
    expect(ar).toContain('المرفقات: 1');
    expect((await api('GET', `${URL}/${row.id}`)).statusCode).toBe(200);
  });

  it('imports amounts in major units exactly (1,234.50, Arabic-Indic digits, 0.29), a fraction of the smallest unit refused by row', async () => {
    const csv = (text: string) => {
      const form = new FormData();
      form.append('file', Buffer.from(text, 'utf8'), { filename: 'lawsuits.csv', contentType: 'text/csv' });
      return {
        payload: form.getBuffer(),
        headers: { ...admin.headers, 'accept-language': 'en', ...form.getHeaders() },
      };
    };
    const importCsv = (text: string) => t.app.inject({ method: 'POST', url: `${URL}/import`, ...csv(text) });
    const good = await importCsv(
      `customerIds,subject,claimAmount,agreedFee\n${s.client},استيراد أول,"1,234.50",١٬٢٣٤٫٥٠\n${s.client},استيراد ثان,0.29,19.99\n`,
    );
    expect(good.statusCode).toBe(201);
    expect(good.json().data.created).toBe(2);
    const rows = await t.app.db
      .selectFrom('lawsuits')
      .select(['claim_amount', 'agreed_fee', 'file_number'])
      .where('subject', 'in', ['استيراد أول', 'استيراد ثان'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [Number(r.claim_amount), Number(r.agreed_fee)])).toEqual([
      [123450, 123450],
      [29, 1999],
    ]);
    // Imported rows get generated file numbers too.
    for (const r of rows) expect(String(r.file_number)).toMatch(new RegExp(`^${YEAR}/\\d{4,}$`));

    const before = await count('lawsuits');
    const bad = await importCsv(`customerIds,claimAmount\n${s.client},1.005\n${s.client},-3\n`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().rowErrors).toEqual([
      {
        row: 2,
        field: 'claimAmount',
        message: 'Claim amount must be an amount with at most two decimal places',
      },
      { row: 3, field: 'claimAmount', message: 'Claim amount must be at least 0' },
    ]);
    expect(await count('lawsuits')).toBe(before);
  });

  it('needs lawsuits permissions: a reader lists, cannot create or close; 401 signed out', async () => {
    const reader = await signInWith(t, ['lawsuits.view']);
    expect((await api('GET', URL, undefined, 'en', reader)).statusCode).toBe(200);
    expect((await api('POST', URL, { customerIds: [s.client] }, 'en', reader)).statusCode).toBe(403);
    const row = await create('/admin/lawsuits', { customerIds: [s.client] });
    expect(
      (await api('PATCH', `${URL}/${row.id}/close`, { lawsuitCaseId: s.won }, 'en', reader)).statusCode,
    ).toBe(403);
    const closer = await signInWith(t, ['lawsuits.view', 'lawsuits.close']);
    expect(
      (await api('PATCH', `${URL}/${row.id}/close`, { lawsuitCaseId: s.won }, 'en', closer)).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });
});
