import {
  dayInZone,
  expenses,
  feeInstalments,
  invoiceLines,
  invoiceTotals,
  invoices,
  lawsuits,
  lineFigures,
  officeCurrency,
  officeVatRate,
  payments,
  retainerMovements,
  settledState,
  timeEntries,
  type InvoiceTotals,
  type LineInput,
  type VatRounding,
} from '@mizan/contracts';
import type { Db, Dialect } from '../db';
import { toBoolean } from '../db';
import { columnName } from '../db/migrations';
import type { Trx } from '../engine/context';
import { AppError } from '../http/errors';
import { readSettings } from '../settings/repository';

/**
 * The office's money on the database, shared by invoices, payments, the retainer and the reports:
 * the billing settings, row locks, line and invoice totals (`invoicing.ts` in the contracts does
 * the arithmetic), what an invoice has been paid and credited, and a client's retainer balance.
 * Every figure is an integer of minor units.
 */

export const col = columnName;
export const INVOICES = invoices.table;
export const LINES = invoiceLines.table;
export const PAYMENTS = payments.table;
export const RETAINER = retainerMovements.table;
export const TIME_ENTRIES = timeEntries.table;
export const EXPENSES = expenses.table;
export const INSTALMENTS = feeInstalments.table;
/** How much of a payment went to which invoice (finance_003_invoices). */
export const ALLOCATIONS = 'finance_payment_allocations';
/** The last number given per series (`invoice`, `creditNote`) and year (finance_003_invoices). */
export const COUNTERS = 'finance_invoice_counters';

/** What invoices need of the system settings. */
export interface Billing {
  currency: string;
  vatRate: number;
  vatRounding: VatRounding;
  vatNumber: string | null;
  sellerName: string;
  country: string;
  timeZone: string;
}

export async function readBilling(trx: Db | Trx): Promise<Billing> {
  const s = await readSettings(trx);
  return {
    currency: officeCurrency(s).code,
    vatRate: officeVatRate(s),
    vatRounding: s.vatRounding,
    vatNumber: s.vatNumber,
    sellerName: s.officeName,
    country: s.officeCountry,
    timeZone: s.timeZone,
  };
}

/** Today in the office's time zone at `now`. */
export const billingDay = (billing: Billing, now: Date) => dayInZone(billing.timeZone, now);

/**
 * Locks a row until the transaction ends (PostgreSQL `SELECT … FOR UPDATE`; SQLite runs one write
 * transaction at a time) and answers it as stored, or undefined when there is none.
 */
export async function lockRow(
  trx: Trx,
  dialect: Dialect,
  table: string,
  id: number,
): Promise<Record<string, unknown> | undefined> {
  let query = trx.selectFrom(table).selectAll().where('id', '=', id);
  if (dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst() as Promise<Record<string, unknown> | undefined>;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** A stored line as `lineFigures` reads it. */
export const lineInput = (row: Record<string, unknown>): LineInput => ({
  quantity: num(row[col('quantity')]),
  unitPrice: num(row[col('unitPrice')]),
  discount: num(row[col('discount')]),
  vatExempt: toBoolean(row[col('vatExempt')] as boolean | number),
});

/** A 422 on one field of `entity`. */
export const invalid = (
  entity: string,
  field: string,
  key: string,
  params?: Record<string, string | number>,
) => new AppError('validation', { entity, errors: { [field]: [{ key, params }] } });

/** A line's figures at `rateBps`, or 422 on `discount` when it is above the line's amount. */
export function checkedLine(line: LineInput, rateBps: number) {
  try {
    return lineFigures(line, rateBps);
  } catch {
    throw invalid(invoiceLines.name, 'discount', 'legal.invoices.discountAboveLine');
  }
}

/**
 * Recomputes the stored figures of an invoice's lines and its totals at `rateBps` and `rounding`
 * (a draft at the current settings; an invoice being issued at the figures it freezes). Answers
 * the totals and how many lines it has.
 */
export async function recomputeInvoice(
  trx: Trx,
  invoiceId: number,
  rateBps: number,
  rounding: VatRounding,
): Promise<InvoiceTotals & { lines: number }> {
  const rows = (await trx
    .selectFrom(LINES)
    .selectAll()
    .where(col('invoiceId'), '=', invoiceId)
    .execute()) as Record<string, unknown>[];
  const inputs = rows.map(lineInput);
  for (const [i, row] of rows.entries()) {
    const figures = checkedLine(inputs[i]!, rateBps);
    if (num(row.net) !== figures.net || num(row.vat) !== figures.vat || num(row.total) !== figures.total)
      await trx
        .updateTable(LINES)
        .set({ net: figures.net, vat: figures.vat, total: figures.total })
        .where('id', '=', Number(row.id))
        .execute();
  }
  const totals = invoiceTotals(inputs, rateBps, rounding);
  const invoice = await trx
    .selectFrom(INVOICES)
    .select(['paid', 'credited'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  await trx
    .updateTable(INVOICES)
    .set({
      gross: totals.gross,
      discount: totals.discount,
      subtotal: totals.subtotal,
      [col('vatTotal')]: totals.vatTotal,
      total: totals.total,
      due: totals.total - num(invoice?.paid) - num(invoice?.credited),
    })
    .where('id', '=', invoiceId)
    .execute();
  return { ...totals, lines: rows.length };
}

/** What was paid on each invoice: payments' allocations plus retainer applied to it. */
export async function paidOn(trx: Trx, invoiceId: number): Promise<number> {
  const allocated = await trx
    .selectFrom(ALLOCATIONS)
    .select((eb) => eb.fn.sum<string | number>('amount').as('sum'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  const applied = await trx
    .selectFrom(RETAINER)
    .select((eb) => eb.fn.sum<string | number>('amount').as('sum'))
    .where(col('invoiceId'), '=', invoiceId)
    .where('kind', '=', 'apply')
    .executeTakeFirst();
  return num(allocated?.sum) + num(applied?.sum);
}

/** What issued credit notes took off an invoice. */
export async function creditedOn(trx: Trx, invoiceId: number): Promise<number> {
  const row = await trx
    .selectFrom(INVOICES)
    .select((eb) => eb.fn.sum<string | number>('total').as('sum'))
    .where(col('creditOfId'), '=', invoiceId)
    .where('kind', '=', 'creditNote')
    .where('state', 'not in', ['draft', 'void'])
    .executeTakeFirst();
  return num(row?.sum);
}

/**
 * Recounts what an issued invoice was paid and credited, what it still owes and so its state
 * (issued, partly paid, paid); a draft, a void invoice and a credit note keep theirs.
 */
export async function settleInvoice(trx: Trx, invoiceId: number): Promise<void> {
  const row = await trx
    .selectFrom(INVOICES)
    .select(['state', 'kind', 'total'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!row || row.kind !== 'invoice' || row.state === 'draft' || row.state === 'void') return;
  const total = num(row.total);
  const paid = await paidOn(trx, invoiceId);
  const credited = await creditedOn(trx, invoiceId);
  const due = total - paid - credited;
  await trx
    .updateTable(INVOICES)
    .set({ paid, credited, due, state: settledState(total, due) })
    .where('id', '=', invoiceId)
    .execute();
}

/** A client's retainer balance: deposits and payments' retained parts, less applications and refunds. */
export async function retainerBalance(trx: Db | Trx, customerId: number): Promise<number> {
  const retained = await trx
    .selectFrom(PAYMENTS)
    .select((eb) => eb.fn.sum<string | number>('retained').as('sum'))
    .where(col('customerId'), '=', customerId)
    .executeTakeFirst();
  const rows = await trx
    .selectFrom(RETAINER)
    .select((eb) => ['kind', eb.fn.sum<string | number>('amount').as('sum')])
    .where(col('customerId'), '=', customerId)
    .groupBy('kind')
    .execute();
  return rows.reduce((sum, r) => sum + (r.kind === 'deposit' ? 1 : -1) * num(r.sum), num(retained?.sum));
}

/** Ids of the rows (time entries, expenses, fee instalments) billed on a line of an invoice not void. */
/** The lawsuits of branch `branchId`, as a subquery (the finance reports per branch). */
export const lawsuitsOfBranch = (db: Db | Trx, branchId: number) =>
  db.selectFrom(lawsuits.table).select('id').where(col('branchId'), '=', branchId);

export const billedIds = (trx: Db | Trx, field: 'timeEntryId' | 'expenseId' | 'instalmentId') =>
  trx
    .selectFrom(LINES)
    .innerJoin(INVOICES, `${INVOICES}.id`, `${LINES}.${col('invoiceId')}`)
    .select(`${LINES}.${col(field)}`)
    .where(`${LINES}.${col(field)}`, 'is not', null)
    .where(`${INVOICES}.state`, '!=', 'void');
