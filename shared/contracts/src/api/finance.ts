import { z } from 'zod';
import { invoices, timeEntries } from '../entities/finance';
import { permissionKey } from '../permissions';
import { answer, route } from '../route';
import { orderedRange } from '../schema';
import { parseDigits } from '../text';

/** The QR code of an issued invoice: the TLV in base64 (what the code holds), its fields, and a PNG data URL. */
export const invoiceQr = z.object({
  tlv: z.string(),
  png: z.string(),
  fields: z.object({
    sellerName: z.string(),
    vatNumber: z.string(),
    timestamp: z.string(),
    total: z.string(),
    vatTotal: z.string(),
  }),
});
export type InvoiceQr = z.infer<typeof invoiceQr>;

/** Query of the QR route: `png` answers the image itself. */
export const invoiceQrQuery = z.object({ format: z.enum(['json', 'png']).optional() }).strip();

/** A day range of a report or statement, both ends optional and inclusive. */
export const financeRangeQuery = orderedRange(
  z
    .object({
      from: z.iso.date({ error: 'validation.date.format' }),
      to: z.iso.date({ error: 'validation.date.format' }),
    })
    .partial()
    .strip(),
);

/** What moved a client's balance: an invoice (owed), a credit note or a payment (paid), a retainer movement. */
export const STATEMENT_ENTRY_KINDS = [
  'invoice',
  'creditNote',
  'payment',
  'deposit',
  'apply',
  'refund',
] as const;

/**
 * One line of a statement: `debit` raises what the client owes (an issued invoice), `credit`
 * lowers it (credit note, payment to invoices, retainer applied); retainer deposits and refunds
 * move `retainer` only. `balance` is what is owed after the line.
 */
export const statementEntry = z.object({
  date: z.string(),
  kind: z.enum(STATEMENT_ENTRY_KINDS),
  id: z.number(),
  number: z.string().nullable(),
  debit: z.number(),
  credit: z.number(),
  balance: z.number(),
  retainer: z.number(),
});

/** A client's statement over a range: the lines, and what they owe and hold at its end (minor units). */
export const customerStatement = z.object({
  customerId: z.number(),
  currency: z.string(),
  opening: z.number(),
  entries: z.array(statementEntry),
  invoiced: z.number(),
  credited: z.number(),
  paid: z.number(),
  balance: z.number(),
  retainer: z.number(),
});
export type CustomerStatement = z.infer<typeof customerStatement>;

/** Ages of what is owed, in days past the due date. */
export const AGING_BUCKETS = ['days0to30', 'days31to60', 'days61to90', 'over90'] as const;

const agingAmounts = z.object({
  days0to30: z.number(),
  days31to60: z.number(),
  days61to90: z.number(),
  over90: z.number(),
  total: z.number(),
});

/** What each client owes by age at `asOf`, and the sums (minor units). */
export const agingReport = z.object({
  asOf: z.string(),
  currency: z.string(),
  rows: z.array(agingAmounts.extend({ customerId: z.number(), customerName: z.string() })),
  totals: agingAmounts,
});
export type AgingReport = z.infer<typeof agingReport>;

/** Query of the aging report: the day it is taken at (default today) and one client. */
export const agingQuery = z
  .object({
    asOf: z.iso.date({ error: 'validation.date.format' }),
    customerId: z.preprocess(parseDigits, z.int({ error: 'validation.types.integer' }).positive()),
  })
  .partial()
  .strip();

/** The timer as the API answers it; `runningSince` null while paused. */
export interface TimerState {
  lawsuitId: number;
  /** Seconds counted before `runningSince` (the time of earlier runs, before each pause). */
  elapsedSeconds: number;
  /** When the current run began (ISO instant), or null while paused. */
  runningSince: string | null;
  /** The server's clock when it answered, so a client with a wrong clock still ticks right. */
  now: string;
}

/** Body of `POST .../timer/start`: the lawsuit, required when no timer is paused. */
export const timerStartBody = z
  .object({
    lawsuitId: z.preprocess(
      parseDigits,
      z.int({ error: 'validation.types.integer' }).positive({ error: 'validation.types.integer' }),
    ),
  })
  .partial()
  .strip();
export type TimerStartInput = z.input<typeof timerStartBody>;

/** Body of `POST .../timer/stop`: the entry's description and whether it is billable, both optional. */
export const timerStopBody = z
  .object({
    description: z.string().max(2000, { error: 'validation.string.max' }),
    billable: z.boolean({ error: 'validation.types.boolean' }),
  })
  .partial()
  .strip();
export type TimerStopInput = z.input<typeof timerStopBody>;

const TIMER = '/admin/finance/timer';
/** Recording time is what the timer does: its routes need `timeEntries.create`. */
const timerPermission = permissionKey(timeEntries, 'create');

/** The signed-in employee's timer (see `TimerState`). */
export const TIMER_ROUTES = {
  get: route({
    method: 'GET',
    path: TIMER,
    permission: timerPermission,
    summary: 'The signed-in employee’s timer (null: none)',
    answer: answer<TimerState | null>(),
  }),
  start: route({
    method: 'POST',
    path: `${TIMER}/start`,
    permission: timerPermission,
    summary: 'Start the timer on a lawsuit, or resume the paused one',
    body: timerStartBody,
    answer: answer<TimerState>(),
  }),
  pause: route({
    method: 'POST',
    path: `${TIMER}/pause`,
    permission: timerPermission,
    summary: 'Pause the running timer',
    answer: answer<TimerState>(),
  }),
  stop: route({
    method: 'POST',
    path: `${TIMER}/stop`,
    permission: timerPermission,
    summary: 'Stop the timer: a time entry of its minutes, answered',
    body: timerStopBody,
    answer: answer<{ id: number }>(),
  }),
  discard: route({
    method: 'DELETE',
    path: TIMER,
    permission: timerPermission,
    summary: 'Discard the timer without recording its time',
    answer: answer<null>(),
  }),
};

/** The `timer` frame on the employee's channel: the timer after a change (null: stopped or discarded). */
export interface TimerLiveMessage {
  type: 'timer';
  channel: string;
  data: TimerState | null;
}

/** Seconds the timer has counted at `at` (ms since the epoch), by the server's `now`. */
export function timerSeconds(state: TimerState, at: number = Date.parse(state.now)): number {
  if (!state.runningSince) return state.elapsedSeconds;
  return state.elapsedSeconds + Math.max(0, Math.floor((at - Date.parse(state.runningSince)) / 1000));
}

/**
 * What an invoice's print view needs beyond the row: its lines in order, the office (name,
 * address, VAT number, logo, colour, currency) and the total in words in Arabic and English;
 * `qr` is the Saudi QR code of an issued invoice of an office in Saudi Arabia with a VAT number.
 */
export const invoicePrint = z.object({
  lines: z.array(
    z.object({
      description: z.string(),
      quantity: z.number(),
      unitPrice: z.number(),
      discount: z.number(),
      vatExempt: z.boolean(),
      net: z.number(),
      vat: z.number(),
      total: z.number(),
    }),
  ),
  office: z.object({
    name: z.string(),
    address: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    vatNumber: z.string().nullable(),
    logoUrl: z.string().nullable(),
    primaryColor: z.string(),
    currency: z.string(),
  }),
  customerName: z.string(),
  creditOfNumber: z.string().nullable(),
  words: z.object({ ar: z.string(), en: z.string() }),
  qr: invoiceQr.nullable(),
});
export type InvoicePrint = z.infer<typeof invoicePrint>;

/**
 * An invoice's QR code and print view, and a client's statement (paths from `FINANCE`; `:id` the
 * invoice's or the client's id). The reports are `FINANCE_REPORT_ROUTES`.
 */
export const FINANCE_ROUTES = {
  /** With `?format=png` it answers the image itself (`image/png`), not `InvoiceQr`. */
  invoiceQr: route({
    method: 'GET',
    path: '/admin/finance/invoices/:id/qr',
    permission: permissionKey(invoices, 'view'),
    summary:
      "An issued invoice's Saudi simplified tax invoice QR code (ZATCA phase 1): TLV in base64 and PNG",
    query: invoiceQrQuery,
    response: invoiceQr,
    answer: answer<InvoiceQr>(),
  }),
  invoicePrint: route({
    method: 'GET',
    path: '/admin/finance/invoices/:id/print',
    permission: permissionKey(invoices, 'view'),
    summary: "What an invoice's print view shows: lines, the office, the total in words, the QR code",
    response: invoicePrint,
    answer: answer<InvoicePrint>(),
  }),
  customerStatement: route({
    method: 'GET',
    path: '/admin/finance/customers/:id/statement',
    permission: permissionKey(invoices, 'view'),
    summary: "A client's statement: invoices, credit notes, payments, retainer and balance (minor units)",
    query: financeRangeQuery,
    response: customerStatement,
    answer: answer<CustomerStatement>(),
  }),
};
