import { lawsuits, payments } from '@mizan/contracts';
import { sql } from 'kysely';
import { exclusively, type Db, type Dialect, tableNames, tableColumns } from '../db';
import { joinTableName } from '../db/migrations';
import { applyDelta, difference, recount, statsBuilt } from '../dashboard/stats';
import { ALLOCATIONS, INVOICES, PAYMENTS, col } from './money';

/**
 * Gives a lawsuit to the payments recorded before a payment took it from its invoices: a payment
 * that names no lawsuit, is no fees ledger entry's, and whose named invoices (`invoiceIds`) are all
 * for one lawsuit is for that lawsuit, as `beforeCreate` decides for a new one (payments.ts). A
 * payment whose invoices are for several lawsuits, or for none, keeps none: a new one would too.
 * The dashboard's aggregates of the lawsuits concerned are moved by what they gained, in the same
 * transaction (when they are built; else the start builds them from the tables).
 *
 * The `finance_006` migration step, and again at start (a rolling upgrade's previous instances),
 * under a lock on PostgreSQL; safe to repeat: a payment that has its lawsuit is left alone. Returns
 * how many payments were given one.
 */
export async function backfillPaymentLawsuits(db: Db, dialect: Dialect): Promise<number> {
  return exclusively(db, dialect, BACKFILL_LOCK, (trx) => backfill(trx, dialect));
}

/** The advisory lock of `backfillPaymentLawsuits` on PostgreSQL. */
const BACKFILL_LOCK = 7_204_312;

/** Lawsuits per statement (within SQLite's bound-parameter limit). */
const CHUNK = 500;

const NAMED = joinTableName(payments, 'invoiceIds');
const LAWSUIT = col('lawsuitId');

async function backfill(db: Db, dialect: Dialect): Promise<number> {
  const tables = await tableNames(db);
  if (![PAYMENTS, INVOICES, NAMED, lawsuits.table].every((t) => tables.has(t))) return 0;
  const lawsuit = sql.ref(`i.${LAWSUIT}`);
  const found = await sql<{ payment: number | string; lawsuit: number | string }>`
    select x.payment, x.lawsuit from (
      select p.id as payment, min(${lawsuit}) as lawsuit
      from ${sql.table(PAYMENTS)} p
      join ${sql.table(NAMED)} k on k.owner_id = p.id
      join ${sql.table(INVOICES)} i on i.id = k.ref_id
      where ${sql.ref(`p.${LAWSUIT}`)} is null and ${sql.ref(`p.${col('ledgerEntryId')}`)} is null
      group by p.id
      having count(${lawsuit}) = count(*) and min(${lawsuit}) = max(${lawsuit})
    ) x
    join ${sql.table(lawsuits.table)} l on l.id = x.lawsuit
    order by x.payment`.execute(db);
  if (!found.rows.length) return 0;
  const byLawsuit = new Map<number, number[]>();
  for (const r of found.rows) {
    const list = byLawsuit.get(Number(r.lawsuit)) ?? [];
    list.push(Number(r.payment));
    byLawsuit.set(Number(r.lawsuit), list);
  }
  const counted = await statsBuilt(db);
  const ids = [...byLawsuit.keys()].sort((a, b) => a - b);
  for (let at = 0; at < ids.length; at += CHUNK) {
    const part = ids.slice(at, at + CHUNK);
    const filter = { kinds: ['lawsuit'] as const, lawsuitIds: part };
    const before = counted ? await recount(db, dialect, filter) : [];
    for (const lawsuitId of part) {
      const paymentIds = byLawsuit.get(lawsuitId)!;
      for (let p = 0; p < paymentIds.length; p += CHUNK)
        await db
          .updateTable(PAYMENTS)
          .set({ [LAWSUIT]: lawsuitId })
          .where('id', 'in', paymentIds.slice(p, p + CHUNK))
          .where(LAWSUIT, 'is', null)
          .execute();
    }
    if (counted) await applyDelta(db, difference(before, await recount(db, dialect, filter)));
  }
  return found.rows.length;
}

/**
 * Gives each allocation of a payment to an invoice (`finance_payment_allocations`) the lawsuit of
 * that invoice, as a new payment's are written (payments.ts), so that what a payment settled of an
 * invoice counts for the invoice's lawsuit (lawsuitFees.ts): a payment settling invoices of several
 * lawsuits is split by invoice, and one settling invoices of another lawsuit than the one it names
 * counts for theirs. An allocation without its lawsuit counts with the rest of its payment, for the
 * lawsuit the payment names (what it counted for before), so the dashboard's aggregates of the
 * lawsuits concerned (the invoices' and the payments' own) are moved by what a recount of them gives
 * before and after, in the same transaction (when they are built; else the start builds them).
 *
 * The `finance_007` migration step, and again at start for the payments an instance of an older
 * release wrote meanwhile, under a lock on PostgreSQL; safe to repeat: an allocation that has its
 * lawsuit is left alone, and one to an invoice of no lawsuit keeps none. Returns how many
 * allocations were given one.
 */
export async function backfillAllocationLawsuits(db: Db, dialect: Dialect): Promise<number> {
  return exclusively(db, dialect, SPLIT_LOCK, (trx) => split(trx, dialect));
}

/** The advisory lock of `backfillAllocationLawsuits` on PostgreSQL. */
const SPLIT_LOCK = 7_204_313;

async function split(db: Db, dialect: Dialect): Promise<number> {
  const names = await tableNames(db);
  if (![PAYMENTS, INVOICES, lawsuits.table].every((t) => names.has(t))) return 0;
  if (!(await tableColumns(db, ALLOCATIONS))?.has('lawsuit_id')) return 0;
  const found = await sql<{
    payment: number | string;
    own: number | string | null;
    lawsuit: number | string;
  }>`
    select a.payment_id as payment, ${sql.ref(`p.${LAWSUIT}`)} as own, ${sql.ref(`i.${LAWSUIT}`)} as lawsuit
    from ${sql.table(ALLOCATIONS)} a
    join ${sql.table(PAYMENTS)} p on p.id = a.payment_id
    join ${sql.table(INVOICES)} i on i.id = a.invoice_id
    join ${sql.table(lawsuits.table)} l on l.id = ${sql.ref(`i.${LAWSUIT}`)}
    where a.lawsuit_id is null
    order by a.payment_id`.execute(db);
  if (!found.rows.length) return 0;
  // The lawsuits each payment's allocations move money between: its own and its invoices'.
  const touched = new Map<number, Set<number>>();
  for (const r of found.rows) {
    const set = touched.get(Number(r.payment)) ?? new Set<number>();
    set.add(Number(r.lawsuit));
    if (r.own !== null) set.add(Number(r.own));
    touched.set(Number(r.payment), set);
  }
  const counted = await statsBuilt(db);
  // Payments in parts whose lawsuits stay within a statement's bound parameters (a payment names
  // at most 50 invoices).
  const parts: { payments: number[]; lawsuits: Set<number> }[] = [];
  for (const [payment, lawsuitIds] of touched) {
    let part = parts.at(-1);
    if (!part || part.lawsuits.size + lawsuitIds.size > CHUNK)
      parts.push((part = { payments: [], lawsuits: new Set() }));
    part.payments.push(payment);
    for (const id of lawsuitIds) part.lawsuits.add(id);
  }
  const invoiceLawsuit = sql`(select ${sql.ref(`si.${LAWSUIT}`)} from ${sql.table(INVOICES)} si
    join ${sql.table(lawsuits.table)} sl on sl.id = ${sql.ref(`si.${LAWSUIT}`)}
    where si.id = ${sql.ref(`${ALLOCATIONS}.invoice_id`)})`;
  for (const part of parts) {
    const filter = { kinds: ['lawsuit'] as const, lawsuitIds: [...part.lawsuits].sort((a, b) => a - b) };
    const before = counted ? await recount(db, dialect, filter) : [];
    await db
      .updateTable(ALLOCATIONS)
      .set({ lawsuit_id: invoiceLawsuit })
      .where('payment_id', 'in', part.payments)
      .where('lawsuit_id', 'is', null)
      .where(() => sql<boolean>`${invoiceLawsuit} is not null`)
      .execute();
    if (counted) await applyDelta(db, difference(before, await recount(db, dialect, filter)));
  }
  return found.rows.length;
}
