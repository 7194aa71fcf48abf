import {
  AREA_PERMISSIONS,
  API_BASE,
  FINANCE_REPORTS,
  expenses,
  feeInstalments,
  invoiceLines,
  invoices,
  payments,
  timeEntries,
  type ReportAnswer,
  FINANCE_ROUTES,
} from '@mizan/contracts';
import { createRow, createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, splitDialects, type Session, type TestApp } from '../test/harness';

type Row = Record<string, unknown> & { id: number };

const report = (key: keyof typeof FINANCE_REPORTS, query = '') =>
  `${API_BASE}${FINANCE_REPORTS[key].path}${query ? `?${query}` : ''}`;

describe.each(splitDialects())('finance reports on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const now = new Date('2026-03-10T08:00:00Z');
  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const post = (url: string, payload: unknown = {}) =>
    t.app.inject({ method: 'POST', url, headers: h(), payload: payload as object });
  const get = (url: string, lang = 'en') => t.app.inject({ method: 'GET', url, headers: h(lang) });
  const ok = async (res: Awaited<ReturnType<typeof post>>, status = 200) => {
    expect([res.statusCode, res.json().errors ?? res.json().message]).toEqual([status, undefined]);
    return res.json().data as Row;
  };
  const answer = async (url: string) => (await ok(await get(url))) as unknown as ReportAnswer;

  let client: number;
  let other: number;
  let lawsuit: number;
  let lawyer: number;
  let timekeeper: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => now } });
    admin = await t.login();
    client = (await createRow(t.app, admin.headers, 'customers', { name: 'Client A' })).id;
    other = (await createRow(t.app, admin.headers, 'customers', { name: 'Client B' })).id;
    lawyer = (await createRow(t.app, admin.headers, 'employees', { name: 'Lawyer One' })).id;
    timekeeper = (await createRow(t.app, admin.headers, 'employees', { name: 'Lawyer Two' })).id;
    lawsuit = (
      await createRow(t.app, admin.headers, 'lawsuits', { customerIds: [client], lawyerIds: [lawyer] })
    ).id;
    await ok(
      await post(entityUrl(timeEntries), {
        employeeId: timekeeper,
        lawsuitId: lawsuit,
        date: '2026-03-02',
        duration: 90,
        rate: 20_000,
        billable: true,
      }),
      201,
    );
    await ok(
      await post(entityUrl(timeEntries), {
        employeeId: timekeeper,
        lawsuitId: lawsuit,
        date: '2026-03-03',
        duration: 30,
        rate: 20_000,
        billable: false,
      }),
      201,
    );
    const category = (await createRow(t.app, admin.headers, 'expenseCategories')).id;
    await ok(
      await post(entityUrl(expenses), {
        lawsuitId: lawsuit,
        date: '2026-03-04',
        amount: 5_000,
        categoryId: category,
        paidBy: 'office',
        billable: true,
      }),
      201,
    );
  });
  afterAll(() => t.close());

  it('lists unbilled billable time, office-paid expenses and due fee instalments by client and lawsuit, in the range', async () => {
    const all = await answer(report('unbilled'));
    expect(all.rows).toEqual([
      expect.objectContaining({
        customerId: client,
        customerName: 'Client A',
        lawsuitId: lawsuit,
        minutes: 90,
        time: 30_000,
        expenses: 5_000,
        total: 35_000,
      }),
    ]);
    expect(all.totals).toEqual({ minutes: 90, time: 30_000, expenses: 5_000, instalments: 0, total: 35_000 });
    const later = await answer(report('unbilled', 'from=2026-03-03&to=2026-03-31'));
    expect(later.rows.map((r) => [r.minutes, r.time, r.expenses])).toEqual([[0, 0, 5_000]]);
    expect((await answer(report('unbilled', `customerId=${other}`))).rows).toEqual([]);

    // Agreed fee instalments due in the range and on no invoice are unbilled too, under their lawsuit.
    const second = (await createRow(t.app, admin.headers, 'lawsuits', { customerIds: [client] })).id;
    const instalment = await ok(
      await post(entityUrl(feeInstalments), { lawsuitId: second, dueDate: '2026-03-20', amount: 40_000 }),
      201,
    );
    const withDue = await answer(report('unbilled'));
    expect(withDue.rows.find((r) => r.lawsuitId === second)).toMatchObject({
      customerId: client,
      minutes: 0,
      time: 0,
      expenses: 0,
      instalments: 40_000,
      total: 40_000,
    });
    expect(withDue.totals).toEqual({
      minutes: 90,
      time: 30_000,
      expenses: 5_000,
      instalments: 40_000,
      total: 75_000,
    });
    expect((await answer(report('unbilled', 'from=2026-03-21'))).totals.instalments).toBe(0);
    // Brought onto a draft it is billed; the draft deleted, it is unbilled again.
    const draft = await ok(await post(entityUrl(invoices), { customerId: client, lawsuitId: second }), 201);
    await ok(await post(`${entityUrl(invoices)}/${draft.id}/collect`, {}));
    expect((await answer(report('unbilled'))).totals.instalments).toBe(0);
    const remove = (url: string) => t.app.inject({ method: 'DELETE', url, headers: h() });
    expect((await remove(`${entityUrl(invoices)}/${draft.id}`)).statusCode).toBeLessThan(300);
    expect((await answer(report('unbilled'))).totals.instalments).toBe(40_000);
    expect((await remove(`${entityUrl(feeInstalments)}/${instalment.id}`)).statusCode).toBeLessThan(300);
  });

  it('counts revenue by lawyer and by month from issued invoices and credit notes, net of VAT', async () => {
    const invoice = await ok(
      await post(entityUrl(invoices), { customerId: client, lawsuitId: lawsuit }),
      201,
    );
    await ok(await post(`${entityUrl(invoices)}/${invoice.id}/collect`, {}));
    await ok(
      await post(entityUrl(invoiceLines), {
        invoiceId: invoice.id,
        description: 'Fixed fee',
        unitPrice: 20_000,
      }),
      201,
    );
    const issued = await ok(await post(`${entityUrl(invoices)}/${invoice.id}/issue`));
    expect(issued.subtotal).toBe(55_000);
    expect((await answer(report('unbilled'))).rows).toEqual([]);

    // A second invoice, credited in full.
    const second = await ok(await post(entityUrl(invoices), { customerId: client, lawsuitId: lawsuit }), 201);
    await ok(
      await post(entityUrl(invoiceLines), { invoiceId: second.id, description: 'Advice', unitPrice: 10_000 }),
      201,
    );
    const secondIssued = await ok(await post(`${entityUrl(invoices)}/${second.id}/issue`));
    const credit = await ok(
      await post(`${entityUrl(invoices)}/${second.id}/creditNote`, { reason: 'Mistake' }),
    );
    const note = await ok(await post(`${entityUrl(invoices)}/${credit.id}/issue`));
    await ok(
      await post(entityUrl(payments), {
        customerId: client,
        date: '2026-03-10',
        amount: 10_000,
        method: 'cash',
        invoiceIds: [invoice.id],
      }),
      201,
    );

    const byLawyer = await answer(report('revenueByLawyer', 'from=2026-03-01&to=2026-03-31'));
    expect(byLawyer.rows).toEqual([
      {
        lawyerId: timekeeper,
        lawyerName: 'Lawyer Two',
        minutes: 90,
        invoiced: 30_000,
        credited: 0,
        revenue: 30_000,
      },
      {
        lawyerId: lawyer,
        lawyerName: 'Lawyer One',
        minutes: 0,
        invoiced: 35_000,
        credited: 10_000,
        revenue: 25_000,
      },
    ]);
    expect(byLawyer.totals).toEqual({ minutes: 90, invoiced: 65_000, credited: 10_000, revenue: 55_000 });
    expect(byLawyer).toMatchObject({ from: '2026-03-01', to: '2026-03-31', currency: 'EGP' });

    const byMonth = await answer(report('revenueByMonth'));
    expect(byMonth.rows).toEqual([
      {
        month: '2026-03',
        invoiced: 65_000,
        credited: 10_000,
        revenue: 55_000,
        vat: Number(issued.vatTotal) + Number(secondIssued.vatTotal) - Number(note.vatTotal),
        collected: 10_000,
      },
    ]);
    expect((await answer(report('revenueByMonth', 'to=2026-02-28'))).rows).toEqual([]);
  });

  it('answers the aging report through the same machinery, with totals', async () => {
    const aging = await answer(report('aging', 'asOf=2026-03-10'));
    expect(aging.asOf).toBe('2026-03-10');
    expect(aging.rows.map((r) => r.customerId)).toEqual([client]);
    expect(aging.totals.total).toBe(aging.rows[0]!.total);
    expect(aging.totals.days0to30).toBe(aging.totals.total);
  });

  it("limits every report to one branch by the money's lawsuit, leaving out money of no lawsuit", async () => {
    const b1 = (await createRow(t.app, admin.headers, 'branches')).id;
    const b2 = (await createRow(t.app, admin.headers, 'branches')).id;
    const payer = (await createRow(t.app, admin.headers, 'customers', { name: 'Client C' })).id;
    const inBranch = async (branchId: number, lawyerId: number) =>
      (
        await createRow(t.app, admin.headers, 'lawsuits', {
          customerIds: [payer],
          lawyerIds: [lawyerId],
          branchId,
        })
      ).id;
    const first = await inBranch(b1, lawyer);
    const second = await inBranch(b2, timekeeper);
    const issue = async (lawsuitId: number | null, unitPrice: number) => {
      const draft = await ok(
        await post(entityUrl(invoices), { customerId: payer, ...(lawsuitId ? { lawsuitId } : {}) }),
        201,
      );
      await ok(
        await post(entityUrl(invoiceLines), { invoiceId: draft.id, description: 'Fee', unitPrice }),
        201,
      );
      return ok(await post(`${entityUrl(invoices)}/${draft.id}/issue`));
    };
    const one = await issue(first, 100_000);
    const two = await issue(second, 40_000);
    const none = await issue(null, 7_000);
    const pay = async (invoiceIds: number[], amount: number) =>
      ok(
        await post(entityUrl(payments), {
          customerId: payer,
          date: '2026-03-10',
          amount,
          method: 'cash',
          invoiceIds,
        }),
        201,
      );
    await pay([Number(one.id)], 10_000);
    await pay([Number(none.id)], 2_000);
    const category = (await createRow(t.app, admin.headers, 'expenseCategories')).id;
    await ok(
      await post(entityUrl(expenses), {
        lawsuitId: second,
        date: '2026-03-05',
        amount: 3_000,
        categoryId: category,
        paidBy: 'office',
        billable: true,
      }),
      201,
    );

    const of = (key: keyof typeof FINANCE_REPORTS, branch?: number) =>
      answer(report(key, `customerId=${payer}${branch ? `&branchId=${branch}` : ''}`));
    const sum =
      (...answers: ReportAnswer[]) =>
      (key: string) =>
        answers.reduce((total, a) => total + (a.totals[key] ?? 0), 0);

    // Revenue by month: each branch its lawsuit's invoice and the payment of it; the office all,
    // the invoice and payment of no lawsuit included.
    const month = [
      await of('revenueByMonth'),
      await of('revenueByMonth', b1),
      await of('revenueByMonth', b2),
    ];
    expect(month[1]!.rows).toEqual([
      expect.objectContaining({ month: '2026-03', invoiced: 100_000, revenue: 100_000, collected: 10_000 }),
    ]);
    expect(month[2]!.totals).toMatchObject({ invoiced: 40_000, vat: Number(two.vatTotal), collected: 0 });
    expect(month[0]!.totals).toMatchObject({ invoiced: 147_000, collected: 12_000 });
    const branches = sum(month[1]!, month[2]!);
    expect(month[0]!.totals.invoiced! - branches('invoiced')).toBe(7_000);
    expect(month[0]!.totals.collected! - branches('collected')).toBe(2_000);
    expect(month[0]!.totals.vat! - branches('vat')).toBe(Number(none.vatTotal));

    // Revenue by lawyer: the branch's lawsuit's responsible lawyer only.
    expect((await of('revenueByLawyer', b1)).rows).toEqual([
      expect.objectContaining({ lawyerId: lawyer, invoiced: 100_000, revenue: 100_000 }),
    ]);
    expect((await of('revenueByLawyer', b2)).rows).toEqual([
      expect.objectContaining({ lawyerId: timekeeper, invoiced: 40_000 }),
    ]);
    expect((await of('revenueByLawyer')).totals.invoiced).toBe(147_000);

    // What the client owes: by branch, what is left on that branch's invoice.
    const aging = [await of('aging'), await of('aging', b1), await of('aging', b2)];
    expect(aging[1]!.totals.total).toBe(Number(one.total) - 10_000);
    expect(aging[2]!.totals.total).toBe(Number(two.total));
    expect(aging[0]!.totals.total).toBe(
      aging[1]!.totals.total! + aging[2]!.totals.total! + Number(none.total) - 2_000,
    );

    // Unbilled work always has a lawsuit: the expense counts for its branch, none for the other.
    expect((await of('unbilled', b2)).rows).toEqual([
      expect.objectContaining({ lawsuitId: second, expenses: 3_000, total: 3_000 }),
    ]);
    expect((await of('unbilled', b1)).rows).toEqual([]);
    expect((await of('unbilled')).totals.total).toBe(3_000);

    // Without the client: a branch holds only its own lawsuits' money (the earlier lawsuits have no branch).
    const whole = await answer(report('revenueByMonth', `branchId=${b1}&from=2026-03-01&to=2026-03-31`));
    expect(whole.totals).toMatchObject({ invoiced: 100_000, collected: 10_000 });
    expect(whole).toMatchObject({ from: '2026-03-01', to: '2026-03-31' });

    // A payment of both branches' invoices is collected for each by what it settled of its invoice
    // (as the lawsuits' fees count it), the whole of it for the office.
    const rest = Number(one.total) - 10_000;
    const split = await pay([Number(one.id), Number(two.id)], rest + 6_000);
    expect(split.lawsuitId).toBeNull();
    const after = [
      await of('revenueByMonth'),
      await of('revenueByMonth', b1),
      await of('revenueByMonth', b2),
    ];
    expect(after[1]!.totals.collected).toBe(10_000 + rest);
    expect(after[2]!.totals.collected).toBe(6_000);
    expect(after[0]!.totals.collected).toBe(12_000 + rest + 6_000);
    expect(after[0]!.totals.collected! - sum(after[1]!, after[2]!)('collected')).toBe(2_000);
  });

  it('refuses bad filters with 422, in the request language', async () => {
    const refused = async (url: string, field: string, lang = 'en') => {
      const res = await get(url, lang);
      expect(res.statusCode).toBe(422);
      return (res.json().errors as Record<string, string[]>)[field]![0]!;
    };
    expect(await refused(report('revenueByMonth', 'from=2026-03-10&to=2026-03-01'), 'from')).toBe(
      'From must not be after the end of the range (2026-03-01)',
    );
    expect(await refused(report('unbilled', 'from=2026-03-10&to=2026-03-01'), 'from', 'ar')).toBe(
      'يجب ألا يقع «من تاريخ» بعد نهاية المدة (2026-03-01)',
    );
    await refused(report('revenueByLawyer', 'from=10/03/2026'), 'from');
    await refused(report('aging', 'asOf=2026-13-01'), 'asOf');
    await refused(report('unbilled', 'customerId=abc'), 'customerId');
    expect(await refused(report('revenueByLawyer', 'customerId=999999'), 'customerId')).toBe(
      'The selected Client does not exist',
    );
    await refused(report('aging', 'branchId=abc'), 'branchId');
    for (const key of Object.keys(FINANCE_REPORTS) as (keyof typeof FINANCE_REPORTS)[])
      expect([key, await refused(report(key, 'branchId=999999'), 'branchId')]).toEqual([
        key,
        'The selected Branch does not exist',
      ]);
    expect(await refused(report('unbilled', 'branchId=999999'), 'branchId', 'ar')).toBe(
      'القيمة المختارة في «الفرع» غير موجودة',
    );
    await refused(
      `${API_BASE}${FINANCE_ROUTES.customerStatement.path.replace(':id', String(client))}?from=2026-03-10&to=2026-03-01`,
      'from',
    );
  });

  it('answers 403 without the reports permission, viewing invoices not enough, and 200 with it', async () => {
    const clerk = await createUserWith(t.app, admin.headers, ['customers.view']);
    const reader = await createUserWith(t.app, admin.headers, ['invoices.view', 'customers.view']);
    const analyst = await createUserWith(t.app, admin.headers, [AREA_PERMISSIONS.financeReports]);
    const sessions = await Promise.all(
      [clerk, reader, analyst].map((user) => t.login(user.email, user.password)),
    );
    for (const key of Object.keys(FINANCE_REPORTS) as (keyof typeof FINANCE_REPORTS)[]) {
      const codes = [];
      for (const session of sessions)
        codes.push(
          (await t.app.inject({ method: 'GET', url: report(key), headers: session.headers })).statusCode,
        );
      expect([key, codes]).toEqual([key, [403, 403, 200]]);
    }
  });
});
