import { lawsuitPayments, type LawsuitFeeRow } from '@mizan/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db';
import { preparedOnPostgres, toBoolean } from '../db';
import type { Trx } from '../engine/context';
import { present } from '../http/values';
import { ALLOCATIONS, INVOICES, PAYMENTS, RETAINER, col } from './money';

/**
 * What counts as paid towards a lawsuit's fee, in one place for the fees tab (its figures and its
 * rows), the agreed-fee checks and the dashboard (kept and recounted):
 *
 * - what a payment settled of an invoice (its allocation, `finance_payment_allocations`), for the
 *   lawsuit of that invoice (`lawsuit_id` of the allocation, written with it);
 * - the rest of a payment naming the lawsuit: its amount less what of it was held in the client's
 *   retainer and less what it settled of invoices of a lawsuit (a fees ledger entry's payment,
 *   ledger.ts, settles none: all of it; a payment of invoices of no lawsuit: what it settled);
 * - the client's retainer applied to an invoice of the lawsuit.
 *
 * Each amount once: a payment settling invoices of several lawsuits counts for each by what it
 * settled of its invoices; money held in the retainer counts only when it is applied, and then for
 * the lawsuit of the invoice it settles; a deposit alone never counts.
 */

const LAWSUIT = col('lawsuitId');
const LEDGER = lawsuitPayments.table;

/**
 * Correlated SQL: what of payment `paymentId` (a column reference) went to invoices of a lawsuit,
 * so is counted for that lawsuit rather than for the payment's own.
 */
const settledForLawsuits = (paymentId: RawBuilder<unknown>) =>
  sql<number>`coalesce((select sum(sa.amount) from ${sql.table(ALLOCATIONS)} sa
    where sa.payment_id = ${paymentId} and sa.lawsuit_id is not null), 0)`;

/** What of a payment (alias `alias`) counts for the lawsuit it names: its rest (see above). */
const restOf = (alias: string) =>
  sql<number>`${sql.ref(`${alias}.${col('amount')}`)} - ${sql.ref(`${alias}.${col('retained')}`)} - ${settledForLawsuits(sql.ref(`${alias}.id`))}`;

/** Correlated SQL: what the lawsuit whose id is `lawsuitId` (a column reference) was paid. */
export function paidSql(lawsuitId: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`(coalesce((select sum(${restOf('pp')})
      from ${sql.table(PAYMENTS)} pp where ${sql.ref(`pp.${LAWSUIT}`)} = ${lawsuitId}), 0)
    + coalesce((select sum(pa.amount) from ${sql.table(ALLOCATIONS)} pa where pa.lawsuit_id = ${lawsuitId}), 0)
    + coalesce((select sum(rm.amount) from ${sql.table(RETAINER)} rm
      inner join ${sql.table(INVOICES)} ri on ri.id = ${sql.ref(`rm.${col('invoiceId')}`)}
      where rm.kind = 'apply' and ${sql.ref(`ri.${LAWSUIT}`)} = ${lawsuitId}), 0))`;
}

/**
 * What each of `lawsuitIds` was paid, exact integers, leaving out the payment of ledger entry
 * `exceptEntryId` (a ledger entry being changed, checked against the fee without itself).
 */
export async function paidByLawsuit(
  db: Db | Trx,
  lawsuitIds: readonly number[],
  exceptEntryId?: number,
): Promise<Map<number, number>> {
  const paid = new Map<number, number>();
  if (!lawsuitIds.length) return paid;
  const add = (id: unknown, amount: unknown) =>
    paid.set(Number(id), (paid.get(Number(id)) ?? 0) + Number(amount ?? 0));
  let payments = db
    .selectFrom(`${PAYMENTS} as p`)
    .select(() => [`p.${LAWSUIT} as lawsuit`, sql<string | number>`sum(${restOf('p')})`.as('paid')])
    .where(`p.${LAWSUIT}`, 'in', lawsuitIds)
    .groupBy(`p.${LAWSUIT}`);
  if (exceptEntryId !== undefined)
    payments = payments.where((eb) =>
      eb.or([
        eb(`p.${col('ledgerEntryId')}`, 'is', null),
        eb(`p.${col('ledgerEntryId')}`, '!=', exceptEntryId),
      ]),
    );
  const settled = db
    .selectFrom(ALLOCATIONS)
    .select((eb) => ['lawsuit_id as lawsuit', eb.fn.sum<string | number>('amount').as('paid')])
    .where('lawsuit_id', 'in', lawsuitIds)
    .groupBy('lawsuit_id');
  const applied = db
    .selectFrom(`${RETAINER} as rm`)
    .innerJoin(`${INVOICES} as i`, 'i.id', `rm.${col('invoiceId')}`)
    .select((eb) => [`i.${LAWSUIT} as lawsuit`, eb.fn.sum<string | number>('rm.amount').as('paid')])
    .where('rm.kind', '=', 'apply')
    .where(`i.${LAWSUIT}`, 'in', lawsuitIds)
    .groupBy(`i.${LAWSUIT}`);
  // The three parts in one statement, added up here. PostgreSQL answers SUM(bigint) as numeric
  // text; amounts stay far below 2^53 (MONEY_MAX).
  const query = payments.unionAll(settled).unionAll(applied).compile();
  // One lawsuit's (its page, the answer to its create or edit): parsed and planned once per
  // PostgreSQL connection, run by name after (planning it cost more than running it).
  if (lawsuitIds.length === 1 && exceptEntryId === undefined) preparedOnPostgres(query.sql);
  for (const r of (await db.executeQuery(query)).rows) add(r.lawsuit, r.paid);
  return paid;
}

/**
 * What of lawsuit `lawsuitId`'s paid total binds its agreed fee: all of it but the ledger entries
 * marked as overpayments (accepted beyond the fee).
 */
export async function paidWithinFee(trx: Trx, lawsuitId: number, overpaymentTrue: boolean | number) {
  const payments = await trx
    .selectFrom(`${PAYMENTS} as p`)
    .select(() => sql<string | number>`sum(${restOf('p')})`.as('paid'))
    .where(`p.${LAWSUIT}`, '=', lawsuitId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom(`${LEDGER} as lp`)
            .select('lp.id')
            .whereRef('lp.id', '=', `p.${col('ledgerEntryId')}`)
            .where(`lp.${col('overpayment')}`, '=', overpaymentTrue),
        ),
      ),
    )
    .executeTakeFirst();
  const settled = await trx
    .selectFrom(ALLOCATIONS)
    .select((eb) => eb.fn.sum<string | number>('amount').as('paid'))
    .where('lawsuit_id', '=', lawsuitId)
    .executeTakeFirst();
  const applied = (await paidByAppliedRetainer(trx, lawsuitId)) ?? 0;
  return Number(payments?.paid ?? 0) + Number(settled?.paid ?? 0) + applied;
}

async function paidByAppliedRetainer(trx: Db | Trx, lawsuitId: number): Promise<number> {
  const row = await trx
    .selectFrom(`${RETAINER} as rm`)
    .innerJoin(`${INVOICES} as i`, 'i.id', `rm.${col('invoiceId')}`)
    .select((eb) => eb.fn.sum<string | number>('rm.amount').as('paid'))
    .where('rm.kind', '=', 'apply')
    .where(`i.${LAWSUIT}`, '=', lawsuitId)
    .executeTakeFirst();
  return Number(row?.paid ?? 0);
}

/** The lawsuit an invoice is for, or null. */
export async function lawsuitOfInvoice(trx: Db | Trx, invoiceId: unknown): Promise<number | null> {
  if (typeof invoiceId !== 'number') return null;
  const row = await trx.selectFrom(INVOICES).select(LAWSUIT).where('id', '=', invoiceId).executeTakeFirst();
  const id = row?.[LAWSUIT];
  return id === null || id === undefined ? null : Number(id);
}

const text = (v: unknown) => (present(v) ? String(v) : null);
const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

/**
 * Every row of lawsuit `lawsuitId`'s fees tab, newest first: its payments whose counted part is
 * above zero (ledger entries and payments recorded under Finance, with the invoices they settled
 * for it; a payment settling invoices of several lawsuits is a row of each, for what it settled of
 * its invoices) and the retainer applied to its invoices. Their amounts sum to what
 * `paidByLawsuit` answers.
 */
export async function feeRows(db: Db | Trx, lawsuitId: number): Promise<LawsuitFeeRow[]> {
  const payments = (await db
    .selectFrom(PAYMENTS)
    .selectAll()
    .where((eb) =>
      eb.or([
        eb(LAWSUIT, '=', lawsuitId),
        eb('id', 'in', eb.selectFrom(ALLOCATIONS).select('payment_id').where('lawsuit_id', '=', lawsuitId)),
      ]),
    )
    .execute()) as Record<string, unknown>[];
  const paymentIds = payments.map((p) => Number(p.id));
  const allocations = paymentIds.length
    ? await db
        .selectFrom(`${ALLOCATIONS} as a`)
        .innerJoin(`${INVOICES} as i`, 'i.id', 'a.invoice_id')
        .select([
          'a.payment_id as payment',
          'a.amount as amount',
          'a.lawsuit_id as lawsuit',
          'i.number as number',
          'i.id as invoice',
        ])
        .where('a.payment_id', 'in', paymentIds)
        .orderBy('i.id')
        .execute()
    : [];
  const ownLawsuit = new Map(
    payments.map((p) => [Number(p.id), p[LAWSUIT] === null ? null : Number(p[LAWSUIT])]),
  );
  /** Per payment: the invoices it settled for this lawsuit, and what of it counts for another. */
  const numbersOf = new Map<number, string[]>();
  const elsewhere = new Map<number, number>();
  const settledHere = new Map<number, number>();
  for (const a of allocations) {
    const payment = Number(a.payment);
    const lawsuit = a.lawsuit === null || a.lawsuit === undefined ? null : Number(a.lawsuit);
    if (lawsuit !== null) elsewhere.set(payment, (elsewhere.get(payment) ?? 0) + Number(a.amount));
    if (lawsuit === lawsuitId) settledHere.set(payment, (settledHere.get(payment) ?? 0) + Number(a.amount));
    if (lawsuit === lawsuitId || (lawsuit === null && ownLawsuit.get(payment) === lawsuitId)) {
      const list = numbersOf.get(payment) ?? [];
      list.push(String(a.number ?? a.invoice));
      numbersOf.set(payment, list);
    }
  }
  const entryIds = payments.map((p) => p[col('ledgerEntryId')]).filter((v) => v !== null && v !== undefined);
  const overpayments = new Set(
    entryIds.length
      ? (
          await db
            .selectFrom(LEDGER)
            .select(['id', col('overpayment')])
            .where('id', 'in', entryIds.map(Number))
            .execute()
        )
          .filter((r) => toBoolean(r[col('overpayment')]))
          .map((r) => Number(r.id))
      : [],
  );
  const rows: LawsuitFeeRow[] = [];
  for (const p of payments) {
    const id = Number(p.id);
    const rest =
      ownLawsuit.get(id) === lawsuitId
        ? Number(p.amount) - Number(p.retained ?? 0) - (elsewhere.get(id) ?? 0)
        : 0;
    const amount = rest + (settledHere.get(id) ?? 0);
    if (amount <= 0) continue;
    const entry = p[col('ledgerEntryId')];
    const ledgerEntryId = entry === null || entry === undefined ? null : Number(entry);
    rows.push({
      key: `payment-${String(p.id)}`,
      source: ledgerEntryId === null ? 'payment' : 'ledger',
      date: day(p.date),
      amount,
      method: text(p.method),
      reference: text(p.reference),
      invoiceNumbers: numbersOf.get(Number(p.id)) ?? [],
      overpayment: ledgerEntryId !== null && overpayments.has(ledgerEntryId),
      note: text(p.notes),
      ledgerEntryId,
      paymentId: Number(p.id),
      retainerMovementId: null,
    });
  }
  const applied = await db
    .selectFrom(`${RETAINER} as rm`)
    .innerJoin(`${INVOICES} as i`, 'i.id', `rm.${col('invoiceId')}`)
    .select([
      'rm.id as id',
      'rm.date as date',
      'rm.amount as amount',
      'rm.notes as notes',
      'i.number as number',
      'i.id as invoice',
    ])
    .where('rm.kind', '=', 'apply')
    .where(`i.${LAWSUIT}`, '=', lawsuitId)
    .execute();
  for (const r of applied)
    rows.push({
      key: `retainer-${String(r.id)}`,
      source: 'retainer',
      date: day(r.date),
      amount: Number(r.amount),
      method: null,
      reference: null,
      invoiceNumbers: [String(r.number ?? r.invoice)],
      overpayment: false,
      note: text(r.notes),
      ledgerEntryId: null,
      paymentId: null,
      retainerMovementId: Number(r.id),
    });
  return rows.sort((a, b) => b.date.localeCompare(a.date) || b.key.localeCompare(a.key));
}
