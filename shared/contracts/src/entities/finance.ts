import { DOCUMENT_FILE_TYPES, defineEntity } from '../entity';
import { z } from 'zod';
import { MINUTES_PER_DAY } from '../duration';
import { PAYMENT_METHODS } from './hearings';
import { INVOICE_KINDS, INVOICE_STATES, VAT_ROUNDINGS } from '../invoicing';

/**
 * The kinds of expense a fresh database starts with, in their order. Stored with both names
 * (`name` Arabic, `nameEn` English); the office may rename, reorder, add or delete them.
 */
export const EXPENSE_CATEGORY_SEEDS: readonly { key: string; name: string; nameEn: string; order: number }[] =
  [
    { key: 'courtFees', name: 'رسوم قضائية', nameEn: 'Court fees', order: 1 },
    { key: 'travel', name: 'انتقالات وسفر', nameEn: 'Travel', order: 2 },
    { key: 'expertFees', name: 'أتعاب خبراء', nameEn: 'Expert fees', order: 3 },
    { key: 'translation', name: 'ترجمة', nameEn: 'Translation', order: 4 },
    { key: 'other', name: 'أخرى', nameEn: 'Other', order: 5 },
  ];

/** The settings list of expense kinds (court fees, travel…); starts with `EXPENSE_CATEGORY_SEEDS`. */
export const expenseCategories = defineEntity({
  name: 'expenseCategories',
  path: '/admin/finance/expenses/categories',
  remote: 'legal',
  menu: { group: 'finance', order: 10 },
  defaultSort: 'order:asc',
  fields: {
    name: { type: 'string', required: true, unique: true, max: 150, search: true, sort: true },
    nameEn: { type: 'string', max: 150, search: true, sort: true },
    order: { type: 'integer', min: 0, max: 10000, sort: true, default: 0 },
  },
});

/**
 * Time worked on a lawsuit: who (the employee; the actor when left out), on which lawsuit and day,
 * how long (minutes, 1 to 24 h; `h:mm` or decimal hours as text are read), at what rate (minor
 * units per hour; left out, the lawsuit's `hourlyRate`, else the employee's, else 0) and so what
 * amount (minutes × rate, rounded half up to the smallest unit: the server's, never sent), what
 * was done, and whether it is billed to the client.
 *
 * A lawyer sees, edits and deletes their own entries only (another's answers 404, as if it did not
 * exist) and records time for themself only; `AREA_PERMISSIONS.financeEveryone` (the
 * administrator's) sees and writes everyone's. Invoices will mark the entries they bill with a
 * reference of their own, added to this table when they come (entries already billed then refuse
 * edits).
 */
export const timeEntries = defineEntity({
  name: 'timeEntries',
  path: '/admin/finance/timeEntries',
  remote: 'legal',
  menu: { group: 'finance', order: 1 },
  titleField: 'date',
  status: false,
  defaultSort: 'date:desc',
  indexes: [
    ['employeeId', 'date'],
    ['lawsuitId', 'date'],
  ],
  fields: {
    employeeId: { type: 'ref', entity: 'employees', filter: true, sort: true },
    lawsuitId: { type: 'ref', entity: 'lawsuits', required: true, filter: true },
    date: { type: 'date', required: true, sort: true },
    duration: { type: 'duration', required: true, min: 1, max: MINUTES_PER_DAY, sort: true },
    rate: { type: 'money', list: false },
    amount: { type: 'money', form: false, sort: true, setBy: 'server' },
    description: { type: 'text', max: 2000, search: true },
    billable: { type: 'boolean', default: true, filter: true },
  },
});

/** Who paid an expense: the office (to be billed back) or the client's retainer (money held for them). */
export const EXPENSE_PAYERS = ['office', 'retainer'] as const;
export type ExpensePayer = (typeof EXPENSE_PAYERS)[number];

/**
 * Money spent on a lawsuit: court fees, travel, expert fees, translation… (`expenseCategories`),
 * the day, the amount (minor units, more than zero), the receipt (scans or photos), whether it is
 * billed to the client, who paid it (`EXPENSE_PAYERS`) and what it was for.
 */
export const expenses = defineEntity({
  name: 'expenses',
  path: '/admin/finance/expenses',
  remote: 'legal',
  menu: { group: 'finance', order: 2 },
  titleField: 'date',
  status: false,
  defaultSort: 'date:desc',
  indexes: [['lawsuitId', 'date']],
  fileDeletePath: '/files/:fileId',
  fields: {
    lawsuitId: { type: 'ref', entity: 'lawsuits', required: true, filter: true },
    date: { type: 'date', required: true, sort: true },
    amount: { type: 'money', required: true, min: 1, sort: true },
    categoryId: { type: 'ref', entity: 'expenseCategories', required: true, filter: true },
    paidBy: { type: 'enum', values: EXPENSE_PAYERS, required: true, default: 'office', filter: true },
    billable: { type: 'boolean', default: true, filter: true },
    description: { type: 'text', max: 2000, search: true },
    receipt: {
      type: 'files',
      accept: DOCUMENT_FILE_TYPES,
      maxCount: 5,
      list: false,
    },
  },
});

/**
 * The agreed fee of a lawsuit paid in instalments: what is due (minor units, more than zero), on
 * which day, and what it is for. An instalment is billed once: building an invoice (`collect`)
 * brings in the instalments due in the range that are on no invoice (draft or issued) not void; a
 * draft deleted or an invoice voided frees them, as for time entries. Shown on the lawsuit's page.
 */
export const feeInstalments = defineEntity({
  name: 'feeInstalments',
  path: '/admin/finance/instalments',
  remote: 'legal',
  menu: false,
  titleField: 'dueDate',
  status: false,
  defaultSort: 'dueDate:asc',
  indexes: [['lawsuitId', 'dueDate']],
  fields: {
    lawsuitId: { type: 'ref', entity: 'lawsuits', required: true, filter: true },
    dueDate: { type: 'date', required: true, sort: true },
    amount: { type: 'money', required: true, min: 1, sort: true },
    description: { type: 'text', max: 500, search: true },
  },
});

/** Why an invoice is voided, or what a credit note corrects: required text. */
const reasonBody = z
  .object({
    reason: z
      .string({
        error: (issue) => (issue.input === undefined ? 'validation.required' : 'validation.types.string'),
      })
      .trim()
      .min(1, { error: 'validation.required' })
      .max(500, { error: 'validation.string.max' }),
  })
  .strip();

/** Body of an invoice's `collect` action: the days of unbilled time, expenses and due fee instalments to bring in (both optional). */
const collectBody = z
  .object({
    from: z.iso.date({ error: 'validation.date.format' }),
    to: z.iso.date({ error: 'validation.date.format' }),
  })
  .partial()
  .strip();

/**
 * An invoice to a client (optionally for one lawsuit), or a credit note correcting an issued one
 * (`kind`, `creditOfId`). A draft's lines (`invoiceLines`) may change; its totals are the server's,
 * from the lines and the office's VAT settings (`invoicing.ts`). Actions:
 *
 * - `collect`: brings the client's unbilled billable time entries and expenses, and the agreed fee
 *   instalments due (`feeInstalments`), in as lines;
 * - `issue`: numbers it (gap-free per year and kind), freezes its VAT rate, lines and totals;
 * - `void`: with a reason, a draft, or an issued one nothing was paid or credited on;
 * - `creditNote`: a draft credit note referencing an issued invoice, its lines copied (edit, then issue).
 *
 * `paid`, `credited` and `due` follow payments, retainer applications and issued credit notes; the
 * state moves issued → partly paid → paid by itself. Issued invoices are never edited or deleted.
 */
export const invoices = defineEntity({
  name: 'invoices',
  path: '/admin/finance/invoices',
  remote: 'legal',
  menu: { group: 'finance', order: 3 },
  titleField: 'number',
  status: false,
  defaultSort: 'createdAt:desc',
  indexes: [
    ['customerId', 'issueDate'],
    ['state', 'dueDate'],
  ],
  fields: {
    number: { type: 'string', max: 30, form: false, sort: true, code: true, setBy: 'action' },
    kind: {
      type: 'enum',
      values: INVOICE_KINDS,
      default: 'invoice',
      form: false,
      filter: true,
      list: false,
      setBy: 'server',
    },
    customerId: { type: 'ref', entity: 'customers', required: true, filter: true },
    lawsuitId: { type: 'ref', entity: 'lawsuits', filter: true },
    state: {
      type: 'enum',
      values: INVOICE_STATES,
      default: 'draft',
      form: false,
      filter: true,
      sort: true,
      setBy: 'server',
    },
    issueDate: { type: 'date', form: false, sort: true, list: false, setBy: 'action' },
    dueDate: { type: 'date', sort: true },
    gross: { type: 'money', form: false, default: 0, list: false, setBy: 'server' },
    discount: { type: 'money', form: false, default: 0, list: false, setBy: 'server' },
    subtotal: { type: 'money', form: false, default: 0, list: false, setBy: 'server' },
    vatTotal: { type: 'money', form: false, default: 0, list: false, setBy: 'server' },
    total: { type: 'money', form: false, default: 0, sort: true, setBy: 'server' },
    paid: { type: 'money', form: false, default: 0, list: false, setBy: 'server' },
    credited: { type: 'money', form: false, default: 0, list: false, setBy: 'server' },
    due: { type: 'money', form: false, default: 0, sort: true, setBy: 'server' },
    notes: { type: 'text', max: 2000, search: true, list: false },
    creditOfId: { type: 'ref', entity: 'invoices', form: false, filter: true, list: false, setBy: 'action' },
    voidReason: { type: 'text', max: 500, form: false, list: false, setBy: 'action' },
    year: { type: 'integer', form: false, list: false, setBy: 'action' },
    sequence: { type: 'integer', form: false, list: false, setBy: 'action' },
    issuedAt: { type: 'datetime', form: false, list: false, setBy: 'action' },
    currency: { type: 'string', max: 3, form: false, list: false, code: true, setBy: 'server' },
    vatRate: { type: 'integer', min: 0, max: 10_000, form: false, list: false, setBy: 'action' },
    vatRounding: { type: 'enum', values: VAT_ROUNDINGS, form: false, list: false, setBy: 'action' },
  },
  actions: {
    collect: { method: 'POST', body: collectBody },
    issue: { method: 'POST' },
    void: { method: 'POST', body: reasonBody },
    creditNote: { method: 'POST', body: reasonBody },
  },
});

/** Where a line came from: typed in, a time entry, an expense, an agreed fee instalment. */
export const INVOICE_LINE_SOURCES = ['free', 'time', 'expense', 'instalment'] as const;

/**
 * One line of an invoice or credit note: what, how many, at what unit price, less what discount,
 * VAT-exempt or not; `net`, `vat` and `total` are the server's (`lineFigures`). A line brought in
 * from a time entry, an expense or a fee instalment references it, so that it is billed once. Lines of an issued
 * invoice never change.
 */
export const invoiceLines = defineEntity({
  name: 'invoiceLines',
  path: '/admin/finance/invoices/lines',
  remote: 'legal',
  menu: false,
  titleField: 'description',
  status: false,
  defaultSort: 'order:asc',
  fields: {
    invoiceId: { type: 'ref', entity: 'invoices', required: true, filter: true, onDelete: 'cascade' },
    order: { type: 'integer', min: 0, max: 100_000, default: 0, sort: true, list: false },
    description: { type: 'text', required: true, max: 500, search: true },
    quantity: { type: 'integer', min: 1, max: 1_000_000, default: 1 },
    unitPrice: { type: 'money', required: true },
    discount: { type: 'money', default: 0 },
    vatExempt: { type: 'boolean', default: false },
    net: { type: 'money', form: false, default: 0, setBy: 'server' },
    vat: { type: 'money', form: false, default: 0, setBy: 'server' },
    total: { type: 'money', form: false, default: 0, setBy: 'server' },
    source: {
      type: 'enum',
      values: INVOICE_LINE_SOURCES,
      default: 'free',
      form: false,
      filter: true,
      setBy: 'server',
    },
    timeEntryId: { type: 'ref', entity: 'timeEntries', form: false, filter: true, list: false },
    expenseId: { type: 'ref', entity: 'expenses', form: false, filter: true, list: false },
    instalmentId: { type: 'ref', entity: 'feeInstalments', form: false, filter: true, list: false },
  },
});

/**
 * Money received from a client: amount, day, method, reference, receipt scans. It settles the
 * invoices named (`invoiceIds`, oldest issued first, each up to what it still owes); what is left
 * goes to the client's retainer only when `toRetainer` is chosen (else 422 on `amount`); with no
 * invoice named, the whole amount is a retainer deposit. Amount, client, invoices and the choice
 * are fixed once recorded: a wrong payment is deleted (when its retainer part is still held) and
 * recorded again.
 *
 * A payment is also what a lawsuit's fees ledger records (`lawsuitPayments`): each ledger entry is
 * one payment (`ledgerEntryId`, the server's), for the lawsuit's first client, settling no invoice
 * and held for no retainer; it changes and goes with its entry only (409 from here). What a
 * lawsuit was paid (its fees, the dashboard) is the sum of its payments less their retained parts,
 * plus the retainer applied to its invoices; a payment settling invoices of one lawsuit is for that
 * lawsuit when it names none.
 */
export const payments = defineEntity({
  name: 'payments',
  path: '/admin/finance/payments',
  remote: 'legal',
  menu: { group: 'finance', order: 4 },
  titleField: 'date',
  status: false,
  defaultSort: 'date:desc',
  indexes: [['customerId', 'date']],
  fileDeletePath: '/files/:fileId',
  fields: {
    customerId: { type: 'ref', entity: 'customers', required: true, filter: true, createOnly: true },
    lawsuitId: { type: 'ref', entity: 'lawsuits', filter: true, createOnly: true },
    date: { type: 'date', required: true, sort: true },
    amount: { type: 'money', required: true, min: 1, sort: true, createOnly: true },
    method: { type: 'enum', values: PAYMENT_METHODS, required: true, default: 'bankTransfer', filter: true },
    reference: { type: 'string', max: 100, search: true },
    invoiceIds: { type: 'refs', entity: 'invoices', max: 50, createOnly: true },
    toRetainer: { type: 'boolean', default: false, createOnly: true, list: false },
    retained: { type: 'money', form: false, default: 0 },
    ledgerEntryId: { type: 'integer', form: false, list: false, setBy: 'server' },
    notes: { type: 'text', max: 2000, search: true, list: false },
    receipt: {
      type: 'files',
      accept: DOCUMENT_FILE_TYPES,
      maxCount: 5,
      list: false,
    },
  },
});

/** A retainer movement: money deposited for the client, applied to an invoice, or refunded. */
export const RETAINER_KINDS = ['deposit', 'apply', 'refund'] as const;

/**
 * The client's retainer (money held for them), movement by movement: deposits (and the part of a
 * payment sent to the retainer, `payments.retained`) raise it, applying it to an invoice
 * (`invoiceId`, at most what the invoice owes) and refunds lower it, never below zero (422 on
 * `amount`). A movement's amount, kind, client and invoice never change; deleting one is refused
 * (409) when the balance would go below zero. Each write is in the audit trail.
 */
export const retainerMovements = defineEntity({
  name: 'retainerMovements',
  path: '/admin/finance/retainer',
  remote: 'legal',
  menu: { group: 'finance', order: 5 },
  titleField: 'date',
  status: false,
  defaultSort: 'date:desc',
  indexes: [['customerId', 'date']],
  fields: {
    customerId: { type: 'ref', entity: 'customers', required: true, filter: true, createOnly: true },
    date: { type: 'date', required: true, sort: true, createOnly: true },
    kind: { type: 'enum', values: RETAINER_KINDS, required: true, filter: true, createOnly: true },
    amount: { type: 'money', required: true, min: 1, sort: true, createOnly: true },
    invoiceId: { type: 'ref', entity: 'invoices', filter: true, createOnly: true },
    notes: { type: 'text', max: 2000, search: true, list: false },
  },
});
