import {
  PERIOD_MAX,
  courts,
  deadlineRules,
  deadlines,
  holidays,
  lawsuitCases,
  lawsuits,
  sessions,
  type CountryCode,
  type DeadlineEvent,
  type PeriodCalendar,
  type PeriodShift,
  type PeriodUnit,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { toBoolean } from '../db';
import { joinTableName } from '../db/migrations';
import type { WriteContext } from '../engine/context';
import { cols, readRow, selectFields } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';
import { officeToday } from '../engine/today';
import { AppError, type Translatable } from '../http/errors';
import { present } from '../http/values';
import { readSettings, readTimeZone } from '../system';
import { countPeriod } from './calendar';
import { gregorianMonthLength, hijriString, toHijri } from './period';

const DEADLINE = cols(deadlines);
const { dueDate: DUE, state: STATE, lawsuitId: LAWSUIT, ruleId: RULE, sessionId: SESSION } = DEADLINE;
const RULE_TYPES = joinTableName(deadlineRules, 'lawsuitTypeIds');
const LAWSUIT_LAWYERS = joinTableName(lawsuits, 'lawyerIds');

function invalid(
  entity: string,
  field: string,
  key: string,
  params?: Record<string, string | number>,
): AppError {
  const message: Translatable = { key: `legal.deadlines.${key}`, ...(params ? { params } : {}) };
  return new AppError('validation', { entity, errors: { [field]: [message] } });
}

/**
 * A holiday's day must exist in its calendar: a recurring one needs its month and day (at most 30
 * in a Hijri month, at most the month's length in a Gregorian one, 29 February allowed), a
 * one-off one its date. 422 on the field otherwise.
 */
function checkHoliday(row: Record<string, unknown>): void {
  const kind = row.kind;
  if (kind === 'once') {
    if (!present(row.date)) throw invalid(holidays.name, 'date', 'holidayDateRequired');
    return;
  }
  for (const field of ['month', 'day'] as const)
    if (!present(row[field])) throw invalid(holidays.name, field, 'holidayDayRequired');
  const month = Number(row.month);
  const day = Number(row.day);
  const max = kind === 'hijri' ? 30 : gregorianMonthLength(2024, month);
  if (day > max) throw invalid(holidays.name, 'day', 'impossibleDay', { max });
}

/** A rule's period in months is at most `PERIOD_MAX.months` (422 on `amount`). */
function checkRule(row: Record<string, unknown>): void {
  if (row.unit === 'months' && Number(row.amount) > PERIOD_MAX.months)
    throw new AppError('validation', {
      entity: deadlineRules.name,
      errors: { amount: [{ key: 'validation.number.max', params: { maximum: PERIOD_MAX.months } }] },
    });
}

/** A rule row as the deadline needs it. */
interface Rule {
  id: number;
  amount: number;
  unit: PeriodUnit;
  calendar: PeriodCalendar;
  shift: PeriodShift;
  action: string;
  legalBasis: string | null;
  country: CountryCode | null;
}

const ruleOf = (row: ApiRow): Rule => ({
  id: row.id,
  amount: Number(row.amount),
  unit: row.unit as PeriodUnit,
  calendar: row.calendar as PeriodCalendar,
  shift: row.shift as PeriodShift,
  action: String(row.action),
  legalBasis: (row.legalBasis as string | null) ?? null,
  country: (row.country as CountryCode | null) ?? null,
});

/** What an event on a lawsuit starts: its day, the hearing it happened at (if any), and that hearing's court. */
export interface LegalEvent {
  lawsuitId: number;
  event: DeadlineEvent;
  startDate: string;
  sessionId?: number | null;
  courtId?: number | null;
  lawyerId?: number | null;
}

/**
 * The hooks of holidays, rules and deadlines, and the events that create deadlines: a hearing's
 * decision recorded as a judgment (`judgmentIssued`, from the hearing's date), its service date
 * (`judgmentServed`), any first decision at a hearing (`hearingDecision`), and a lawsuit closed with
 * a won or lost case (`judgmentIssued`, from the office's today, unless a judgment already started
 * that rule's deadline). Each matching active rule makes one deadline, once per event and hearing.
 */
export function installDeadlineHooks(app: FastifyInstance): void {
  const entities = app.entities;

  entities.hooks(holidays.name, {
    beforeCreate: (_ctx, values) => checkHoliday(values),
    beforeUpdate: (_ctx, values, before) => checkHoliday({ ...before, ...values }),
  });
  entities.hooks(deadlineRules.name, {
    beforeCreate: (_ctx, values) => checkRule(values),
    beforeUpdate: (_ctx, values, before) => checkRule({ ...before, ...values }),
  });

  /** The lawsuit's first responsible lawyer, or null. */
  async function firstLawyer(ctx: WriteContext, lawsuitId: number): Promise<number | null> {
    const row = await ctx.trx
      .selectFrom(LAWSUIT_LAWYERS)
      .select('ref_id')
      .where('owner_id', '=', lawsuitId)
      .orderBy('ref_id')
      .executeTakeFirst();
    return row ? Number(row.ref_id) : null;
  }

  const dueOf = async (ctx: WriteContext, from: string, rule: Rule, field: string) =>
    countPeriod(ctx.trx, from, rule, { country: rule.country ?? undefined, field, entity: deadlines.name });

  entities.hooks(deadlines.name, {
    async beforeCreate(ctx, values) {
      const start = String(values.startDate);
      if (typeof values.ruleId === 'number') {
        const row = await entities.get(deadlineRules.name).getIn(ctx, values.ruleId);
        if (row) {
          const rule = ruleOf(row);
          values.action = rule.action;
          if (!present(values.legalBasis)) values.legalBasis = rule.legalBasis;
          if (!present(values.event)) values.event = row.event;
          if (!present(values.dueDate)) values.dueDate = (await dueOf(ctx, start, rule, 'startDate')).due;
        }
      }
      if (!present(values.dueDate))
        throw new AppError('validation', {
          entity: deadlines.name,
          errors: { dueDate: ['validation.required'] },
        });
      if (String(values.dueDate) < start)
        throw invalid(deadlines.name, 'dueDate', 'dueBeforeStart', { start });
      values.dueHijri = hijriOrNull(String(values.dueDate));
    },
    actions: {
      async changeDue(_ctx, row, body: { dueDate: string; reason: string }) {
        if (row.state !== 'open') throw new AppError('conflict', { messageKey: 'legal.deadlines.notOpen' });
        if (body.dueDate < String(row.startDate))
          throw invalid(deadlines.name, 'dueDate', 'dueBeforeStart', { start: String(row.startDate) });
        return {
          set: { dueDate: body.dueDate, dueHijri: hijriOrNull(body.dueDate), dueChangeReason: body.reason },
        };
      },
      close(_ctx, row, body: { state: 'done' | 'waived'; note?: string | null }) {
        if (row.state !== 'open') throw new AppError('conflict', { messageKey: 'legal.deadlines.notOpen' });
        return { set: { state: body.state, ...(body.note ? { note: body.note } : {}) } };
      },
      reopen(_ctx, row) {
        if (row.state === 'open')
          throw new AppError('conflict', { messageKey: 'legal.deadlines.alreadyOpen' });
        return { set: { state: 'open' } };
      },
    },
    listFilters: {
      dueFrom: (value, { eb, table }) => eb(`${table}.${DUE}`, '>=', String(value)),
      dueTo: (value, { eb, table }) => eb(`${table}.${DUE}`, '<=', String(value)),
      dueWithinDays: (value, { eb, table, today, daysFromToday }) =>
        eb.and([
          eb(`${table}.${STATE}`, '=', 'open'),
          eb(`${table}.${DUE}`, '>=', today),
          eb(`${table}.${DUE}`, '<=', daysFromToday(Number(value))),
        ]),
      overdue: (value, { eb, table, today }) =>
        value
          ? eb.and([eb(`${table}.${STATE}`, '=', 'open'), eb(`${table}.${DUE}`, '<', today)])
          : eb.or([eb(`${table}.${STATE}`, '!=', 'open'), eb(`${table}.${DUE}`, '>=', today)]),
    },
  });

  /** The active rules of `event` that apply to the lawsuit (its type) judged by a court of `courtType`, in `country`. */
  async function rulesFor(
    ctx: WriteContext,
    event: DeadlineEvent,
    lawsuitTypeId: number | null,
    courtType: string | null,
    country: CountryCode,
  ): Promise<Rule[]> {
    const rows = await selectFields(ctx.trx, deadlineRules, ['status'])
      .where(cols(deadlineRules).event, '=', event)
      .orderBy('id')
      .execute();
    const ids = rows.map((raw) => readRow(deadlineRules, raw)).flatMap((r) => (r.status ? [r.id] : []));
    if (!ids.length) return [];
    const types = await ctx.trx
      .selectFrom(RULE_TYPES)
      .select(['owner_id', 'ref_id'])
      .where('owner_id', 'in', ids)
      .execute();
    const out: Rule[] = [];
    for (const id of ids) {
      const row = await entities.get(deadlineRules.name).getIn(ctx, id);
      if (!row) continue;
      const ofTypes = types.filter((t) => Number(t.owner_id) === id).map((t) => Number(t.ref_id));
      if (ofTypes.length && (lawsuitTypeId === null || !ofTypes.includes(lawsuitTypeId))) continue;
      if (row.courtType && row.courtType !== courtType) continue;
      if (row.country && row.country !== country) continue;
      out.push(ruleOf(row));
    }
    return out;
  }

  /**
   * Creates the deadlines `event` starts on its lawsuit, one per matching rule, skipping a rule
   * that already has a deadline for this hearing (or, without a hearing, for this event). Runs in
   * the write's transaction: recorded with the judgment, or not at all.
   */
  async function startDeadlines(ctx: WriteContext, event: LegalEvent): Promise<number> {
    const lawsuit = await entities.get(lawsuits.name).getIn(ctx, event.lawsuitId);
    if (!lawsuit) return 0;
    const courtId = event.courtId ?? (lawsuit.courtId as number | null) ?? null;
    const court = courtId === null ? null : await entities.get(courts.name).getIn(ctx, courtId);
    const { officeCountry } = await readSettings(ctx.trx);
    const rules = await rulesFor(
      ctx,
      event.event,
      (lawsuit.lawsuitTypeId as number | null) ?? null,
      (court?.courtType as string | null) ?? null,
      officeCountry,
    );
    let made = 0;
    for (const rule of rules) {
      let existing = ctx.trx
        .selectFrom(deadlines.table)
        .select('id')
        .where(LAWSUIT, '=', event.lawsuitId)
        .where(RULE, '=', rule.id)
        .where(DEADLINE.event, '=', event.event);
      if (event.sessionId) existing = existing.where(SESSION, '=', event.sessionId);
      else if (event.event !== 'judgmentIssued')
        existing = existing.where(DEADLINE.startDate, '=', event.startDate);
      if (await existing.executeTakeFirst()) continue;
      await entities.get(deadlines.name).create(ctx, {
        lawsuitId: event.lawsuitId,
        ruleId: rule.id,
        event: event.event,
        sessionId: event.sessionId ?? null,
        startDate: event.startDate,
        // The lawsuit's responsible lawyer answers for it; the attending one when it has none.
        lawyerId: (await firstLawyer(ctx, event.lawsuitId)) ?? event.lawyerId ?? null,
      });
      made++;
    }
    return made;
  }

  entities.hooks(sessions.name, {
    async afterChange(ctx, { before, after }) {
      if (!after) return;
      const decided = (row: ApiRow | null) => typeof row?.decision === 'string' && row.decision.trim() !== '';
      const base = {
        lawsuitId: after.lawsuitId as number,
        sessionId: after.id,
        courtId: (after.courtId as number | null) ?? null,
        lawyerId: (after.lawyerId as number | null) ?? null,
      };
      const date = String(after.date);
      if (decided(after) && !decided(before))
        await startDeadlines(ctx, { ...base, event: 'hearingDecision', startDate: date });
      const judged = (row: ApiRow | null) => decided(row) && toBoolean(row?.judgment as boolean);
      if (judged(after) && !judged(before))
        await startDeadlines(ctx, { ...base, event: 'judgmentIssued', startDate: date });
      if (present(after.servedOn) && after.servedOn !== before?.servedOn)
        await startDeadlines(ctx, { ...base, event: 'judgmentServed', startDate: String(after.servedOn) });
    },
  });

  entities.hooks(lawsuits.name, {
    async afterChange(ctx, { action, after }) {
      if (action !== 'close' || !after || typeof after.lawsuitCaseId !== 'number') return;
      const finalCase = await entities.get(lawsuitCases.name).getIn(ctx, after.lawsuitCaseId);
      if (finalCase?.outcome !== 'won' && finalCase?.outcome !== 'lost') return;
      const { today } = officeToday(await readTimeZone(ctx.trx), app.clock());
      await startDeadlines(ctx, { lawsuitId: after.id, event: 'judgmentIssued', startDate: today });
    },
  });
}

/** The Umm al-Qura day of `day` as `YYYY-MM-DD`, or null beyond the table. */
function hijriOrNull(day: string): string | null {
  try {
    return hijriString(toHijri(day));
  } catch {
    return null;
  }
}
