import {
  FILE_NUMBER_DIGITS,
  FINAL_OUTCOMES,
  getEntity,
  dayInZone,
  lawsuitCases,
  lawsuits,
  sessions,
} from '@mizan/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../db';
import { raiseCounter, takeNumbersTested } from '../db/counters';
import { stampOf } from '../db/counts';
import type { Trx, WriteContext } from '../engine/context';
import { chunks } from '../engine/repository';
import { cols, readRow, selectFields } from '../engine/rows';
import type { EntityServices } from '../engine/service';
import { AppError } from '../http/errors';
import { present } from '../http/values';
import { checkBench } from './bench';

const { fileNumber: FILE_NUMBER, filingDate: FILING_DATE } = cols(lawsuits);
const HEARING = cols(sessions);
/** The file numbers' series in `number_counters`. */
export const FILE_NUMBERS = 'lawsuits.fileNumber';
/** A file number the counter knows: `<year>/<digits>` (longer digit strings are left to the unique index). */
const COUNTED = /^(\d{4})\/(\d{1,15})$/;

function invalid(field: string, key: string, params?: Record<string, string | number>): AppError {
  return new AppError('validation', {
    entity: lawsuits.name,
    errors: { [field]: [{ key: `legal.lawsuits.${key}`, ...(params ? { params } : {}) }] },
  });
}

/** The largest all-digit file number of `year` in the table (typed ones included), 0 when none. */
async function largestFileNumber(trx: Trx, dialect: Dialect, year: number): Promise<number> {
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
  return row ? Number(String(readRow(lawsuits, row).fileNumber).slice(prefix.length)) : 0;
}

/** Whether a lawsuit already has one of `fileNumbers`. */
async function anyStored(trx: Trx, fileNumbers: readonly string[]): Promise<boolean> {
  for (const part of chunks(fileNumbers))
    if (
      await selectFields(trx, lawsuits, ['fileNumber'])
        .where(FILE_NUMBER, 'in', part)
        .limit(1)
        .executeTakeFirst()
    )
      return true;
  return false;
}

const formatFileNumber = (year: number, n: number) =>
  `${year}/${String(n).padStart(FILE_NUMBER_DIGITS, '0')}`;

/**
 * `count` generated file numbers of the current year (the office's, by its time zone):
 * `<year>/<n>`, `n` after the largest all-digit number of that year (typed ones included), at
 * least `FILE_NUMBER_DIGITS` digits. Taken from the year's counter (`takeNumbers`: race-safe; on
 * PostgreSQL a sequence, no lock held to commit). A number the counter did not see (a year that began before
 * it, rows another release or a restore wrote) is found taken by one indexed look-up; the counter
 * then starts again after the largest in the table. The unique index stays the last guard (409).
 */
async function nextFileNumbers(
  trx: Trx,
  dialect: Dialect,
  timeZone: string,
  count: number,
): Promise<string[]> {
  // The office's year: at New Year it turns at midnight in the office's time zone, not UTC's.
  const year = Number(dayInZone(timeZone, new Date()).slice(0, 4));
  // Taken and looked up in one statement on PostgreSQL: the number as `formatFileNumber` writes it.
  const stored = (n: RawBuilder<number>) =>
    sql<boolean>`exists (select 1 from ${sql.table(lawsuits.table)} where ${sql.ref(FILE_NUMBER)} =
      ${`${year}/`} || lpad(${n}::text, greatest(length(${n}::text), ${FILE_NUMBER_DIGITS}), '0'))`;
  const take = async () => {
    const { numbers, tested } = await takeNumbersTested(trx, dialect, FILE_NUMBERS, year, count, stored);
    const picked = numbers.map((n) => formatFileNumber(year, n));
    return { picked, taken: tested ?? (await anyStored(trx, picked)) };
  };
  const first = await take();
  if (!first.taken) return first.picked;
  const largest = await largestFileNumber(trx, dialect, year);
  await raiseCounter(trx, dialect, FILE_NUMBERS, year, largest);
  return (await take()).picked;
}

/** Typed file numbers of the counted form raise their year's counter: generated ones come after. */
async function countTyped(trx: Trx, dialect: Dialect, fileNumbers: readonly unknown[]): Promise<void> {
  const largest = new Map<number, number>();
  for (const value of fileNumbers) {
    const match = typeof value === 'string' ? COUNTED.exec(value) : null;
    if (!match) continue;
    const [year, n] = [Number(match[1]), Number(match[2])];
    largest.set(year, Math.max(largest.get(year) ?? 0, n));
  }
  for (const [year, n] of largest) await raiseCounter(trx, dialect, FILE_NUMBERS, year, n);
}

/** A completed lawsuit carries its final case (closing asks for it). */
function checkCompleted(merged: Record<string, unknown>): void {
  if (merged.state === 'completed' && !present(merged.lawsuitCaseId))
    throw invalid('lawsuitCaseId', 'finalCaseRequired');
}

/**
 * The lawsuits beyond the generic pattern (call once per app, from the legal plugin):
 *
 * - a file number left blank is generated (`nextFileNumbers`); a typed one is kept (unique: 409);
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
  /** The pending case as last read, with the cases' write version it was read at. */
  let pendingKept: { stamp: string; id: number | null } | undefined;
  const CASES = [lawsuitCases.name];
  /** The office's first active case whose outcome is still pending, read again when the cases change. */
  const pendingCase = async (ctx: WriteContext): Promise<number | null> => {
    const stamp = ctx.versions ? stampOf(ctx.versions, CASES).stamp : null;
    if (stamp !== null && pendingKept?.stamp === stamp) return pendingKept.id;
    const pending = await ctx.trx
      .selectFrom(getEntity(lawsuitCases.name).table)
      .select('id')
      .where('outcome', '=', 'ongoing')
      .where('status', '=', true)
      .orderBy('id')
      .executeTakeFirst();
    const id = pending ? Number(pending.id) : null;
    if (stamp !== null) pendingKept = { stamp, id };
    return id;
  };

  entities.hooks(lawsuits.name, {
    async beforeCreate(ctx, values) {
      // A new lawsuit is pending until someone records otherwise: the office's first active case
      // whose outcome is still pending ("قيد النظر"), when it has one.
      if (!present(values.lawsuitCaseId) && values.state !== 'completed') {
        const pending = await pendingCase(ctx);
        if (pending !== null) values.lawsuitCaseId = pending;
      }
      checkCompleted(values);
      await checkBench(ctx, lawsuits.name, values);
    },
    // The numbers are taken last, once every check has passed: a refused create takes none.
    async beforeInsert(ctx, rows) {
      await countTyped(
        ctx.trx,
        dialect,
        rows.map((row) => row.fileNumber),
      );
      const blank = rows.filter((row) => !present(row.fileNumber));
      if (!blank.length) return;
      const numbers = await nextFileNumbers(ctx.trx, dialect, await timeZone(ctx.trx), blank.length);
      blank.forEach((row, i) => (row.fileNumber = numbers[i]));
    },
    async beforeUpdate(ctx, values, before) {
      if ('fileNumber' in values && !present(values.fileNumber))
        throw new AppError('validation', {
          entity: lawsuits.name,
          errors: { fileNumber: [{ key: 'validation.required' }] },
        });
      if ('fileNumber' in values) await countTyped(ctx.trx, dialect, [values.fileNumber]);
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
