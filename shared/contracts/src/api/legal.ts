import { z } from 'zod';
import type { EntityRecord } from '../entity';
import type { sessions } from '../entities/hearings';
import { permissionKey } from '../permissions';
import { answer, route } from '../route';

/** A party of a hearing's lawsuit as a hearing row names it: id and stored name. */
export interface LawsuitParty {
  id: number;
  name: string;
}

/**
 * What a hearing row carries of its lawsuit, for the calendar and the printable hearing roll:
 * the court's case number and year (null when not recorded) and the parties, our clients and the
 * opponents, each ordered by id.
 *
 * @example { caseNumber: '1234', caseYear: 2026, customers: [{ id: 3, name: 'أحمد إبراهيم' }], opponents: [] }
 */
export interface LawsuitInfo {
  caseNumber: string | null;
  caseYear: number | null;
  customers: LawsuitParty[];
  opponents: LawsuitParty[];
}

/**
 * A hearing as the API returns it: `nextId`, the hearing it was postponed to (or null), and
 * `lawsuitInfo`, its lawsuit's case number and parties (see `LawsuitInfo`).
 */
export type SessionRow = EntityRecord<typeof sessions> & { nextId: number | null; lawsuitInfo: LawsuitInfo };

/**
 * The `data` of `GET …/sessions/:id/chain`: the hearings linked by postponement (`previousId`),
 * from the first to the last, the asked one among them. A hearing never postponed and not
 * reached by a postponement is a chain of one.
 */
export interface SessionChain {
  items: SessionRow[];
}

export const sessionChain = z.object({
  items: z.array(z.object({ id: z.int(), previousId: z.int().nullable(), date: z.string() }).loose()),
});

/**
 * The fee figures of a lawsuit, amounts in minor units (see money.ts), exact integers:
 * - `agreedFee`: the lawsuit's agreed fee (0 when none is recorded);
 * - `paid`: the sum of its payments; `pending`: what is left, never below 0;
 * - `overpaid`: what was paid beyond the agreed fee (payments marked as overpayments), else 0;
 * - `collectionRate`: paid as a whole percentage of the agreed fee (see `collectionRate`), null
 *   when no fee is agreed.
 */
export const lawsuitFees = z.object({
  agreedFee: z.int(),
  paid: z.int(),
  pending: z.int(),
  overpaid: z.int(),
  collectionRate: z.int().nullable(),
});
export type LawsuitFees = z.infer<typeof lawsuitFees>;

/**
 * Paid as a whole percentage of the agreed fee, exactly (integer arithmetic on BigInt, no float):
 * rounded to the nearest percent with halves up (1/8 → 13), except that it reads 100 only once
 * nothing is pending (99.5% → 99) and 0 only while nothing is paid (0.4% → 1), so the rate never
 * contradicts the amounts beside it. Above 100 when overpaid. Null when no fee is agreed.
 *
 * @example collectionRate(1, 3) // 33
 * @example collectionRate(995, 1000) // 99
 * @example collectionRate(1100, 1000) // 110
 */
export function collectionRate(paid: number, agreedFee: number): number | null {
  if (agreedFee <= 0) return null;
  const p = BigInt(paid);
  const a = BigInt(agreedFee);
  // round(p * 100 / a) with halves up = floor((200p + a) / 2a)
  let rate = Number((200n * p + a) / (2n * a));
  if (paid < agreedFee) rate = Math.min(rate, 99);
  if (paid > 0) rate = Math.max(rate, 1);
  return rate;
}

/** The fee figures from the agreed fee (null: none recorded) and the sum of the payments. */
export function lawsuitFeeFigures(agreedFee: number | null, paid: number): LawsuitFees {
  const agreed = agreedFee ?? 0;
  return {
    agreedFee: agreed,
    paid,
    pending: Math.max(agreed - paid, 0),
    overpaid: Math.max(paid - agreed, 0),
    collectionRate: collectionRate(paid, agreed),
  };
}

/**
 * Where a row of a lawsuit's fees tab came from: an entry of the fees ledger (`ledger`), a payment
 * recorded under Finance (`payment`, settling the invoices it names or none), or the client's
 * retainer applied to an invoice of the lawsuit (`retainer`).
 */
export const FEE_ROW_SOURCES = ['ledger', 'payment', 'retainer'] as const;
export type FeeRowSource = (typeof FEE_ROW_SOURCES)[number];

/**
 * One row of a lawsuit's fees tab: what counts towards its fee, each once (the sum of `amount` is
 * the `paid` of `LawsuitFees`). `amount` is what counts (a payment's part held in the retainer is
 * left out; it counts when applied to an invoice of the lawsuit, as a `retainer` row; a payment
 * settling invoices of several lawsuits is a row of each, for what it settled of that lawsuit's);
 * `invoiceNumbers` the invoices it settled for the lawsuit; `ledgerEntryId` the ledger entry to edit or delete
 * (ledger rows only); `paymentId` or `retainerMovementId` the record it is.
 */
export const lawsuitFeeRow = z.object({
  key: z.string(),
  source: z.enum(FEE_ROW_SOURCES),
  date: z.string(),
  amount: z.int(),
  method: z.string().nullable(),
  reference: z.string().nullable(),
  invoiceNumbers: z.array(z.string()),
  overpayment: z.boolean(),
  note: z.string().nullable(),
  ledgerEntryId: z.int().nullable(),
  paymentId: z.int().nullable(),
  retainerMovementId: z.int().nullable(),
});
export type LawsuitFeeRow = z.infer<typeof lawsuitFeeRow>;

/** The `data` of `LEGAL_ROUTES.lawsuitFeeRows`: newest first. */
export const lawsuitFeeRows = z.object({ items: z.array(lawsuitFeeRow) });
export type LawsuitFeeRows = z.infer<typeof lawsuitFeeRows>;

/**
 * The event a write under Finance raises on the fees ledger's channel (`lawsuitPayments`) when it
 * changes what a lawsuit's fees tab lists: a payment naming the lawsuit or settling an invoice of
 * it (one event for each lawsuit it counts for), or the retainer applied to an invoice of it,
 * recorded, changed or deleted; `data` is `LawsuitFeesChanged`. It names no ledger
 * row, so the SDK reads the ledger's lists again (`applyEntityEvent`), and the tab its rows and
 * figures with them.
 */
export const LAWSUIT_FEES_CHANGED = 'feesChanged';
export interface LawsuitFeesChanged {
  lawsuitId: number;
}

/**
 * Why a client has no power of attorney for litigation on a day: none at all (`none`), every one
 * ended before that day (`expired`, `expiredOn` the latest end), or those in force do not cover
 * litigation (`notLitigation`). Inactive powers of attorney count as none.
 */
export const PROCURATION_PROBLEMS = ['none', 'expired', 'notLitigation'] as const;
export type ProcurationProblemReason = (typeof PROCURATION_PROBLEMS)[number];

export interface ProcurationProblem {
  customerId: number;
  /** The client's stored name. */
  name: string;
  reason: ProcurationProblemReason;
  /** With `expired`: the day the last one ended (`YYYY-MM-DD`). */
  expiredOn: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const id = z.coerce
  .number({ error: 'validation.types.integer' })
  .int({ error: 'validation.types.integer' })
  .positive({ error: 'validation.number.min' });

/**
 * The query of `GET procurationCheck`: the clients (`customerIds`, repeated or comma-separated) or
 * a lawsuit whose clients to check (`lawsuitId`), on `date` (a hearing's day; default the office's
 * today). One of `customerIds` and `lawsuitId` is required (422 on `customerIds`).
 */
export const procurationCheckQuery = z
  .object({
    customerIds: z
      .preprocess(
        (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
        z.array(id).max(200, { error: 'validation.array.max' }),
      )
      .optional(),
    lawsuitId: id.optional(),
    date: z.string().regex(DAY, { error: 'validation.date.format' }).optional(),
  })
  .strip()
  .refine((q) => (q.customerIds?.length ?? 0) > 0 || q.lawsuitId !== undefined, {
    error: 'validation.required',
    path: ['customerIds'],
  });
export type ProcurationCheckQuery = z.input<typeof procurationCheckQuery>;

export const procurationCheck = z.object({
  mode: z.enum(['warn', 'refuse']),
  date: z.string(),
  problems: z.array(
    z.object({
      customerId: z.int(),
      name: z.string(),
      reason: z.enum(PROCURATION_PROBLEMS),
      expiredOn: z.string().nullable(),
    }),
  ),
});
export type ProcurationCheck = z.infer<typeof procurationCheck>;

/** The legal department's routes beyond CRUD, under `/api`; `:id` is a positive integer (anything else 404). */
export const LEGAL_ROUTES = {
  sessionChain: route({
    method: 'GET',
    path: '/admin/lawsuits/sessions/:id/chain',
    permission: permissionKey('sessions', 'view'),
    summary: 'The postponement chain a hearing belongs to, first to last',
    response: sessionChain,
    answer: answer<SessionChain>(),
  }),
  lawsuitFees: route({
    method: 'GET',
    path: '/admin/lawsuits/:id/fees',
    permission: permissionKey('lawsuitPayments', 'view'),
    summary: "A lawsuit's agreed fee, paid, pending and collection rate (minor units, exact)",
    response: lawsuitFees,
    answer: answer<LawsuitFees>(),
  }),
  lawsuitFeeRows: route({
    method: 'GET',
    path: '/admin/lawsuits/:id/fees/rows',
    permission: permissionKey('lawsuitPayments', 'view'),
    summary: "Every payment that counts towards a lawsuit's fee, one row each, newest first",
    response: lawsuitFeeRows,
    answer: answer<LawsuitFeeRows>(),
  }),
  procurationCheck: route({
    method: 'GET',
    path: '/admin/lawsuits/procurationCheck',
    permission: permissionKey('lawsuits', 'view'),
    summary: 'Clients without a power of attorney covering litigation on a day, and the office mode',
    query: procurationCheckQuery,
    response: procurationCheck,
    answer: answer<ProcurationCheck>(),
  }),
};
