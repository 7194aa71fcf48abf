import { holidays, type CountryCode, type PeriodResult } from '@mizan/contracts';
import type { Db } from '../db';
import type { Trx } from '../engine/context';
import { cols, readRow, selectFields } from '../engine/rows';
import { AppError } from '../http/errors';
import { readSettings } from '../system';
import {
  addPeriod,
  OutOfCalendarError,
  workingCalendar,
  type HolidayRule,
  type Period,
  type WorkingCalendar,
} from './period';

type Executor = Db | Trx;

/** The active holidays of `country`, as the working calendar reads them. */
export async function holidaysOf(db: Executor, country: CountryCode): Promise<HolidayRule[]> {
  const rows = await selectFields(db, holidays, ['name', 'kind', 'month', 'day', 'date', 'days', 'status'])
    .where(cols(holidays).country, '=', country)
    .execute();
  return rows
    .map((raw) => readRow(holidays, raw))
    .filter((r) => r.status)
    .map((r) => ({
      name: r.name,
      kind: r.kind,
      month: r.month,
      day: r.day,
      date: r.date,
      days: r.days || 1,
    }));
}

/**
 * The office's working calendar for `country` (default the office's own, system settings
 * `officeCountry`): its weekend days (`weekendDays`) and that country's active holidays.
 */
export async function officeCalendar(
  db: Executor,
  country?: CountryCode,
): Promise<{ country: CountryCode; calendar: WorkingCalendar }> {
  const settings = await readSettings(db);
  const chosen = country ?? settings.officeCountry;
  return { country: chosen, calendar: workingCalendar(settings.weekendDays, await holidaysOf(db, chosen)) };
}

/**
 * `addPeriod` on the office's calendar of `country`; a count the Umm al-Qura table cannot reach is
 * 422 on `field` (the day counted from), in the request's language.
 */
export async function countPeriod(
  db: Executor,
  from: string,
  period: Period,
  options: { country?: CountryCode; field?: string; entity?: string } = {},
): Promise<PeriodResult> {
  const { country, calendar } = await officeCalendar(db, options.country);
  try {
    return { ...addPeriod(from, period, calendar), country };
  } catch (error) {
    if (!(error instanceof OutOfCalendarError)) throw error;
    throw new AppError('validation', {
      ...(options.entity ? { entity: options.entity } : {}),
      errors: { [options.field ?? 'from']: [{ key: 'legal.deadlines.outsideHijriTable' }] },
    });
  }
}
