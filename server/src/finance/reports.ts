import {
  FINANCE_ROUTES,
  customers,
  CURRENCIES,
  MONEY_SCALE,
  moneyInWords,
  officeCurrency,
  type Currency,
  type InvoicePrint,
  type SystemSettings,
  invoices,
  zatcaTlv,
  type AgingReport,
  type CustomerStatement,
  type InvoiceQr,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Trx } from '../engine/context';
import { actorOf } from '../engine/context';
import { qrDataUrl } from '../files/qrCode';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { readSettings } from '../settings/repository';
import type { ApiRow } from '../engine/serialize';
import { QR_IMAGE, invoiceQrPng, qrAbsence, qrFields } from './qr';
import { INVOICES, LINES, PAYMENTS, RETAINER, col, lawsuitsOfBranch, lineInput, readBilling } from './money';

type Entry = CustomerStatement['entries'][number];
type Db = FastifyInstance['db'];

const day = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const KIND_ORDER = ['invoice', 'creditNote', 'deposit', 'payment', 'apply', 'refund'];

/**
 * A client's statement: issued invoices (owed), issued credit notes, payments to invoices and
 * retainer applications (paid), retainer deposits and refunds (held), in day order with the
 * balance after each line. Everything before `from` is the opening balance.
 */
export async function statementOf(
  db: Db | Trx,
  customerId: number,
  range: { from?: string; to?: string },
  currency: string,
): Promise<CustomerStatement> {
  const issued = await db
    .selectFrom(INVOICES)
    .select(['id', 'kind', 'number', col('issueDate') as 'issue_date', 'total'])
    .where(col('customerId'), '=', customerId)
    .where('state', 'not in', ['draft', 'void'])
    .execute();
  const paid = await db
    .selectFrom(PAYMENTS)
    .select(['id', 'date', 'amount', 'retained', 'reference'])
    .where(col('customerId'), '=', customerId)
    .execute();
  const moves = await db
    .selectFrom(RETAINER)
    .select(['id', 'date', 'kind', 'amount'])
    .where(col('customerId'), '=', customerId)
    .execute();
  const all: Omit<Entry, 'balance' | 'retainer'>[] = [
    ...issued.map((r) => ({
      date: day(r.issue_date),
      kind: r.kind === 'creditNote' ? ('creditNote' as const) : ('invoice' as const),
      id: Number(r.id),
      number: r.number === null ? null : String(r.number),
      debit: r.kind === 'creditNote' ? 0 : num(r.total),
      credit: r.kind === 'creditNote' ? num(r.total) : 0,
    })),
    ...paid.map((r) => ({
      date: day(r.date),
      kind: 'payment' as const,
      id: Number(r.id),
      number: r.reference === null ? null : String(r.reference),
      debit: 0,
      credit: num(r.amount) - num(r.retained),
      // What went beyond the invoices is held for the client.
      held: num(r.retained),
    })),
    ...moves.map((r) => ({
      date: day(r.date),
      kind: r.kind as 'deposit' | 'apply' | 'refund',
      id: Number(r.id),
      number: null,
      // Applying the retainer pays an invoice; deposits and refunds move only what is held.
      debit: 0,
      credit: r.kind === 'apply' ? num(r.amount) : 0,
      held: (r.kind === 'deposit' ? 1 : -1) * num(r.amount),
    })),
  ];
  all.sort(
    (a, b) =>
      a.date.localeCompare(b.date) || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.id - b.id,
  );
  let balance = 0;
  let held = 0;
  let opening = 0;
  const totals = { invoiced: 0, credited: 0, paid: 0 };
  const entries: Entry[] = [];
  for (const line of all) {
    if (range.to && line.date > range.to) break;
    balance += line.debit - line.credit;
    held += (line as { held?: number }).held ?? 0;
    if (range.from && line.date < range.from) {
      opening = balance;
      continue;
    }
    if (line.kind === 'invoice') totals.invoiced += line.debit;
    else if (line.kind === 'creditNote') totals.credited += line.credit;
    else totals.paid += line.credit;
    const { date, kind, id, number, debit, credit } = line;
    entries.push({ date, kind, id, number, debit, credit, balance, retainer: held });
  }
  return { customerId, currency, opening, entries, ...totals, balance, retainer: held };
}

/** Days from `from` to `to` (`YYYY-MM-DD`), by the calendar. */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/**
 * What each client owes at `asOf`, by days past each invoice's due date (0–30, 31–60, 61–90, over
 * 90); with `branchId`, on the invoices of that branch's lawsuits only.
 */
export async function agingOf(
  db: Db | Trx,
  asOf: string,
  currency: string,
  filters: { customerId?: number; branchId?: number } = {},
): Promise<AgingReport> {
  const { customerId, branchId } = filters;
  const rows = await db
    .selectFrom(INVOICES)
    .innerJoin(customers.table, `${customers.table}.id`, `${INVOICES}.${col('customerId')}`)
    .select([
      `${INVOICES}.${col('customerId')} as customer_id`,
      `${customers.table}.name as customer_name`,
      `${INVOICES}.${col('dueDate')} as due_date`,
      `${INVOICES}.due as due`,
    ])
    .where(`${INVOICES}.kind`, '=', 'invoice')
    .where(`${INVOICES}.state`, 'in', ['issued', 'partlyPaid'])
    .where(`${INVOICES}.due`, '>', 0)
    .where(`${INVOICES}.${col('issueDate')}`, '<=', asOf)
    .$if(customerId !== undefined, (q) => q.where(`${INVOICES}.${col('customerId')}`, '=', customerId!))
    .$if(branchId !== undefined, (q) =>
      q.where(`${INVOICES}.${col('lawsuitId')}`, 'in', lawsuitsOfBranch(db, branchId!)),
    )
    .execute();
  const zero = () => ({ days0to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0 });
  const byCustomer = new Map<number, AgingReport['rows'][number]>();
  const totals = zero();
  for (const row of rows) {
    const id = Number(row.customer_id);
    let out = byCustomer.get(id);
    if (!out)
      byCustomer.set(id, (out = { customerId: id, customerName: String(row.customer_name), ...zero() }));
    const late = daysBetween(day(row.due_date), asOf);
    const bucket =
      late <= 30 ? 'days0to30' : late <= 60 ? 'days31to60' : late <= 90 ? 'days61to90' : 'over90';
    const due = num(row.due);
    for (const target of [out, totals]) {
      target[bucket] += due;
      target.total += due;
    }
  }
  return {
    asOf,
    currency,
    rows: [...byCustomer.values()].sort((a, b) => b.total - a.total || a.customerId - b.customerId),
    totals,
  };
}

async function qrOf(settings: SystemSettings, invoice: ApiRow): Promise<InvoiceQr> {
  const fields = qrFields(settings, invoice);
  const tlv = zatcaTlv(fields);
  return { tlv, png: await qrDataUrl(tlv, QR_IMAGE), fields };
}

/** The QR code route, the print data and the statement (call once per app, from the finance plugin); the reports are `reportRows.ts`. */
export function registerFinanceReports(app: FastifyInstance): void {
  defineRoute(app, FINANCE_ROUTES.invoiceQr, {
    handler: async (request, { params, query }, reply) => {
      const invoice = await app.entities.get(invoices.name).get(params.id, actorOf(request));
      const settings = await readSettings(app.db);
      const absent = qrAbsence(settings, invoice);
      if (absent) throw new AppError('conflict', { messageKey: `legal.invoices.${absent}` });
      if (query.format === 'png') {
        const png = (await invoiceQrPng(settings, invoice))!;
        return reply.type('image/png').header('cache-control', 'private, no-store').send(png);
      }
      return { data: await qrOf(settings, invoice) };
    },
  });

  defineRoute(app, FINANCE_ROUTES.invoicePrint, {
    handler: async (request, { params }) => {
      const invoice = await app.entities.get(invoices.name).get(params.id, actorOf(request));
      const settings = await readSettings(app.db);
      const currency = invoice.currency
        ? (CURRENCIES as Record<string, Currency>)[String(invoice.currency)]
        : undefined;
      const money = currency ?? officeCurrency(settings);
      const rows = await app.db
        .selectFrom(LINES)
        .selectAll()
        .where(col('invoiceId'), '=', invoice.id)
        .orderBy('order')
        .orderBy('id')
        .execute();
      const customer = await app.db
        .selectFrom(customers.table)
        .select('name')
        .where('id', '=', invoice.customerId as number)
        .executeTakeFirst();
      const original = invoice.creditOfId
        ? await app.db
            .selectFrom(INVOICES)
            .select('number')
            .where('id', '=', invoice.creditOfId as number)
            .executeTakeFirst()
        : undefined;
      const total = Number(invoice.total ?? 0);
      const saudi =
        settings.officeCountry === 'SA' &&
        settings.vatNumber &&
        invoice.state !== 'draft' &&
        invoice.issuedAt;
      const data: InvoicePrint = {
        lines: rows.map((r) => ({
          description: String(r.description),
          ...lineInput(r),
          net: num(r.net),
          vat: num(r.vat),
          total: num(r.total),
        })),
        office: {
          name: settings.officeName,
          address: settings.address,
          phone: settings.phone,
          email: settings.email,
          vatNumber: settings.vatNumber,
          logoUrl: settings.logoUrl,
          primaryColor: settings.primaryColor,
          currency: money.code,
        },
        customerName: String(customer?.name ?? ''),
        creditOfNumber: original?.number ? String(original.number) : null,
        words: {
          ar: moneyInWords(total, money, MONEY_SCALE, 'ar'),
          en: moneyInWords(total, money, MONEY_SCALE, 'en'),
        },
        qr: saudi ? await qrOf(settings, invoice) : null,
      };
      return { data };
    },
  });

  defineRoute(app, FINANCE_ROUTES.customerStatement, {
    labels: 'legal.reports.fields',
    handler: async (request, { params, query }) => {
      // Through the clients service: 404 for a client that does not exist or is out of scope.
      const customer = await app.entities.get(customers.name).get(params.id, actorOf(request));
      const billing = await readBilling(app.db);
      return { data: await statementOf(app.db, customer.id, query, billing.currency) };
    },
  });
}
