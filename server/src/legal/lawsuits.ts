import {
  FILE_NUMBER_DIGITS,
  FINAL_OUTCOMES,
  getEntity,
  dayInZone,
  lawsuitCases,
  lawsuits,
  sessions,
} from '@mizan/contracts';
import { sql } from 'kysely';
import type { Dialect } from '../db';
import type { Trx } from '../engine/context';
import { cols, readRow, selectFields } from '../engine/rows';
import type { EntityServices } from '../engine/service';
import { AppError } from '../http/errors';
import { present } from '../http/values';
import { checkBench } from './bench';

const { fileNumber: FILE_NUMBER, filingDate: FILING_DATE } = cols(lawsuits);
const HEARING = cols(sessions);
/** `pg_advisory_xact_lock(class, year)`: one writer at a time picks a year's next file number. */
const FILE_NUMBER_LOCK = 0x6c617773; // 'laws'

function invalid(field: string, key: string, params?: Record<string, string | number>): AppError {
  return new AppError('validation', {
    entity: lawsuits.name,
    errors: { [field]: [{ key: `legal.lawsuits.${key}`, ...(params ? { params } : {}) }] },
  });
}

/** Numbers handed out in a transaction not yet inserted (a `createMany` batch), per year. */
const handedOut = new WeakMap<Trx, Map<string, number>>();

/**
 * The next generated file number of the current year (the office's, by its time zone): `<year>/<n>`, `n` one more than the
 * largest all-digit number of that year (typed ones included), at least `FILE_NUMBER_DIGITS`
 * digits. Race-safe: on PostgreSQL a transaction-scoped advisory lock per year makes concurrent
 * creates take turns (the second reads after the first commits, READ COMMITTED); SQLite runs one
 * write transaction at a time. The unique index stays the last guard (409).
 */
async function nextFileNumber(trx: Trx, dialect: Dialect, timeZone: string): Promise<string> {
  // The office's year: at New Year it turns at midnight in the office's time zone, not UTC's.
  const year = dayInZone(timeZone, new Date()).slice(0, 4);
  if (dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(${FILE_NUMBER_LOCK}, ${Number(year)})`.execute(trx);
  const prefix = `${year}/`;
  const digitsOnly =
    dialect === 'postgres'
      ? sql<boolean>`${sql.ref(FILE_NUMBER)} ~ ${`^${year}/[0-9]+$`}`
      : sql<boolean>`${sql.ref(FILE_NUMBER)} glob ${`${year}/[0-9]*`} and substr(${sql.ref(FILE_NUMBER)}, ${prefix.length + 1}) not glob '*[^0-9]*'`;
  const row = await selectFields(trx, lawsuits, ['fileNumber'])
    .where(digitsOnly)
    // The longest digit string is the largest number; among equal lengths, text order is numeric.
    .orderBy(sql`length(${sql.ref(FILE_NUMBER)})`, 'desc')
    .orderBy(FILE_NUMBER, 'desc')
    .limit(1)
    .executeTakeFirst();
  const stored = row ? Number(String(readRow(lawsuits, row).fileNumber).slice(prefix.length)) : 0;
  const batch = handedOut.get(trx) ?? new Map<string, number>();
  handedOut.set(trx, batch);
  const next = Math.max(stored, batch.get(year) ?? 0) + 1;
  batch.set(year, next);
  return `${prefix}${String(next).padStart(FILE_NUMBER_DIGITS, '0')}`;
}

/** A completed lawsuit carries its final case (closing asks for it). */
function checkCompleted(merged: Record<string, unknown>): void {
  if (merged.state === 'completed' && !present(merged.lawsuitCaseId))
    throw invalid('lawsuitCaseId', 'finalCaseRequired');
}

/**
 * The lawsuits beyond the generic pattern (call once per app, from the legal plugin):
 *
 * - a file number left blank is generated (`nextFileNumber`); a typed one is kept (unique: 409);
 *   blanking it on update is refused (422);
 * - a circuit must be of the court, a judge of the circuit (`checkBench`, 422 on the field);
 * - `state` changes only through `close` (the final case required, 422 on `lawsuitCaseId`; 409
 *   when already completed) and `reopen` (409 when active), each audited under its own name; a
 *   form sending another state is 422 on `state`; a lawsuit created completed needs its case;
 * - list filters `filedFrom`/`filedTo` (filing date, both days included) and `hearingWithinDays=N`
 *   (a hearing dated between today and today + N days, the office's day as the engine gives it).
 */
export function installLawsuitHooks(
  entities: EntityServices,
  dialect: Dialect,
  /**
   * The office's time zone (system settings), read in the write's transaction (SQLite has one
   * connection: a read beside the open transaction would wait for it forever).
   */
  timeZone: (trx: Trx) => Promise<string>,
): void {
  entities.hooks(lawsuits.name, {
    async beforeCreate(ctx, values) {
      // A new lawsuit is pending until someone records otherwise: the office's first active case
      // whose outcome is still pending ("قيد النظر"), when it has one.
      if (!present(values.lawsuitCaseId) && values.state !== 'completed') {
        const pending = await ctx.trx
          .selectFrom(getEntity(lawsuitCases.name).table)
          .select('id')
          .where('outcome', '=', 'ongoing')
          .where('status', '=', true)
          .orderBy('id')
          .executeTakeFirst();
        if (pending) values.lawsuitCaseId = Number(pending.id);
      }
      checkCompleted(values);
      await checkBench(ctx, lawsuits.name, values);
      // Last: on PostgreSQL the number's lock is held until commit, and creates wait for it in turn.
      if (!present(values.fileNumber))
        values.fileNumber = await nextFileNumber(ctx.trx, dialect, await timeZone(ctx.trx));
    },
    async beforeUpdate(ctx, values, before) {
      if ('fileNumber' in values && !present(values.fileNumber))
        throw new AppError('validation', {
          entity: lawsuits.name,
          errors: { fileNumber: [{ key: 'validation.required' }] },
        });
      const merged = { ...before, ...values };
      checkCompleted(merged);
      if (['courtId', 'circuitId', 'judgeId'].some((key) => key in values))
        await checkBench(ctx, lawsuits.name, merged);
    },
    actions: {
      async close(ctx, row, body: { lawsuitCaseId: number }) {
        if (row.state === 'completed')
          throw new AppError('conflict', { messageKey: 'legal.lawsuits.alreadyClosed' });
        const found = await ctx.trx
          .selectFrom(getEntity(lawsuitCases.name).table)
          .select(['id', 'outcome'])
          .where('id', '=', body.lawsuitCaseId)
          .executeTakeFirst();
        if (!found)
          throw new AppError('validation', {
            entity: lawsuits.name,
            errors: { lawsuitCaseId: [{ key: 'http.referenceMissing' }] },
          });
        // A closed lawsuit was decided: a case still pending is no final state.
        if (!FINAL_OUTCOMES.includes(found.outcome as (typeof FINAL_OUTCOMES)[number]))
          throw invalid('lawsuitCaseId', 'caseNotFinal');
        return { set: { state: 'completed', lawsuitCaseId: body.lawsuitCaseId } };
      },
      reopen(_ctx, row) {
        if (row.state !== 'completed')
          throw new AppError('conflict', { messageKey: 'legal.lawsuits.notClosed' });
        return { set: { state: 'active' } };
      },
    },
    listFilters: {
      filedFrom: (day, { eb, table }) => eb(`${table}.${FILING_DATE}`, '>=', String(day)),
      filedTo: (day, { eb, table }) => eb(`${table}.${FILING_DATE}`, '<=', String(day)),
      // A hearing (sessions: the legal module's hearings) between today and today + N days.
      hearingWithinDays: (days, { eb, table, today, daysFromToday }) => {
        const hearings = sessions.table;
        return eb.exists(
          eb
            .selectFrom(hearings)
            .select(sql.lit(1).as('one'))
            .whereRef(`${hearings}.${HEARING.lawsuitId}`, '=', `${table}.id`)
            .where(`${hearings}.${HEARING.date}`, '>=', today)
            .where(`${hearings}.${HEARING.date}`, '<=', daysFromToday(Number(days))),
        );
      },
    },
  });
}
