import { z } from 'zod';
import { defineEntity } from '../entity';
import { normalizeDigits } from '../text';
import { COURT_TYPES } from './settings';

/**
 * Countries whose official holidays and legal periods the office keeps (ISO 3166 alpha-2). The
 * office's own is a system setting (`officeCountry`); holidays and rules name theirs.
 */
export const COUNTRY_CODES = ['EG', 'SA', 'AE', 'KW', 'QA', 'BH', 'OM', 'JO'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

/**
 * How a holiday falls: on the same Gregorian day every year (`gregorian`: month and day), on the
 * same Umm al-Qura day every Hijri year (`hijri`: Eid al-Fitr is 1 Shawwal), or once (`once`: a
 * date, e.g. a day declared by decree).
 */
export const HOLIDAY_KINDS = ['gregorian', 'hijri', 'once'] as const;
export type HolidayKind = (typeof HOLIDAY_KINDS)[number];
/** The longest holiday (days in a row from its first day). */
export const HOLIDAY_MAX_DAYS = 30;

/**
 * Official holidays per country: a recurring Gregorian day (`month`, `day`), a recurring Hijri day
 * (`month`, `day` of the Umm al-Qura year; a day 30 in a year whose month has 29 falls on none) or
 * a one-off `date`, lasting `days` days from its first. Non-working days for every period counted
 * (`addPeriod` on the server). A day that no calendar has (30 February, Hijri month 13, day 31) is
 * 422 on the field. Egypt and Saudi Arabia are seeded.
 */
export const holidays = defineEntity({
  name: 'holidays',
  path: '/admin/settings/holidays',
  remote: 'settings',
  menu: { group: 'lawsuitSettings', order: 10 },
  defaultSort: 'name:asc',
  fields: {
    name: { type: 'string', required: true, max: 150, search: true, sort: true },
    country: { type: 'enum', values: COUNTRY_CODES, required: true, default: 'SA', filter: true },
    kind: { type: 'enum', values: HOLIDAY_KINDS, required: true, default: 'hijri', filter: true },
    month: { type: 'integer', min: 1, max: 12, code: true },
    day: { type: 'integer', min: 1, max: 31, code: true },
    date: { type: 'date', sort: true },
    days: { type: 'integer', min: 1, max: HOLIDAY_MAX_DAYS, required: true, default: 1 },
    notes: { type: 'text', max: 1000, list: false },
  },
});

/** What starts a legal period. */
export const DEADLINE_EVENTS = ['judgmentIssued', 'judgmentServed', 'hearingDecision'] as const;
export type DeadlineEvent = (typeof DEADLINE_EVENTS)[number];
/** What is due by the end of a legal period. */
export const DEADLINE_ACTIONS = [
  'appeal',
  'cassation',
  'objection',
  'reconsideration',
  'petition',
  'memorandum',
  'other',
] as const;
export type DeadlineAction = (typeof DEADLINE_ACTIONS)[number];
/** Days, or months of a calendar. */
export const PERIOD_UNITS = ['days', 'months'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];
export const PERIOD_CALENDARS = ['gregorian', 'hijri'] as const;
export type PeriodCalendar = (typeof PERIOD_CALENDARS)[number];
/**
 * When the last day of a period is not a working day: the next working day (the rule of the
 * procedure codes), the previous one, or no shift.
 */
export const PERIOD_SHIFTS = ['next', 'previous', 'none'] as const;
export type PeriodShift = (typeof PERIOD_SHIFTS)[number];
/** The longest period a rule or the calculator counts: ten years of days, or 120 months. */
export const PERIOD_MAX = { days: 3650, months: 120 } as const;

/**
 * Legal periods: when `event` happens on a lawsuit of one of `lawsuitTypeIds` (none: any type),
 * judged by a court of `courtType` (none: any degree), in `country` (none: any), `action` is due
 * `amount` `unit`s later (months counted in `calendar`), moved by `shift` when that day is not a
 * working day. `legalBasis` is the article the period comes from. An inactive rule starts nothing.
 * A period of zero or less is 422 on `amount`; more than `PERIOD_MAX` months too.
 */
export const deadlineRules = defineEntity({
  name: 'deadlineRules',
  path: '/admin/settings/deadlineRules',
  remote: 'settings',
  menu: { group: 'lawsuitSettings', order: 11 },
  defaultSort: 'name:asc',
  fields: {
    name: { type: 'string', required: true, unique: true, max: 150, search: true, sort: true },
    event: { type: 'enum', values: DEADLINE_EVENTS, required: true, default: 'judgmentIssued', filter: true },
    lawsuitTypeIds: { type: 'refs', entity: 'lawsuitTypes', filter: true, list: false },
    courtType: { type: 'enum', values: COURT_TYPES, filter: true },
    country: { type: 'enum', values: COUNTRY_CODES, filter: true, list: false },
    amount: { type: 'integer', required: true, min: 1, max: PERIOD_MAX.days, code: true },
    unit: { type: 'enum', values: PERIOD_UNITS, required: true, default: 'days' },
    calendar: { type: 'enum', values: PERIOD_CALENDARS, required: true, default: 'gregorian', list: false },
    action: { type: 'enum', values: DEADLINE_ACTIONS, required: true, default: 'appeal', filter: true },
    shift: { type: 'enum', values: PERIOD_SHIFTS, required: true, default: 'next', list: false },
    legalBasis: { type: 'text', max: 1000, search: true, list: false },
  },
});

/** A deadline is open until it is done (the appeal was filed) or waived (the client chose not to). */
export const DEADLINE_STATES = ['open', 'done', 'waived'] as const;
export type DeadlineState = (typeof DEADLINE_STATES)[number];
/** The `dueWithinDays` list filter's largest value (a year). */
export const DEADLINE_WITHIN_MAX_DAYS = 366;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const required = (kind: string) => (issue: { input?: unknown }) =>
  issue.input == null ? 'validation.required' : `validation.types.${kind}`;
const day = z.preprocess(
  (v) => (typeof v === 'string' ? normalizeDigits(v.trim()) : v),
  z
    .string({ error: required('date') })
    .regex(DAY, { error: 'validation.date.format' })
    .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v), {
      error: 'validation.date.invalid',
    }),
);
const text = (max: number) =>
  z
    .string({ error: required('string') })
    .trim()
    .min(1, { error: 'validation.whitespace' })
    .max(max, { error: 'validation.string.max' });

/**
 * The body of `PATCH /admin/lawsuits/deadlines/:id/changeDue`: the new due date and why (a court
 * extended it, a lawyer counted it again); both required, audited under `changeDue`.
 */
export const changeDueBody = z.object({ dueDate: day, reason: text(1000) }).strip();
export type ChangeDueInput = z.input<typeof changeDueBody> & { updatedAt?: string };

/** The body of `PATCH /admin/lawsuits/deadlines/:id/close`: done or waived, and a note. */
export const closeDeadlineBody = z
  .object({
    state: z.enum(['done', 'waived'], {
      error: (i) => (i.input == null ? 'validation.required' : 'validation.enum'),
    }),
    note: z
      .string({ error: required('string') })
      .trim()
      .max(1000, { error: 'validation.string.max' })
      .nullish(),
  })
  .strip();
export type CloseDeadlineInput = z.input<typeof closeDeadlineBody> & { updatedAt?: string };

/**
 * The deadlines of a lawsuit: `action` due on `dueDate` (`dueHijri` is the same day in the Umm
 * al-Qura calendar, `YYYY-MM-DD` of the Hijri year, written by the server), counted from
 * `startDate` under `ruleId` (its `legalBasis` copied), started by `event` at hearing `sessionId`.
 * Recording a judgment (a hearing's decision marked `judgment`, its service date `servedOn`, or the
 * lawsuit closed with a won or lost case) creates them from the matching rules; one can also be
 * added by hand (its due date counted from the rule when left blank). The due date then changes
 * only through `changeDue` (with a reason, audited; an edit changing it is 422); `close` marks it done or waived; `reopen`
 * opens it again. `lawyerId` is who answers for it (the lawsuit's first responsible lawyer, else the hearing's).
 *
 * List filters: `dueFrom`/`dueTo` (a range, both days included: the calendar's month),
 * `dueWithinDays=N` (open, due between today and today + N: "this week" is 7) and `overdue=true`
 * (open, due before today).
 */
export const deadlines = defineEntity({
  name: 'deadlines',
  path: '/admin/lawsuits/deadlines',
  remote: 'legal',
  menu: { group: 'legal', order: 2.5 },
  status: false,
  titleField: 'dueDate',
  defaultSort: 'dueDate:asc',
  // A lawyer's open deadlines by due date, and the office's, at any size.
  indexes: [
    ['lawyerId', 'state', 'dueDate'],
    ['state', 'dueDate'],
  ],
  fields: {
    lawsuitId: { type: 'ref', entity: 'lawsuits', required: true, filter: true, createOnly: true },
    action: { type: 'enum', values: DEADLINE_ACTIONS, required: true, default: 'appeal', filter: true },
    // Typed on create (or counted from its rule), then moved by `changeDue` only, with a reason.
    dueDate: { type: 'date', sort: true, setBy: 'create' },
    dueHijri: { type: 'string', max: 10, code: true, form: false, setBy: 'server' },
    startDate: { type: 'date', required: true, sort: true, createOnly: true, list: false },
    ruleId: { type: 'ref', entity: 'deadlineRules', filter: true, createOnly: true },
    event: { type: 'enum', values: DEADLINE_EVENTS, filter: true, list: false, createOnly: true },
    // A hearing deleted (entered by mistake) takes the deadlines its decision started with it.
    sessionId: { type: 'ref', entity: 'sessions', list: false, form: false, onDelete: 'cascade' },
    lawyerId: { type: 'ref', entity: 'employees', filter: true },
    state: {
      type: 'enum',
      values: DEADLINE_STATES,
      required: true,
      default: 'open',
      filter: true,
      form: false,
      setBy: 'action',
    },
    legalBasis: { type: 'text', max: 1000, list: false },
    dueChangeReason: { type: 'text', max: 1000, list: false, form: false, setBy: 'action' },
    note: { type: 'text', max: 1000, list: false },
  },
  listFilters: {
    dueFrom: { type: 'date' },
    dueTo: { type: 'date' },
    dueWithinDays: { type: 'integer', min: 0, max: DEADLINE_WITHIN_MAX_DAYS },
    overdue: { type: 'boolean' },
  },
  actions: {
    changeDue: { body: changeDueBody },
    close: { body: closeDeadlineBody },
    reopen: {},
  },
});
