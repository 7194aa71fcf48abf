import { z } from 'zod';
import {
  COUNTRY_CODES,
  PERIOD_CALENDARS,
  PERIOD_MAX,
  PERIOD_SHIFTS,
  PERIOD_UNITS,
  type CountryCode,
} from '../entities/deadlines';
import { permissionKey } from '../permissions';
import { answer, PUBLIC, route } from '../route';
import { normalizeDigits } from '../text';

const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (i) => (i.input === undefined ? 'validation.required' : 'validation.enum') });

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `GET /api/admin/deadlines/calculate?from=2026-03-01&amount=30&unit=days&calendar=gregorian&country=SA&shift=next`:
 * `from` a real day, `amount` a whole number from 1 (Arabic-Indic digits accepted), `unit` days or
 * months (months counted in `calendar`, default Gregorian), the holidays of `country` (default the
 * office's) and the office's weekend skipped at the end by `shift` (default next working day).
 */
export const periodQuery = z
  .object({
    from: z.preprocess(
      (v) => (typeof v === 'string' ? normalizeDigits(v.trim()) : v),
      z
        .string({ error: (i) => (i.input == null ? 'validation.required' : 'validation.types.date') })
        .regex(DAY, { error: 'validation.date.format' })
        .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v), {
          error: 'validation.date.invalid',
        }),
    ),
    amount: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(normalizeDigits(v.trim())) : v),
      z
        .int({ error: (i) => (i.input == null ? 'validation.required' : 'validation.types.integer') })
        .min(1, { error: 'validation.number.min' })
        .max(PERIOD_MAX.days, { error: 'validation.number.max' }),
    ),
    unit: enumOf(PERIOD_UNITS).default('days'),
    calendar: enumOf(PERIOD_CALENDARS).default('gregorian'),
    country: enumOf(COUNTRY_CODES).optional(),
    shift: enumOf(PERIOD_SHIFTS).default('next'),
  })
  .strip()
  .refine((q) => q.unit !== 'months' || q.amount <= PERIOD_MAX.months, {
    path: ['amount'],
    error: 'validation.number.max',
  });
export type PeriodQuery = z.input<typeof periodQuery>;

/** A day passed over when the last day of a period was not a working day. */
export interface SkippedDay {
  date: string;
  /** `weekend`, or `holiday` with the holiday's name. */
  reason: 'weekend' | 'holiday';
  holiday?: string;
}

/**
 * A period added to a day: `due` (`YYYY-MM-DD`), the same day in the Umm al-Qura calendar
 * (`dueHijri`, `YYYY-MM-DD` of the Hijri year), and when the end fell on a non-working day, the
 * day it fell on (`shiftedFrom`) and each day passed over (`skipped`, in the order met).
 *
 * @example { due: '2026-03-29', dueHijri: '1447-10-10', shiftedFrom: '2026-03-27', skipped: [{ date: '2026-03-27', reason: 'weekend' }, { date: '2026-03-28', reason: 'weekend' }] }
 */
export interface PeriodResult {
  due: string;
  dueHijri: string;
  shiftedFrom?: string;
  skipped: SkippedDay[];
  /** The country whose holidays were skipped. */
  country: CountryCode;
}

export const periodResult = z.object({
  due: z.string(),
  dueHijri: z.string(),
  shiftedFrom: z.string().optional(),
  skipped: z.array(z.object({ date: z.string(), reason: z.string(), holiday: z.string().optional() })),
  country: z.string(),
});

/** The signed-in employee's feed URLs (absolute): their own, and the office's when permitted. */
export interface FeedToken {
  /** Their hearings, deadlines and tasks; null when no feed was made or it was revoked. */
  url: string | null;
  /** Every hearing and open deadline of the office (permission `calendarFeed.office`), else null. */
  officeUrl: string | null;
}

export const feedToken = z.object({ url: z.string().nullable(), officeUrl: z.string().nullable() });

/** Whether the signed-in employee has feed URLs (`DEADLINE_ROUTES.feedCurrent`). */
export interface FeedState {
  own: boolean;
  office: boolean;
}

/**
 * The date calculator, the signed-in employee's feed URLs and the feed itself, under `/api`:
 * the period calculator and the calendar feeds beyond the deadlines' CRUD.
 */
export const DEADLINE_ROUTES = {
  calculate: route({
    method: 'GET',
    path: '/admin/deadlines/calculate',
    permission: permissionKey('deadlines', 'view'),
    summary: 'A legal period added to a day: the due date in both calendars and the days skipped',
    query: periodQuery,
    response: periodResult,
    answer: answer<PeriodResult>(),
  }),
  feedToken: route({
    method: 'POST',
    path: '/calendar/token',
    permission: null,
    summary: 'New feed URLs for the signed-in employee (the old ones stop working)',
    response: feedToken,
    answer: answer<FeedToken>(),
  }),
  feedRevoke: route({
    method: 'DELETE',
    path: '/calendar/token',
    permission: null,
    summary: "Revokes the signed-in employee's feed URLs",
    answer: answer<FeedToken>(),
  }),
  feedCurrent: route({
    method: 'GET',
    path: '/calendar/token',
    permission: null,
    summary: 'Whether the signed-in employee has feed URLs (the tokens are shown only when made)',
    response: z.object({ own: z.boolean(), office: z.boolean() }),
    answer: answer<FeedState>(),
  }),
  /**
   * Answers the iCalendar text itself (`text/calendar`, no `{ data }` envelope); an unknown token
   * 404, one longer than the router reads (100 characters) 414 before the route.
   */
  feed: route({
    method: 'GET',
    path: '/calendar/:token.ics',
    permission: PUBLIC,
    summary: "An employee's calendar feed (iCalendar), by its secret token; no other authentication",
  }),
};
