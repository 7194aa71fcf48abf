import {
  API_BASE,
  DASHBOARD_ROUTES,
  LAWSUIT_FEES_CHANGED,
  feeInstalments,
  invoiceLines,
  invoices,
  lawsuitPayments,
  payments,
  retainerMovements,
  type Dashboard,
  type LawsuitFeeRows,
  type LawsuitFees,
  LEGAL_ROUTES,
} from '@mizan/contracts';
import { sql } from 'kysely';
import { MIGRATION_GROUPS } from '../app';
import { rebuildStats, storedStats } from '../dashboard/stats';
import { migrationNames, runMigrations } from '../db/migrate';
import { createRow, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { moveLedgerPayments } from './ledger';
import { financeMigrations } from './migrations';
import { ALLOCATIONS } from './money';
import { backfillPaymentLawsuits } from './paymentLawsuits';
import { keptAndRecounted } from '../test/stats';

type Row = Record<string, unknown> & { id: number };

const ledgerUrl = entityUrl(lawsuitPayments);
const paymentsUrl = entityUrl(payments);
const invoicesUrl = entityUrl(invoices);

describe.each(dialects())('the fees ledger on payments (%s)', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let clients: number[];
  let lawsuit: Row;

  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: admin.headers, payload });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const ok = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const res = await send(method, url, payload);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body?.data as Row;
  };
  const fees = async (id: number) =>
    (await ok(
      'GET',
      API_BASE + LEGAL_ROUTES.lawsuitFees.path.replace(':id', String(id)),
    )) as unknown as LawsuitFees;
  const paymentsOf = (entryIds: number[]) =>
    t.app.db
      .selectFrom(payments.table)
      .selectAll()
      .where('ledger_entry_id', 'in', entryIds)
      .orderBy('ledger_entry_id')
      .execute();
  /**
   * What the office was paid for its lawsuits, summed from the payments' table itself: all a
   * payment naming a lawsuit did not hold, and what a payment naming none settled of invoices of a
   * lawsuit.
   */
  const paidInTable = async () => {
    const row = await t.app.db
      .selectFrom(payments.table)
      .select(
        sql<string | number>`coalesce(sum(case when lawsuit_id is not null then amount - retained
          else (select coalesce(sum(a.amount), 0) from ${sql.table(ALLOCATIONS)} a
            where a.payment_id = ${sql.ref(`${payments.table}.id`)} and a.lawsuit_id is not null) end), 0)`.as(
          'paid',
        ),
      )
      .executeTakeFirst();
    return Number(row?.paid ?? 0);
  };
  const dashboardPaid = async () =>
    ((await ok('GET', API_BASE + DASHBOARD_ROUTES.get.path)) as unknown as Dashboard).financialStatistics!
      .paidFees;
  const expectStatsEqualRecount = async () => {
    const { kept, recounted } = await keptAndRecounted(t.app.db, t.dialect);
    expect(kept).toEqual(recounted);
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    clients = [
      (await createRow(t.app, admin.headers, 'customers')).id,
      (await createRow(t.app, admin.headers, 'customers')).id,
    ];
    lawsuit = await ok('POST', entityUrl('lawsuits'), {
      customerIds: [clients[1], clients[0]],
      agreedFee: 100_000,
    });
  });
  afterAll(() => t.close());

  it('records each ledger entry as one payment, read once by the fees and the dashboard', async () => {
    const before = await dashboardPaid();
    const entry = await ok('POST', ledgerUrl, {
      lawsuitId: lawsuit.id,
      amount: 30_000,
      paidOn: '2026-02-01',
      method: 'cheque',
      receiptNumber: 'R-100',
      note: 'first instalment',
    });
    const [payment] = await paymentsOf([entry.id]);
    expect(payment).toMatchObject({
      customer_id: Math.min(...clients),
      lawsuit_id: lawsuit.id,
      method: 'cheque',
      reference: 'R-100',
      notes: 'first instalment',
    });
    expect([Number(payment!.amount), Number(payment!.retained)]).toEqual([30_000, 0]);
    expect(await fees(lawsuit.id)).toMatchObject({ agreedFee: 100_000, paid: 30_000, pending: 70_000 });

    // An invoice of the lawsuit paid in finance counts towards its fees too; a deposit held for
    // the client (the retainer) does not.
    const invoice = await ok('POST', invoicesUrl, { customerId: clients[0], lawsuitId: lawsuit.id });
    await ok('POST', entityUrl(invoiceLines), {
      invoiceId: invoice.id,
      description: 'Pleading',
      unitPrice: 10_000,
    });
    const issued = await ok('POST', `${invoicesUrl}/${invoice.id}/issue`);
    const total = Number(issued.total);
    await ok('POST', paymentsUrl, {
      customerId: clients[0],
      lawsuitId: lawsuit.id,
      date: '2026-02-10',
      amount: total,
      invoiceIds: [invoice.id],
    });
    await ok('POST', paymentsUrl, {
      customerId: clients[0],
      lawsuitId: lawsuit.id,
      date: '2026-02-11',
      amount: 5_000,
    });
    expect((await fees(lawsuit.id)).paid).toBe(30_000 + total);
    // The same figure on the lawsuit's row, on the dashboard, and in a recount: each payment once.
    expect((await ok('GET', `${entityUrl('lawsuits')}/${lawsuit.id}`)).fees).toMatchObject({
      paid: 30_000 + total,
    });
    expect(await dashboardPaid()).toBe(before + 30_000 + total);
    expect(await dashboardPaid()).toBe(await paidInTable());
    await expectStatsEqualRecount();

    // The payment goes and changes with its entry only.
    expect((await send('DELETE', `${paymentsUrl}/${payment!.id as number}`)).status).toBe(409);
    expect((await send('PATCH', `${paymentsUrl}/${payment!.id as number}`, { notes: 'x' })).status).toBe(409);
    await ok('PATCH', `${ledgerUrl}/${entry.id}`, { amount: 40_000 });
    const changed = await paymentsOf([entry.id]);
    expect(changed.map((p) => Number(p.amount))).toEqual([40_000]);
    expect((await fees(lawsuit.id)).paid).toBe(40_000 + total);
    expect(await dashboardPaid()).toBe(await paidInTable());
    // The fee still binds what the ledger recorded, read from the payments.
    const over = await send('POST', ledgerUrl, {
      lawsuitId: lawsuit.id,
      amount: 100_000 - 40_000 - total + 1,
      paidOn: '2026-02-12',
      method: 'cash',
    });
    expect(over.status).toBe(422);
    await ok('DELETE', `${ledgerUrl}/${entry.id}`);
    expect(await paymentsOf([entry.id])).toEqual([]);
    expect((await fees(lawsuit.id)).paid).toBe(total);
    expect(await dashboardPaid()).toBe(await paidInTable());
    await expectStatsEqualRecount();
  });

  it('lists every payment that counts as one row of the fees tab, retainer applications included, each once', async () => {
    const before = await dashboardPaid();
    const suit = await ok('POST', entityUrl('lawsuits'), { customerIds: [clients[0]], agreedFee: 100_000 });
    const rowsOf = async (id: number) =>
      (
        (await ok(
          'GET',
          API_BASE + LEGAL_ROUTES.lawsuitFeeRows.path.replace(':id', String(id)),
        )) as unknown as LawsuitFeeRows
      ).items;
    const entry = await ok('POST', ledgerUrl, {
      lawsuitId: suit.id,
      amount: 20_000,
      paidOn: '2026-05-01',
      method: 'cash',
      receiptNumber: 'R-500',
    });
    const invoice = await ok('POST', invoicesUrl, { customerId: clients[0], lawsuitId: suit.id });
    await ok('POST', entityUrl(invoiceLines), {
      invoiceId: invoice.id,
      description: 'Appeal',
      unitPrice: 10_000,
    });
    const issued = await ok('POST', `${invoicesUrl}/${invoice.id}/issue`);
    const total = Number(issued.total);
    // Paying the lawsuit's invoice pays towards its fee, the lawsuit not named on the payment.
    const paid = await ok('POST', paymentsUrl, {
      customerId: clients[0],
      date: '2026-05-02',
      amount: 5_000,
      reference: 'TR-1',
      invoiceIds: [invoice.id],
    });
    expect(paid.lawsuitId).toBe(suit.id);
    // A deposit held for the client counts once applied to an invoice of the lawsuit, not before.
    await ok('POST', entityUrl(retainerMovements), {
      customerId: clients[0],
      date: '2026-05-03',
      kind: 'deposit',
      amount: 3_000,
    });
    expect((await fees(suit.id)).paid).toBe(25_000);
    const applied = await ok('POST', entityUrl(retainerMovements), {
      customerId: clients[0],
      date: '2026-05-04',
      kind: 'apply',
      amount: 3_000,
      invoiceId: invoice.id,
    });
    // The rest of the invoice with more than it owes: only the part not held counts.
    const rest = total - 8_000;
    await ok('POST', paymentsUrl, {
      customerId: clients[0],
      date: '2026-05-05',
      amount: rest + 1_000,
      invoiceIds: [invoice.id],
      toRetainer: true,
    });
    const expected = 20_000 + 5_000 + 3_000 + rest;
    expect((await fees(suit.id)).paid).toBe(expected);
    const rows = await rowsOf(suit.id);
    expect(rows.map((r) => [r.source, r.date, r.amount, r.invoiceNumbers])).toEqual([
      ['payment', '2026-05-05', rest, [issued.number]],
      ['retainer', '2026-05-04', 3_000, [issued.number]],
      ['payment', '2026-05-02', 5_000, [issued.number]],
      ['ledger', '2026-05-01', 20_000, []],
    ]);
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(expected);
    expect(rows[3]).toMatchObject({ ledgerEntryId: entry.id, reference: 'R-500', method: 'cash' });
    expect(rows[1]).toMatchObject({ retainerMovementId: applied.id, ledgerEntryId: null });
    expect((await ok('GET', `${entityUrl('lawsuits')}/${suit.id}`)).fees).toMatchObject({ paid: expected });
    expect(await dashboardPaid()).toBe(before + expected);
    await expectStatsEqualRecount();
    // The agreed fee is bound by the applied retainer too.
    expect(
      (await send('PATCH', `${entityUrl('lawsuits')}/${suit.id}`, { agreedFee: expected - 1 })).status,
    ).toBe(422);

    // Taking the application back takes it off the lawsuit, everywhere.
    await ok('DELETE', `${entityUrl(retainerMovements)}/${applied.id}`);
    expect((await fees(suit.id)).paid).toBe(expected - 3_000);
    expect((await rowsOf(suit.id)).map((r) => r.source)).toEqual(['payment', 'payment', 'ledger']);
    expect(await dashboardPaid()).toBe(before + expected - 3_000);
    await expectStatsEqualRecount();
  });

  it("tells the lawsuit's open fees tabs when a payment or a retainer application of it is recorded, changed or deleted", async () => {
    const suit = await ok('POST', entityUrl('lawsuits'), { customerIds: [clients[0]], agreedFee: 100_000 });
    const invoice = await ok('POST', invoicesUrl, { customerId: clients[0], lawsuitId: suit.id });
    await ok('POST', entityUrl(invoiceLines), {
      invoiceId: invoice.id,
      description: 'Brief',
      unitPrice: 10_000,
    });
    await ok('POST', `${invoicesUrl}/${invoice.id}/issue`);
    const seen: unknown[] = [];
    const stop = t.app.bus.subscribe((channel, message) => {
      if (
        channel === lawsuitPayments.name &&
        message.type === 'event' &&
        message.action === LAWSUIT_FEES_CHANGED
      )
        seen.push(message.data);
    });
    const told = () => seen.splice(0);
    try {
      const payment = await ok('POST', paymentsUrl, {
        customerId: clients[0],
        date: '2026-07-01',
        amount: 2_000,
        invoiceIds: [invoice.id],
      });
      expect(told()).toEqual([{ lawsuitId: suit.id }]);
      await ok('PATCH', `${paymentsUrl}/${payment.id}`, { notes: 'by cheque' });
      expect(told()).toEqual([{ lawsuitId: suit.id }]);
      await ok('POST', entityUrl(retainerMovements), {
        customerId: clients[0],
        date: '2026-07-02',
        kind: 'deposit',
        amount: 1_000,
      });
      expect(told()).toEqual([]); // a deposit counts for no lawsuit
      const applied = await ok('POST', entityUrl(retainerMovements), {
        customerId: clients[0],
        date: '2026-07-03',
        kind: 'apply',
        amount: 1_000,
        invoiceId: invoice.id,
      });
      expect(told()).toEqual([{ lawsuitId: suit.id }]);
      await ok('PATCH', `${entityUrl(retainerMovements)}/${applied.id}`, { notes: 'agreed by phone' });
      expect(told()).toEqual([{ lawsuitId: suit.id }]);
      await ok('DELETE', `${entityUrl(retainerMovements)}/${applied.id}`);
      expect(told()).toEqual([{ lawsuitId: suit.id }]);
      await ok('DELETE', `${paymentsUrl}/${payment.id}`);
      expect(told()).toEqual([{ lawsuitId: suit.id }]);
      // A ledger entry's own event tells the tab; its payment raises nothing more.
      await ok('POST', ledgerUrl, { lawsuitId: suit.id, amount: 500, paidOn: '2026-07-04', method: 'cash' });
      expect(told()).toEqual([]);
    } finally {
      stop();
    }
  });

  it('moves the ledger rows written before the migration into payments exactly once', async () => {
    const entries = [
      await ok('POST', ledgerUrl, {
        lawsuitId: lawsuit.id,
        amount: 1_000,
        paidOn: '2026-03-01',
        method: 'cash',
      }),
      await ok('POST', ledgerUrl, {
        lawsuitId: lawsuit.id,
        amount: 2_500,
        paidOn: '2026-03-02',
        method: 'bankTransfer',
        receiptNumber: 'R-200',
      }),
    ];
    const ids = entries.map((e) => e.id);
    const expected = (await paymentsOf(ids)).map((p) => [p.ledger_entry_id, Number(p.amount), p.reference]);
    const paid = (await fees(lawsuit.id)).paid;
    const dashboard = await dashboardPaid();
    // As the release before this one left them: ledger rows with no payment.
    await t.app.db.deleteFrom(payments.table).where('ledger_entry_id', 'in', ids).execute();
    expect(await paymentsOf(ids)).toEqual([]);

    const step = financeMigrations.find((m) => m.name === 'finance_004_ledger_payments')!;
    for (let run = 0; run < 2; run++) await t.app.db.transaction().execute((trx) => step.up(trx, t.dialect));
    expect(await moveLedgerPayments(t.app.db, t.dialect)).toBe(0); // at start: nothing left

    const moved = await paymentsOf(ids);
    expect(moved.map((p) => [p.ledger_entry_id, Number(p.amount), p.reference])).toEqual(expected);
    for (const p of moved) {
      expect([p.customer_id, p.lawsuit_id, Number(p.retained)]).toEqual([
        Math.min(...clients),
        lawsuit.id,
        0,
      ]);
      expect(p.search_text).not.toBeNull();
    }
    expect((await fees(lawsuit.id)).paid).toBe(paid);
    expect(await dashboardPaid()).toBe(dashboard);
    expect(await dashboardPaid()).toBe(await paidInTable());
    await expectStatsEqualRecount();
    // A moved entry is kept in step with its payment like any other.
    await ok('DELETE', `${ledgerUrl}/${ids[0]}`);
    expect((await paymentsOf(ids)).map((p) => p.ledger_entry_id)).toEqual([ids[1]]);
    await expectStatsEqualRecount();
  });

  it('upgrades a database of the previous release through the migration runner, once', async () => {
    const entry = await ok('POST', ledgerUrl, {
      lawsuitId: lawsuit.id,
      amount: 700,
      paidOn: '2026-04-01',
      method: 'card',
      receiptNumber: 'R-300',
    });
    const paid = (await fees(lawsuit.id)).paid;
    const entries = (
      await t.app.db.selectFrom(lawsuitPayments.table).select('id').orderBy('id').execute()
    ).map((r) => Number(r.id));
    // The previous release's schema and rows: no payment for any ledger row, no `ledger_entry_id`,
    // and the step not yet recorded.
    const [step] = migrationNames(MIGRATION_GROUPS).filter((n) => n.endsWith('finance_004_ledger_payments'));
    await t.app.db.deleteFrom(payments.table).where('ledger_entry_id', 'is not', null).execute();
    await sql`alter table ${sql.table(payments.table)} drop column ledger_entry_id`.execute(t.app.db);
    await t.app.db.deleteFrom('kysely_migration').where('name', '=', step!).execute();

    expect(await runMigrations(t.app.db, t.dialect, MIGRATION_GROUPS)).toEqual([step]);
    expect(await runMigrations(t.app.db, t.dialect, MIGRATION_GROUPS)).toEqual([]);
    const moved = await paymentsOf(entries);
    expect(moved.map((p) => Number(p.ledger_entry_id))).toEqual(entries);
    expect(moved.find((p) => Number(p.ledger_entry_id) === entry.id)).toMatchObject({
      reference: 'R-300',
      method: 'card',
    });
    expect((await fees(lawsuit.id)).paid).toBe(paid);
    expect(await dashboardPaid()).toBe(await paidInTable());
    await expectStatsEqualRecount();
  });

  it('gives the payments of an older release the lawsuit of their invoices, once, and the dashboard follows', async () => {
    const suits = [
      await ok('POST', entityUrl('lawsuits'), { customerIds: [clients[0]], agreedFee: 500_000 }),
      await ok('POST', entityUrl('lawsuits'), { customerIds: [clients[0]], agreedFee: 500_000 }),
    ];
    const issue = async (lawsuitId: number | null) => {
      const invoice = await ok('POST', invoicesUrl, { customerId: clients[0], lawsuitId });
      await ok('POST', entityUrl(invoiceLines), {
        invoiceId: invoice.id,
        description: 'Memo',
        unitPrice: 10_000,
      });
      return ok('POST', `${invoicesUrl}/${invoice.id}/issue`);
    };
    const [a1, a2, b, none] = [
      await issue(suits[0]!.id),
      await issue(suits[0]!.id),
      await issue(suits[1]!.id),
      await issue(null),
    ];
    const pay = (invoiceIds: number[], amount: number) =>
      ok('POST', paymentsUrl, { customerId: clients[0], date: '2026-06-01', amount, invoiceIds });
    const one = await pay([a1!.id, a2!.id], 15_000); // two invoices of the first lawsuit
    const split = await pay([a2!.id, b!.id], 9_000); // invoices of both lawsuits
    const loose = await pay([none!.id], 2_000); // an invoice of no lawsuit
    expect([one.lawsuitId, split.lawsuitId, loose.lawsuitId]).toEqual([suits[0]!.id, null, null]);
    const paid = (await fees(suits[0]!.id)).paid;
    // The dashboard's kept figure (its answers are cached a moment: a change made around the engine
    // is read from the aggregates themselves).
    const storedPaid = async () =>
      (await storedStats(t.app.db))
        .filter((r) => r.kind === 'lawsuit' && r.branchId === -1 && r.month === '*')
        .reduce((sum, r) => sum + r.paid, 0);
    const dashboard = await storedPaid();
    expect(dashboard).toBe(await dashboardPaid());

    // As the older release left it: the payment without a lawsuit, counted for none (its
    // allocations without theirs either: the release before finance_007's).
    await t.app.db.updateTable(payments.table).set({ lawsuit_id: null }).where('id', '=', one.id).execute();
    await t.app.db
      .updateTable(ALLOCATIONS)
      .set({ lawsuit_id: null })
      .where('payment_id', '=', one.id)
      .execute();
    await rebuildStats(t.app.db, t.dialect, { force: true });
    expect((await fees(suits[0]!.id)).paid).toBe(paid - 15_000);
    expect(await storedPaid()).toBe(dashboard - 15_000);

    const [step] = migrationNames(MIGRATION_GROUPS).filter((n) => n.endsWith('finance_006_payment_lawsuits'));
    await t.app.db.deleteFrom('kysely_migration').where('name', '=', step!).execute();
    expect(await runMigrations(t.app.db, t.dialect, MIGRATION_GROUPS)).toEqual([step]);
    expect(await runMigrations(t.app.db, t.dialect, MIGRATION_GROUPS)).toEqual([]);
    expect(await backfillPaymentLawsuits(t.app.db, t.dialect)).toBe(0); // at start: nothing left

    const lawsuitOf = async (id: number) =>
      (await t.app.db.selectFrom(payments.table).select('lawsuit_id').where('id', '=', id).executeTakeFirst())
        ?.lawsuit_id ?? null;
    expect([await lawsuitOf(one.id), await lawsuitOf(split.id), await lawsuitOf(loose.id)]).toEqual([
      suits[0]!.id,
      null,
      null,
    ]);
    expect((await fees(suits[0]!.id)).paid).toBe(paid);
    expect(await storedPaid()).toBe(dashboard);
    expect(await storedPaid()).toBe(await paidInTable());
    await expectStatsEqualRecount();
  });

  it("gives a database of the previous release the fee instalments: their table and the lines' column, once", async () => {
    const [step] = migrationNames(MIGRATION_GROUPS).filter((n) => n.endsWith('finance_005_fee_instalments'));
    if (dialect === 'postgres') {
      // As the previous release left it: invoice lines without the column, no instalments' table.
      await sql`alter table ${sql.table(invoiceLines.table)} drop column instalment_id`.execute(t.app.db);
      await sql`drop table ${sql.table(feeInstalments.table)}`.execute(t.app.db);
      await t.app.db.deleteFrom('entity_counts').where('entity', '=', feeInstalments.name).execute();
    }
    await t.app.db.deleteFrom('kysely_migration').where('name', '=', step!).execute();
    expect(await runMigrations(t.app.db, t.dialect, MIGRATION_GROUPS)).toEqual([step]);
    expect(await runMigrations(t.app.db, t.dialect, MIGRATION_GROUPS)).toEqual([]);
    const tables = await t.app.db.introspection.getTables();
    expect(tables.find((x) => x.name === feeInstalments.table)).toBeDefined();
    const lines = tables.find((x) => x.name === invoiceLines.table)!;
    expect(lines.columns.map((c) => c.name)).toContain('instalment_id');
    // And the instalments are written as before.
    const instalment = await ok('POST', entityUrl(feeInstalments), {
      lawsuitId: lawsuit.id,
      dueDate: '2026-06-01',
      amount: 1_000,
    });
    expect(instalment.id).toBeGreaterThan(0);
  });
});
