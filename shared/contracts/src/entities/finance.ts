import { DOCUMENT_FILE_TYPES, defineEntity } from '../entity';
import { MINUTES_PER_DAY } from '../duration';

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
    amount: { type: 'money', form: false, sort: true },
    description: { type: 'text', max: 2000, search: true },
    billable: { type: 'boolean', default: true, filter: true },
  },
});

/** Who paid an expense: the office (to be billed back) or the client's retainer (money held for them). */
export const EXPENSE_PAYERS = ['office', 'retainer'] as const;
export type ExpensePayer = (typeof EXPENSE_PAYERS)[number];

/** Largest receipt file of an expense (a scanned receipt): 10 MB. */
export const EXPENSE_RECEIPT_MAX_SIZE = 10 * 1024 * 1024;

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
      maxSize: EXPENSE_RECEIPT_MAX_SIZE,
      maxCount: 5,
      list: false,
    },
  },
});
