// A payment settling invoices of several lawsuits counts for each lawsuit by what it settled of
// that lawsuit's invoices (finance/lawsuitFees.ts): its fees, its fee rows, the dashboard's kept
// aggregates and their recount, the live event of each fees tab, and the migration step that
// splits the payments recorded before (`finance_007_allocation_lawsuits`).
import {
  API_BASE,
  LAWSUIT_FEES_CHANGED,
  LEGAL_ROUTES,
  invoiceLines,
  invoices,
  lawsuitPayments,
  payments,
  retainerMovements,
  type LawsuitFeeRows,
  type LawsuitFees,
} from '@mizan/contracts';
import { sql } from 'kysely';
import { MIGRATION_GROUPS } from '../app';
import { rebuildStats, storedStats } from '../dashboard/stats';
import { migrationNames, runMigrations } from '../db/migrate';
import { createRow, entityUrl } from '../test/fixtures';
import { createTestApp, splitDialects, type Session, type TestApp } from '../test/harness';
import { ALLOCATIONS } from './money';
import { backfillAllocationLawsuits } from './paymentLawsuits';
import { keptAndRecounted } from '../test/stats';

type Row = Record<string, unknown> & { id: number };

const paymentsUrl = entityUrl(payments);
const invoicesUrl = entityUrl(invoices);

describe.each(splitDialects())('a payment split by invoice between lawsuits (%s)', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let client: number;

  const ok = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: admin.headers, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return (res.body ? res.json().data : undefined) as Row;
  };
  const fees = async (id: number) =>
    (await ok(
      'GET',
      API_BASE + LEGAL_ROUTES.lawsuitFees.path.replace(':id', String(id)),
    )) as unknown as LawsuitFees;
  const rowsOf = async (id: number) =>
    (
      (await ok(
        'GET',
        API_BASE + LEGAL_ROUTES.lawsuitFeeRows.path.replace(':id', String(id)),
      )) as unknown as LawsuitFeeRows
    ).items;
  /** The dashboard's kept paid figure: every branch, all time. */
  const storedPaid = async () =>
    (await storedStats(t.app.db))
      .filter((r) => r.kind === 'lawsuit' && r.branchId === -1 && r.month === '*')
      .reduce((sum, r) => sum + r.paid, 0);
  const expectStatsEqualRecount = async () => {
    const { kept, recounted } = await keptAndRecounted(t.app.db, t.dialect);
    expect(kept).toEqual(recounted);
  };
  const expectRowsSumToPaid = async (id: number) => {
    const rows = await rowsOf(id);
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe((await fees(id)).paid);
    return rows;
  };
  const lawsuit = () => ok('POST', entityUrl('lawsuits'), { customerIds: [client], agreedFee: 1_000_000 });
  /** An issued invoice of `lawsuitId` (null: of none) for 10,000 before VAT. */
  const issue = async (lawsuitId: number | null) => {
    const invoice = await ok('POST', invoicesUrl, { customerId: client, lawsuitId });
    await ok('POST', entityUrl(invoiceLines), {
      invoiceId: invoice.id,
      description: 'Memorandum',
      unitPrice: 10_000,
    });
    return ok('POST', `${invoicesUrl}/${invoice.id}/issue`);
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    client = (await createRow(t.app, admin.headers, 'customers')).id;
  });
  afterAll(() => t.close());

  it('counts a payment of invoices of two lawsuits for each by what it settled, everywhere, each amount once', async () => {
    const [a, b] = [await lawsuit(), await lawsuit()];
    const [ia, ib, loose] = [await issue(a.id), await issue(b.id), await issue(null)];
    const total = Number(ia.total); // the three invoices are for the same amount
    const dashboard = await storedPaid();
    const seen: unknown[] = [];
    const stop = t.app.bus.subscribe((channel, message) => {
      if (
        channel === lawsuitPayments.name &&
        message.type === 'event' &&
        message.action === LAWSUIT_FEES_CHANGED
      )
        seen.push(message.data);
    });
    const told = () =>
      seen
        .splice(0)
        .map((d) => (d as { lawsuitId: number }).lawsuitId)
        .sort((x, y) => x - y);
    try {
      // All of the first invoice and 5,000 of the second.
      const paid = await ok('POST', paymentsUrl, {
        customerId: client,
        date: '2026-08-01',
        amount: total + 5_000,
        invoiceIds: [ia.id, ib.id],
      });
      expect(told()).toEqual([a.id, b.id]);
      expect(paid.lawsuitId).toBeNull();
      const allocated = await t.app.db
        .selectFrom(ALLOCATIONS)
        .select(['invoice_id', 'amount', 'lawsuit_id'])
        .where('payment_id', '=', paid.id)
        .orderBy('invoice_id')
        .execute();
      expect(allocated.map((r) => [Number(r.invoice_id), Number(r.amount), Number(r.lawsuit_id)])).toEqual([
        [ia.id, total, a.id],
        [ib.id, 5_000, b.id],
      ]);
      expect((await fees(a.id)).paid).toBe(total);
      expect((await fees(b.id)).paid).toBe(5_000);
      const rowsA = await expectRowsSumToPaid(a.id);
      const rowsB = await expectRowsSumToPaid(b.id);
      expect(rowsA.map((r) => [r.paymentId, r.amount, r.invoiceNumbers])).toEqual([
        [paid.id, total, [ia.number]],
      ]);
      expect(rowsB.map((r) => [r.paymentId, r.amount, r.invoiceNumbers])).toEqual([
        [paid.id, 5_000, [ib.number]],
      ]);
      expect((await ok('GET', `${entityUrl('lawsuits')}/${b.id}`)).fees).toMatchObject({ paid: 5_000 });
      expect(await storedPaid()).toBe(dashboard + total + 5_000);
      await expectStatsEqualRecount();

      // Naming the first lawsuit: what it settles of the second's invoice counts for the second,
      // what it settles of an invoice of no lawsuit for the first, the 700 held for none.
      const named = await ok('POST', paymentsUrl, {
        customerId: client,
        lawsuitId: a.id,
        date: '2026-08-02',
        amount: total - 5_000 + total + 700,
        invoiceIds: [ib.id, loose.id],
        toRetainer: true,
      });
      expect(told()).toEqual([a.id, b.id]);
      expect(Number(named.retained)).toBe(700);
      expect((await fees(a.id)).paid).toBe(total + total);
      expect((await fees(b.id)).paid).toBe(total);
      expect((await rowsOf(a.id)).find((r) => r.paymentId === named.id)).toMatchObject({
        amount: total,
        invoiceNumbers: [loose.number],
      });
      expect((await rowsOf(b.id)).find((r) => r.paymentId === named.id)).toMatchObject({
        amount: total - 5_000,
        invoiceNumbers: [ib.number],
      });
      await expectRowsSumToPaid(a.id);
      await expectRowsSumToPaid(b.id);
      expect(await storedPaid()).toBe(dashboard + 3 * total);
      await expectStatsEqualRecount();

      // The part held counts once applied, for the lawsuit of the invoice it settles.
      const ib2 = await issue(b.id);
      await ok('POST', entityUrl(retainerMovements), {
        customerId: client,
        date: '2026-08-03',
        kind: 'apply',
        amount: 700,
        invoiceId: ib2.id,
      });
      expect(told()).toEqual([b.id]);
      expect((await fees(b.id)).paid).toBe(total + 700);
      await expectRowsSumToPaid(b.id);
      expect(await storedPaid()).toBe(dashboard + 3 * total + 700);
      await expectStatsEqualRecount();

      // A change of the payment tells both tabs; deleting it takes it off both lawsuits.
      await ok('PATCH', `${paymentsUrl}/${paid.id}`, { notes: 'two lawsuits' });
      expect(told()).toEqual([a.id, b.id]);
      const [paidA, paidB] = [(await fees(a.id)).paid, (await fees(b.id)).paid];
      await ok('DELETE', `${paymentsUrl}/${paid.id}`);
      expect(told()).toEqual([a.id, b.id]);
      expect((await fees(a.id)).paid).toBe(paidA - total);
      expect((await fees(b.id)).paid).toBe(paidB - 5_000);
      await expectRowsSumToPaid(a.id);
      await expectRowsSumToPaid(b.id);
      await expectStatsEqualRecount();
    } finally {
      stop();
    }
  });

  it('splits the payments recorded before by invoice in the migration step, once, and the dashboard follows', async () => {
    const [a, b] = [await lawsuit(), await lawsuit()];
    const [ia, ib, loose] = [await issue(a.id), await issue(b.id), await issue(null)];
    const total = Number(ia.total);
    const split = await ok('POST', paymentsUrl, {
      customerId: client,
      date: '2026-09-01',
      amount: total + 3_000,
      invoiceIds: [ia.id, ib.id],
    });
    // Named for the first lawsuit, settling the second's invoice and one of no lawsuit.
    const named = await ok('POST', paymentsUrl, {
      customerId: client,
      lawsuitId: a.id,
      date: '2026-09-02',
      amount: total - 3_000 + 1_500,
      invoiceIds: [ib.id, loose.id],
    });
    // The second lawsuit's invoice is the older: paid in full first, 1,500 to the one of no lawsuit.
    const expected = { a: total + 1_500, b: total };
    expect([(await fees(a.id)).paid, (await fees(b.id)).paid]).toEqual([expected.a, expected.b]);
    const dashboard = await storedPaid();

    // As the release before the step left them: allocations naming no lawsuit, so each payment
    // counted for the lawsuit it names only (the split one for none), and the kept aggregates so.
    const asBefore = async () => {
      await t.app.db
        .updateTable(ALLOCATIONS)
        .set({ lawsuit_id: null })
        .where('payment_id', 'in', [split.id, named.id])
        .execute();
      await rebuildStats(t.app.db, t.dialect, { force: true });
      expect([(await fees(a.id)).paid, (await fees(b.id)).paid]).toEqual([total - 1_500, 0]);
      expect(await storedPaid()).toBe(dashboard - total - 3_000);
    };
    const expectSplit = async () => {
      expect([(await fees(a.id)).paid, (await fees(b.id)).paid]).toEqual([expected.a, expected.b]);
      await expectRowsSumToPaid(a.id);
      await expectRowsSumToPaid(b.id);
      expect(await storedPaid()).toBe(dashboard);
      await expectStatsEqualRecount();
      const lawsuitsOf = async (paymentId: number) =>
        (
          await t.app.db
            .selectFrom(ALLOCATIONS)
            .select(['invoice_id', 'lawsuit_id'])
            .where('payment_id', '=', paymentId)
            .orderBy('invoice_id')
            .execute()
        ).map((r) => (r.lawsuit_id === null ? null : Number(r.lawsuit_id)));
      expect(await lawsuitsOf(split.id)).toEqual([a.id, b.id]);
      expect(await lawsuitsOf(named.id)).toEqual([b.id, null]);
    };

    // Through the migration runner, on the previous release's schema (no `lawsuit_id` column).
    await asBefore();
    const [step] = migrationNames(MIGRATION_GROUPS).filter((n) =>
      n.endsWith('finance_007_allocation_lawsuits'),
    );
    await sql`drop index finance_payment_allocations_lawsuit_idx`.execute(t.app.db);
    await sql`alter table ${sql.table(ALLOCATIONS)} drop column lawsuit_id`.execute(t.app.db);
    await t.app.db.deleteFrom('kysely_migration').where('name', '=', step!).execute();
    expect(await runMigrations(t.app.db, t.dialect, MIGRATION_GROUPS)).toEqual([step]);
    expect(await runMigrations(t.app.db, t.dialect, MIGRATION_GROUPS)).toEqual([]);
    expect(await backfillAllocationLawsuits(t.app.db, t.dialect)).toBe(0); // at start: nothing left
    await expectSplit();

    // At start, for the payments an instance of an older release wrote meanwhile: once.
    await asBefore();
    expect(await backfillAllocationLawsuits(t.app.db, t.dialect)).toBe(3);
    expect(await backfillAllocationLawsuits(t.app.db, t.dialect)).toBe(0);
    await expectSplit();
  });
});
