import { z } from 'zod';
import { defineEntity } from '../entity';
import { LAWYERS_ONLY } from './people';
import { normalizeDigits } from '../text';

/**
 * A hearing's time of day, `HH:mm` on the 24-hour clock (`09:30`), in the office's own local
 * time, like its date: a hearing is a wall-clock appointment at a court, not an instant. Stored as
 * text beside the date, so a day's hearing roll is `date = D` ordered by time, and a month of the
 * calendar is a date range, with no time zone to shift a hearing into the next or previous day.
 */
export const SESSION_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The body of `PATCH /admin/lawsuits/sessions/:id/postpone` (besides the `updatedAt` the hearing
 * was read at): the decision taken at this hearing and the date it was postponed to. Recording it
 * stores both on this hearing and creates the next one (same lawsuit, court, circuit, judge,
 * session type, time and lawyer; `previousId` = this hearing) in one transaction. The next date
 * must come after this hearing's date (422 on `nextDate`); a hearing already postponed is 409.
 */
export const postponeBody = z
  .object({
    decision: z
      .string({ error: (i) => (i.input == null ? 'validation.required' : 'validation.types.string') })
      .trim()
      .min(1, { error: 'validation.whitespace' })
      .max(5000, { error: 'validation.string.max' }),
    nextDate: z.preprocess(
      (v) => (typeof v === 'string' ? normalizeDigits(v) : v),
      z
        .string({ error: (i) => (i.input == null ? 'validation.required' : 'validation.types.date') })
        .regex(DAY, { error: 'validation.date.format' })
        .refine((v) => !Number.isNaN(Date.parse(v)), { error: 'validation.date.invalid' }),
    ),
  })
  .strip();

/** What the postpone action takes: the decision, the next date and the version read. */
export type PostponeInput = z.input<typeof postponeBody> & { updatedAt?: string };

/**
 * Hearings of a lawsuit ("lawsuit sessions" in the API paths). Each one has a local date and an optional
 * time (see `SESSION_TIME_PATTERN`), the court, circuit and judge (left blank, they are taken from
 * the lawsuit; a circuit must be of the court, a judge of the circuit), session type, attendance
 * mechanism, attending lawyer, what is required before it, and after it the decision and, when
 * postponed, the next date; `judgment` marks the decision as a judgment and `servedOn` is the day it
 * was served (each starts the legal periods of its event, see `deadlineRules`). Postponing (the `postpone` action) creates the next hearing, linked
 * back through `previousId` (written by the server only; one next hearing per hearing), so the
 * hearings of a lawsuit form chains (`GET …/sessions/:id/chain`, api/legal.ts). A hearing is never
 * before its lawsuit's filing date.
 *
 * List filters: `from`/`to` (a date range, both days included: the calendar's month),
 * `pastWithoutDecision=true` (before today with no decision: flagged), and through the lawsuit:
 * `branchId` (its branch: a branch's calendar), `customerId` and `opponentId` (lawsuits naming
 * that client or opponent among their parties: a client's hearings). The hearings one attends are
 * the field filter `lawyerId=<their employee id>`; `employeeId=<id>` adds those of the lawsuits
 * the employee is responsible for (the calendar's "my hearings"). Stored in `lawsuit_sessions` (the sign-in
 * sessions own `sessions`).
 */
export const sessions = defineEntity({
  name: 'sessions',
  path: '/admin/lawsuits/sessions',
  remote: 'legal',
  table: 'lawsuit_sessions',
  menu: { group: 'legal', order: 2 },
  status: false,
  titleField: 'date',
  defaultSort: 'date:desc',
  // The calendar's month for one lawyer (`lawyerId=N&from=…&to=…`) at millions of hearings.
  indexes: [['lawyerId', 'date']],
  fields: {
    lawsuitId: { type: 'ref', entity: 'lawsuits', required: true, filter: true, createOnly: true },
    date: { type: 'date', required: true, sort: true },
    time: { type: 'string', max: 5, code: true, sort: true },
    courtId: { type: 'ref', entity: 'courts', filter: true },
    circuitId: { type: 'ref', entity: 'circuits', filter: true, list: false },
    judgeId: { type: 'ref', entity: 'judges', filter: true, list: false },
    sessionTypeId: { type: 'ref', entity: 'sessionTypes', filter: true },
    attendanceId: { type: 'ref', entity: 'sessionAttendances', filter: true, list: false },
    lawyerId: { type: 'ref', entity: 'employees', filter: true, options: LAWYERS_ONLY },
    requirements: { type: 'text', max: 2000, list: false },
    decision: { type: 'text', max: 5000 },
    judgment: { type: 'boolean', default: false, filter: true, list: false },
    servedOn: { type: 'date', list: false },
    nextDate: { type: 'date', sort: true, form: false, setBy: 'action' },
    previousId: { type: 'ref', entity: 'sessions', list: false, form: false, setBy: 'action' },
    notes: { type: 'text', max: 2000, list: false },
  },
  listFilters: {
    from: { type: 'date' },
    to: { type: 'date' },
    pastWithoutDecision: { type: 'boolean' },
    branchId: { type: 'integer', min: 1 },
    customerId: { type: 'integer', min: 1 },
    opponentId: { type: 'integer', min: 1 },
    employeeId: { type: 'integer', min: 1 },
  },
  actions: {
    postpone: { body: postponeBody },
  },
});

/** How a lawsuit fee was paid. */
export const PAYMENT_METHODS = ['cash', 'bankTransfer', 'cheque', 'card', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * The fees ledger of a lawsuit: each payment the client made against the lawsuit's agreed fee
 * (amount in minor units, see money.ts; more than zero), the day it was paid, how, its receipt
 * number and a note. Together they give the lawsuit's paid, pending and collection rate
 * (`GET /admin/lawsuits/:id/fees`, api/legal.ts). A payment that would make the paid total exceed
 * the agreed fee (none recorded counts as zero) is 422 on `amount` unless it is marked
 * `overpayment`. Shown inside the lawsuit's record page, not in the menu.
 */
export const lawsuitPayments = defineEntity({
  name: 'lawsuitPayments',
  path: '/admin/lawsuits/payments',
  remote: 'legal',
  menu: false,
  status: false,
  titleField: 'paidOn',
  defaultSort: 'paidOn:desc',
  fields: {
    lawsuitId: { type: 'ref', entity: 'lawsuits', required: true, filter: true, createOnly: true },
    amount: { type: 'money', required: true, min: 1, sort: true },
    paidOn: { type: 'date', required: true, sort: true },
    method: { type: 'enum', values: PAYMENT_METHODS, required: true, default: 'cash' },
    receiptNumber: { type: 'string', max: 50, code: true, search: true },
    overpayment: { type: 'boolean', default: false },
    note: { type: 'text', max: 1000, list: false },
  },
});
