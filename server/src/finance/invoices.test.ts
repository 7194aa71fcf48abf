import {
  API_BASE,
  feeInstalments,
  invoiceLines,
  invoices,
  payments,
  readZatcaTlv,
  retainerMovements,
  timeEntries,
  type CustomerStatement,
  FINANCE_REPORT_ROUTES,
  FINANCE_ROUTES,
  SYSTEM_SETTINGS_ROUTES,
} from '@mizan/contracts';
import { countRows, createRow, entityUrl } from '../test/fixtures';
import { createTestApp, splitDialects, type Session, type TestApp } from '../test/harness';

type Row = Record<string, unknown> & { id: number; updatedAt: string };

const invoicesUrl = entityUrl(invoices);
const linesUrl = entityUrl(invoiceLines);
const paymentsUrl = entityUrl(payments);
const retainerUrl = entityUrl(retainerMovements);
const route = (path: string, id: number) => API_BASE + path.replace(':id', String(id));

describe.each(splitDialects())('invoices, payments and the retainer on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let now = new Date('2026-03-10T08:00:00Z');

  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const post = (url: string, payload: unknown = {}) =>
    t.app.inject({ method: 'POST', url, headers: h(), payload: payload as object });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: h() });
  const ok = async (res: Awaited<ReturnType<typeof post>>, status = 200) => {
    expect([res.statusCode, res.json().errors ?? res.json().message]).toEqual([status, undefined]);
    return res.json().data as Row;
  };
  const settings = async (values: Record<string, unknown>) =>
    ok(
      await t.app.inject({
        method: 'PUT',
        url: API_BASE + SYSTEM_SETTINGS_ROUTES.get.path,
        headers: h(),
        payload: values,
      }),
    );
  const newClient = async () => (await createRow(t.app, admin.headers, 'customers')).id;
  const newLawsuit = async (customerId: number) =>
    (await ok(await post(entityUrl('lawsuits'), { customerIds: [customerId] }), 201)).id;
  const draft = async (customerId: number, lines: Record<string, unknown>[] = []) => {
    const invoice = await ok(await post(invoicesUrl, { customerId }), 201);
    for (const line of lines) await ok(await post(linesUrl, { invoiceId: invoice.id, ...line }), 201);
    return (await ok(await get(`${invoicesUrl}/${invoice.id}`))) as Row;
  };
  const issue = (id: number) => post(`${invoicesUrl}/${id}/issue`);
  const issued = async (customerId: number, unitPrice = 10_000) => {
    const invoice = await draft(customerId, [{ description: 'Consultation', unitPrice }]);
    return ok(await issue(invoice.id));
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => now } });
    admin = await t.login();
    await settings({ officeCountry: 'SA', officeName: 'مكتب ميزان', vatNumber: '310122393500003' });
  });
  afterAll(() => t.close());

  it('totals a draft from its lines at the office VAT rate, rounded per line or per invoice', async () => {
    const client = await newClient();
    const lines = [{ unitPrice: 10 }, { unitPrice: 10 }, { unitPrice: 10 }].map((l, i) => ({
      description: `line ${i}`,
      ...l,
    }));
    const perLine = await draft(client, lines);
    expect(perLine).toMatchObject({
      state: 'draft',
      number: null,
      subtotal: 30,
      vatTotal: 6,
      total: 36,
      currency: 'SAR',
    });
    await settings({ vatRounding: 'invoice' });
    const perInvoice = await draft(client, lines);
    expect(perInvoice).toMatchObject({ subtotal: 30, vatTotal: 5, total: 35 });
    await settings({ vatRounding: 'line' });

    const discounted = await draft(client, [
      { description: 'Fee', quantity: 2, unitPrice: 50_000, discount: 10_000 },
      { description: 'Court fee', unitPrice: 2_500, vatExempt: true },
    ]);
    expect(discounted).toMatchObject({
      gross: 102_500,
      discount: 10_000,
      subtotal: 92_500,
      vatTotal: 13_500,
      total: 106_000,
      due: 106_000,
    });
    const rows = (await get(`${linesUrl}?invoiceId=${discounted.id}&sort=order:asc`)).json().data
      .items as Row[];
    expect(rows.map((r) => [r.net, r.vat, r.total])).toEqual([
      [90_000, 13_500, 103_500],
      [2_500, 0, 2_500],
    ]);
  });

  it.each([
    ['a negative unit price', { unitPrice: -1 }, 'unitPrice'],
    ['a discount above the line', { unitPrice: 100, discount: 101 }, 'discount'],
    ['no description', { unitPrice: 100, description: '' }, 'description'],
    ['a zero quantity', { unitPrice: 100, quantity: 0 }, 'quantity'],
  ])('a line with %s is 422 on that field, nothing stored', async (_what, payload, field) => {
    const invoice = await draft(await newClient());
    const before = await countRows(t.app, invoiceLines.table);
    const res = await post(linesUrl, { invoiceId: invoice.id, description: 'x', ...payload });
    expect([res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([422, [field]]);
    expect(await countRows(t.app, invoiceLines.table)).toBe(before);
  });

  it('issues once: numbered, frozen, never edited or deleted; an empty one is refused', async () => {
    const client = await newClient();
    const empty = await draft(client);
    const refused = await issue(empty.id);
    expect([refused.statusCode, Object.keys(refused.json().errors)]).toEqual([422, ['total']]);
    expect((await get(`${invoicesUrl}/${empty.id}`)).json().data.state).toBe('draft');

    const invoice = await issued(client);
    expect(invoice).toMatchObject({
      state: 'issued',
      number: expect.stringMatching(/^INV-2026-\d{6}$/),
      issueDate: '2026-03-10',
      vatRate: 1500,
      total: 11_500,
      due: 11_500,
    });
    expect((await issue(invoice.id)).statusCode).toBe(409);
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `${invoicesUrl}/${invoice.id}`,
      headers: h(),
      payload: { notes: 'changed' },
    });
    expect(edit.statusCode).toBe(409);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${invoicesUrl}/${invoice.id}`, headers: h() }))
        .statusCode,
    ).toBe(409);
    const [line] = (await get(`${linesUrl}?invoiceId=${invoice.id}`)).json().data.items as Row[];
    const lineEdit = await t.app.inject({
      method: 'PATCH',
      url: `${linesUrl}/${line!.id}`,
      headers: h(),
      payload: { unitPrice: 1 },
    });
    expect(lineEdit.statusCode).toBe(409);
    expect(
      (await post(linesUrl, { invoiceId: invoice.id, description: 'more', unitPrice: 1 })).statusCode,
    ).toBe(409);
    expect((await get(`${invoicesUrl}/${invoice.id}`)).json().data).toMatchObject({
      total: 11_500,
      notes: null,
    });

    // Server fields are not the user's to set on a draft either.
    const sneaky = await t.app.inject({
      method: 'PATCH',
      url: `${invoicesUrl}/${empty.id}`,
      headers: h(),
      payload: { total: 1 },
    });
    expect([sneaky.statusCode, sneaky.json().errors]).toEqual([
      422,
      { total: [expect.stringContaining('cannot be sent from a form')] },
    ]);
    // Nor on create: a credit note is made from its invoice only, a line's figures are computed.
    const invoicesBefore = (await get(invoicesUrl)).json().data.total;
    const forged = await post(invoicesUrl, {
      customerId: client,
      kind: 'creditNote',
      creditOfId: invoice.id,
    });
    expect([forged.statusCode, Object.keys(forged.json().errors).sort()]).toEqual([
      422,
      ['creditOfId', 'kind'],
    ]);
    expect((await get(invoicesUrl)).json().data.total).toBe(invoicesBefore);
    const forgedLine = await post(linesUrl, {
      invoiceId: empty.id,
      description: 'x',
      unitPrice: 1,
      total: 5,
    });
    expect([forgedLine.statusCode, Object.keys(forgedLine.json().errors)]).toEqual([422, ['total']]);
    expect((await get(`${linesUrl}?invoiceId=${empty.id}`)).json().data.total).toBe(0);
  });

  it('numbers without gaps under 20 issues at once', async () => {
    const client = await newClient();
    const drafts = [];
    for (let i = 0; i < 20; i++) drafts.push(await draft(client, [{ description: `n${i}`, unitPrice: 100 }]));
    // The same draft issued twice at once too: one wins, the other is 409.
    const answers = await Promise.all([...drafts.map((d) => issue(d.id)), issue(drafts[0]!.id)]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(1);
    const all = (await get(`${invoicesUrl}?kind=invoice&pageSize=100`)).json().data.items as Row[];
    const sequences = all
      .filter((r) => r.year === 2026)
      .map((r) => r.sequence as number)
      .sort((a, b) => a - b);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
  });

  it('voids with a reason; corrects by a credit note that lowers what is owed', async () => {
    const client = await newClient();
    const noReason = await post(`${invoicesUrl}/${(await draft(client)).id}/void`, {});
    expect(noReason.statusCode).toBe(422);
    const voided = await ok(
      await post(`${invoicesUrl}/${(await issued(client)).id}/void`, { reason: 'Wrong client' }),
    );
    expect(voided).toMatchObject({ state: 'void', voidReason: 'Wrong client', due: 0 });

    const invoice = await issued(client, 20_000); // 230.00 with VAT
    const note = await ok(
      await post(`${invoicesUrl}/${invoice.id}/creditNote`, { reason: 'Discount agreed' }),
    );
    expect(note).toMatchObject({ kind: 'creditNote', creditOfId: invoice.id, state: 'draft', total: 23_000 });
    const [noteLine] = (await get(`${linesUrl}?invoiceId=${note.id}`)).json().data.items as Row[];
    await ok(
      await t.app.inject({
        method: 'PATCH',
        url: `${linesUrl}/${noteLine!.id}`,
        headers: h(),
        payload: { unitPrice: 5_000 },
      }),
    );
    const issuedNote = await ok(await issue(note.id));
    expect(issuedNote).toMatchObject({ number: expect.stringMatching(/^CN-2026-\d{6}$/), total: 5_750 });
    expect((await get(`${invoicesUrl}/${invoice.id}`)).json().data).toMatchObject({
      state: 'partlyPaid',
      credited: 5_750,
      due: 17_250,
    });
    // Paid or credited: no longer voidable.
    expect((await post(`${invoicesUrl}/${invoice.id}/void`, { reason: 'x' })).statusCode).toBe(409);
  });

  it('gives the Saudi QR code as TLV (five fields) and PNG', async () => {
    const invoice = await issued(await newClient(), 100_000);
    const res = await get(route(FINANCE_ROUTES.invoiceQr.path, invoice.id));
    const data = (await ok(res)) as unknown as { tlv: string; png: string };
    expect(readZatcaTlv(data.tlv)).toEqual({
      sellerName: 'مكتب ميزان',
      vatNumber: '310122393500003',
      timestamp: '2026-03-10T08:00:00Z',
      total: '1150.00',
      vatTotal: '150.00',
    });
    expect(data.png).toMatch(/^data:image\/png;base64,/);
    const png = await get(`${route(FINANCE_ROUTES.invoiceQr.path, invoice.id)}?format=png`);
    expect([png.statusCode, png.headers['content-type']]).toEqual([200, 'image/png']);
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('brings in unbilled time and expenses once, from the client’s lawsuits', async () => {
    const client = await newClient();
    const lawsuit = await newLawsuit(client);
    const entry = await ok(
      await post(entityUrl(timeEntries), {
        lawsuitId: lawsuit,
        date: '2026-03-09',
        duration: 90,
        rate: 20_000,
      }),
      201,
    );
    await ok(
      await post(entityUrl(timeEntries), {
        lawsuitId: lawsuit,
        date: '2026-03-09',
        duration: 30,
        rate: 20_000,
        billable: false,
      }),
      201,
    );
    const invoice = await draft(client);
    const collected = await ok(await post(`${invoicesUrl}/${invoice.id}/collect`, {}));
    expect(collected).toMatchObject({ subtotal: 30_000, vatTotal: 4_500, total: 34_500 });
    const lines = (await get(`${linesUrl}?invoiceId=${invoice.id}`)).json().data.items as Row[];
    expect(lines.map((l) => [l.source, l.timeEntryId])).toEqual([['time', entry.id]]);
    // Already on a draft: a second invoice finds nothing left to bring in.
    const other = await draft(client);
    expect(await ok(await post(`${invoicesUrl}/${other.id}/collect`, {}))).toMatchObject({ total: 0 });
  });

  it('bills each agreed fee instalment once, freed again by a deleted draft or a voided invoice', async () => {
    const client = await newClient();
    const lawsuit = await newLawsuit(client);
    const instalment = (dueDate: string, amount: number, description?: string) =>
      post(entityUrl(feeInstalments), { lawsuitId: lawsuit, dueDate, amount, description }).then((res) =>
        ok(res, 201),
      );
    const first = await instalment('2026-03-01', 50_000, 'First instalment');
    const second = await instalment('2026-04-01', 25_000);
    const instalmentsOn = async (invoiceId: number) =>
      ((await get(`${linesUrl}?invoiceId=${invoiceId}`)).json().data.items as Row[])
        .filter((l) => l.source === 'instalment')
        .map((l) => [l.instalmentId, l.unitPrice, l.description]);
    const collect = async (range: Record<string, string> = {}) => {
      const invoice = await draft(client);
      await ok(await post(`${invoicesUrl}/${invoice.id}/collect`, range));
      return invoice.id;
    };

    // Due in the range only; the line says the day and what it is for.
    const march = await collect({ to: '2026-03-31' });
    expect(await instalmentsOn(march)).toEqual([[first.id, 50_000, '2026-03-01 · First instalment']]);
    // On a draft: not offered again; the rest is.
    const rest = await collect();
    expect(await instalmentsOn(rest)).toEqual([[second.id, 25_000, '2026-04-01']]);
    // The draft deleted frees its instalment.
    await ok(await t.app.inject({ method: 'DELETE', url: `${invoicesUrl}/${march}`, headers: h() }));
    const again = await collect();
    expect(await instalmentsOn(again)).toEqual([[first.id, 50_000, '2026-03-01 · First instalment']]);
    // Issued, it stays billed; voided, it is free once more.
    await ok(await issue(again));
    expect(await instalmentsOn(await collect())).toEqual([]);
    await ok(await post(`${invoicesUrl}/${again}/void`, { reason: 'Wrong amount' }));
    expect(await instalmentsOn(await collect())).toEqual([
      [first.id, 50_000, '2026-03-01 · First instalment'],
    ]);
  });

  it('pays invoices, sends an explicit remainder to the retainer, never below zero', async () => {
    const client = await newClient();
    const a = await issued(client, 10_000); // 115.00
    const b = await issued(client, 20_000); // 230.00
    const count = () => countRows(t.app, payments.table);

    const before = await count();
    const tooMuch = await post(paymentsUrl, {
      customerId: client,
      date: '2026-03-11',
      amount: 40_000,
      invoiceIds: [a.id, b.id],
    });
    expect([tooMuch.statusCode, Object.keys(tooMuch.json().errors)]).toEqual([422, ['amount']]);
    for (const amount of [0, -5])
      expect(
        (await post(paymentsUrl, { customerId: client, date: '2026-03-11', amount, invoiceIds: [a.id] }))
          .statusCode,
      ).toBe(422);
    const otherClient = await post(paymentsUrl, {
      customerId: await newClient(),
      date: '2026-03-11',
      amount: 100,
      invoiceIds: [a.id],
    });
    expect([otherClient.statusCode, Object.keys(otherClient.json().errors)]).toEqual([422, ['invoiceIds']]);
    expect(await count()).toBe(before);

    const partly = await ok(
      await post(paymentsUrl, {
        customerId: client,
        date: '2026-03-11',
        amount: 20_000,
        invoiceIds: [a.id, b.id],
        method: 'cash',
      }),
      201,
    );
    expect(partly.retained).toBe(0);
    expect((await get(`${invoicesUrl}/${a.id}`)).json().data).toMatchObject({
      state: 'paid',
      paid: 11_500,
      due: 0,
    });
    expect((await get(`${invoicesUrl}/${b.id}`)).json().data).toMatchObject({
      state: 'partlyPaid',
      paid: 8_500,
      due: 14_500,
    });

    const over = await ok(
      await post(paymentsUrl, {
        customerId: client,
        date: '2026-03-12',
        amount: 20_000,
        invoiceIds: [b.id],
        toRetainer: true,
      }),
      201,
    );
    expect(over.retained).toBe(5_500);
    expect((await get(`${invoicesUrl}/${b.id}`)).json().data).toMatchObject({ state: 'paid', due: 0 });

    const refund = await post(retainerUrl, {
      customerId: client,
      date: '2026-03-13',
      kind: 'refund',
      amount: 5_501,
    });
    expect([refund.statusCode, Object.keys(refund.json().errors)]).toEqual([422, ['amount']]);
    await ok(
      await post(retainerUrl, { customerId: client, date: '2026-03-13', kind: 'refund', amount: 500 }),
      201,
    );
    const c = await issued(client, 4_000); // 46.00
    await ok(
      await post(retainerUrl, {
        customerId: client,
        date: '2026-03-14',
        kind: 'apply',
        amount: 4_600,
        invoiceId: c.id,
      }),
      201,
    );
    expect((await get(`${invoicesUrl}/${c.id}`)).json().data).toMatchObject({ state: 'paid' });
    // 4.00 held: a deposit of 100.00 and a refund of 104.00 take it to zero; the deposit can then no
    // longer be taken back.
    const deposit = await ok(
      await post(retainerUrl, { customerId: client, date: '2026-03-15', kind: 'deposit', amount: 10_000 }),
      201,
    );
    await ok(
      await post(retainerUrl, { customerId: client, date: '2026-03-15', kind: 'refund', amount: 10_400 }),
      201,
    );
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${retainerUrl}/${deposit.id}`, headers: h() }))
        .statusCode,
    ).toBe(409);

    const statement = (await ok(
      await get(route(FINANCE_ROUTES.customerStatement.path, client)),
    )) as unknown as CustomerStatement;
    expect(statement).toMatchObject({
      invoiced: 11_500 + 23_000 + 4_600,
      paid: 11_500 + 23_000 + 4_600,
      balance: 0,
      retainer: 0,
    });
    expect(statement.entries.map((e) => e.kind)).toEqual([
      'invoice',
      'invoice',
      'invoice',
      'payment',
      'payment',
      'refund',
      'apply',
      'deposit',
      'refund',
    ]);
    expect(statement.entries.map((e) => e.retainer)).toEqual([0, 0, 0, 0, 5_500, 5_000, 400, 10_400, 0]);
  });

  it('ages what is owed by days past due', async () => {
    const client = await newClient();
    await issued(client, 10_000);
    now = new Date('2026-05-01T08:00:00Z'); // 52 days later
    await issued(client, 20_000);
    const res = await get(`${API_BASE + FINANCE_REPORT_ROUTES.aging.path}?customerId=${client}`);
    const report = (await ok(res)) as unknown as { rows: Record<string, number>[] };
    expect(report.rows).toEqual([
      expect.objectContaining({
        customerId: client,
        days0to30: 23_000,
        days31to60: 11_500,
        days61to90: 0,
        over90: 0,
        total: 34_500,
      }),
    ]);
    now = new Date('2026-03-10T08:00:00Z');
  });
});
