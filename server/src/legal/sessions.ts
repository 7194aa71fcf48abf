import {
  LEGAL_ROUTES,
  SESSION_TIME_PATTERN,
  customers,
  lawsuits,
  opponents,
  sessions,
  type LawsuitInfo,
  type LawsuitParty,
  type SessionChain,
  type SessionRow,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Expression } from 'kysely';
import { joinTableName } from '../db/migrations';
import { actorOf, asServerWrite, type WriteContext } from '../engine/context';
import type { HookContext, ListFilterCondition, ReadContext } from '../engine/hooks';
import { cols, readRow, selectFields } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';
import { AppError, type Translatable } from '../http/errors';
import { defineRoute } from '../http/route';
import { present } from '../http/values';
import { checkBench } from './bench';

const TABLE = sessions.table;
const {
  date: DATE,
  decision: DECISION,
  previousId: PREVIOUS,
  lawsuitId: LAWSUIT,
  lawyerId: LAWYER,
} = cols(sessions);
const CUSTOMER_LINKS = joinTableName(lawsuits, 'customerIds');
const OPPONENT_LINKS = joinTableName(lawsuits, 'opponentIds');
const LAWYER_LINKS = joinTableName(lawsuits, 'lawyerIds');

/** Hearings of the lawsuits `lawsuitIds` selects (a subquery on the lawsuits' tables). */
const ofLawsuits =
  (
    lawsuitIds: (eb: Parameters<ListFilterCondition>[1]['eb'], value: number) => Expression<unknown>,
  ): ListFilterCondition =>
  (value, { eb, table }) =>
    eb(`${table}.${LAWSUIT}`, 'in', lawsuitIds(eb, Number(value)));

/** Hearings whose lawsuit names party `value` in the join table `links` (clients or opponents). */
const ofParty = (links: string) =>
  ofLawsuits((eb, id) => eb.selectFrom(links).select(`${links}.owner_id`).where(`${links}.ref_id`, '=', id));

const EMPTY_INFO: LawsuitInfo = { caseNumber: null, caseYear: null, customers: [], opponents: [] };

/**
 * `lawsuitInfo` of every hearing in `rows`: the lawsuits' case number and year, and their clients
 * and opponents by id, in three queries for the page whatever its size.
 */
async function lawsuitInfoOf(ctx: ReadContext, rows: readonly ApiRow[]): Promise<Map<number, LawsuitInfo>> {
  const ids = [...new Set(rows.map((r) => r.lawsuitId).filter((id): id is number => typeof id === 'number'))];
  const out = new Map<number, LawsuitInfo>();
  if (!ids.length) return out;
  const found = await selectFields(ctx.db, lawsuits, ['caseNumber', 'caseYear'])
    .where('id', 'in', ids)
    .execute();
  for (const raw of found) {
    const row = readRow(lawsuits, raw);
    out.set(row.id, {
      caseNumber: row.caseNumber,
      caseYear: row.caseYear,
      customers: [],
      opponents: [],
    });
  }
  const parties = async (links: string, table: string): Promise<[number, LawsuitParty][]> =>
    (
      await ctx.db
        .selectFrom(links)
        .innerJoin(table, `${table}.id`, `${links}.ref_id`)
        .select([`${links}.owner_id as owner`, `${table}.id as id`, `${table}.name as name`])
        .where(`${links}.owner_id`, 'in', ids)
        .orderBy(`${table}.id`)
        .execute()
    ).map((r) => [Number(r.owner), { id: Number(r.id), name: String(r.name) }]);
  for (const [owner, party] of await parties(CUSTOMER_LINKS, customers.table))
    out.get(owner)?.customers.push(party);
  for (const [owner, party] of await parties(OPPONENT_LINKS, opponents.table))
    out.get(owner)?.opponents.push(party);
  return out;
}

function invalid(field: string, key: string, params?: Record<string, string | number>): AppError {
  const message: Translatable = { key: `legal.sessions.${key}`, ...(params ? { params } : {}) };
  return new AppError('validation', { entity: sessions.name, errors: { [field]: [message] } });
}

/** `9:30` → `09:30`; 422 on `time` for anything that is not a time of day. Blank stays blank. */
function normalizeTime(values: Record<string, unknown>): void {
  if (!present(values.time)) return;
  const text = String(values.time);
  const padded = /^\d:\d\d$/.test(text) ? `0${text}` : text;
  if (!SESSION_TIME_PATTERN.test(padded)) throw invalid('time', 'timeFormat');
  values.time = padded;
}

/** The date of hearing `id`, `YYYY-MM-DD`; null when there is no such hearing. */
async function dateOf(ctx: { trx: HookContext['trx'] }, id: number): Promise<string | null> {
  const row = await selectFields(ctx.trx, sessions, ['date']).where('id', '=', id).executeTakeFirst();
  return row ? readRow(sessions, row).date : null;
}

async function nextOf(
  ctx: { trx: HookContext['trx'] },
  id: number,
): Promise<{ id: number; date: string } | null> {
  const row = await selectFields(ctx.trx, sessions, ['date']).where(PREVIOUS, '=', id).executeTakeFirst();
  return row ? readRow(sessions, row) : null;
}

/**
 * The hearings of a lawsuit beyond the generic pattern (call once per app, from the legal plugin):
 *
 * - `time` is `HH:mm` (`9:30` accepted as `09:30`), 422 otherwise;
 * - court, circuit and judge left blank on create come from the lawsuit, each only while the ones
 *   above it are the lawsuit's (a hearing moved to another court does not inherit the lawsuit's
 *   circuit); then a circuit must be of the court and a judge of the circuit (`checkBench`);
 * - the date is never before the lawsuit's filing date (422 on `date`), after the previous
 *   hearing's and before the next one's in a chain; changing the date of a postponed-to hearing
 *   keeps the previous hearing's `nextDate` in step, deleting it clears that `nextDate`;
 * - `previousId` and `nextDate` are written only by postponing (declared `setBy: 'action'`: the
 *   engine refuses a form changing them, the module's writes pass with `asServerWrite`);
 * - the `postpone` action; the `nextId` and `lawsuitInfo` (case number and parties) of every
 *   answered row; the list filters `from`/`to` (dates compared as `YYYY-MM-DD` text: calendar
 *   order), `pastWithoutDecision` (before the engine's today, the office's day, with no
 *   decision), `branchId`, `customerId` and `opponentId` (through the lawsuit); and
 *   `GET …/sessions/:id/chain`, each hearing of it under the reader's scope.
 */
export function installSessions(app: FastifyInstance): void {
  const entities = app.entities;
  const lawsuitOf = (ctx: WriteContext, id: unknown) =>
    typeof id === 'number' ? entities.get('lawsuits').getIn(ctx, id) : Promise.resolve(null);

  /** Date rules on the hearing as it will be stored (`row`); `before` on update. */
  async function checkDates(ctx: HookContext, row: Record<string, unknown>, before?: ApiRow): Promise<void> {
    const date = String(row.date ?? '');
    const lawsuit = await lawsuitOf(ctx, row.lawsuitId);
    const filingDate = lawsuit?.filingDate;
    if (typeof filingDate === 'string' && filingDate && date < filingDate)
      throw invalid('date', 'beforeFilingDate', { filingDate });
    if (typeof row.previousId === 'number') {
      const previousDate = await dateOf(ctx, row.previousId);
      if (previousDate && date <= previousDate) throw invalid('date', 'notAfterPrevious', { previousDate });
    }
    if (before) {
      const next = await nextOf(ctx, before.id);
      if (next && date >= next.date) throw invalid('date', 'notBeforeNext', { nextDate: next.date });
    }
  }

  /** Court, circuit and judge left blank: the lawsuit's, while the ones above them are the lawsuit's. */
  async function fillFromLawsuit(ctx: HookContext, values: Record<string, unknown>): Promise<void> {
    const lawsuit = await lawsuitOf(ctx, values.lawsuitId);
    if (!lawsuit) return;
    if (!present(values.courtId)) values.courtId = lawsuit.courtId ?? null;
    if (!present(values.circuitId) && values.courtId === (lawsuit.courtId ?? null))
      values.circuitId = lawsuit.circuitId ?? null;
    if (!present(values.judgeId) && values.circuitId === (lawsuit.circuitId ?? null))
      values.judgeId = lawsuit.judgeId ?? null;
  }

  entities.hooks(sessions.name, {
    async beforeCreate(ctx, values) {
      normalizeTime(values);
      await fillFromLawsuit(ctx, values);
      await checkBench(ctx, sessions.name, values);
      await checkDates(ctx, values);
    },
    async beforeUpdate(ctx, values, before) {
      normalizeTime(values);
      const merged = { ...before, ...values };
      if (['courtId', 'circuitId', 'judgeId'].some((key) => key in values))
        await checkBench(ctx, sessions.name, merged);
      if ('date' in values) await checkDates(ctx, merged, before);
    },
    async afterChange(ctx, { action, before, after }) {
      const service = entities.get(sessions.name);
      // The previous hearing's next date follows this one's date, and is cleared when it goes.
      if (action === 'update' && after && typeof after.previousId === 'number' && before?.date !== after.date)
        await service.patch(asServerWrite(ctx), after.previousId, { nextDate: after.date });
      if (action === 'delete' && before && typeof before.previousId === 'number')
        await service.patch(asServerWrite(ctx), before.previousId, { nextDate: null });
    },
    async expand(ctx, rows) {
      const links = await selectFields(ctx.db, sessions, ['previousId'])
        .where(
          PREVIOUS,
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      const next = new Map(links.map((raw) => readRow(sessions, raw)).map((l) => [l.previousId, l.id]));
      const info = await lawsuitInfoOf(ctx, rows);
      return rows.map((row) => ({
        ...row,
        nextId: next.get(row.id) ?? null,
        lawsuitInfo: info.get(row.lawsuitId as number) ?? EMPTY_INFO,
      }));
    },
    actions: {
      /**
       * Records the decision and the next date on this hearing and creates the next hearing, in
       * the action's one transaction: if creating it fails, this hearing keeps no decision.
       */
      async postpone(ctx, row, body: { decision: string; nextDate: string }) {
        // Two postponements of one hearing at once: the second waits here, then finds the first's
        // next hearing (PostgreSQL; SQLite runs one write transaction at a time).
        if (app.dialect === 'postgres')
          await ctx.trx.selectFrom(TABLE).select('id').where('id', '=', row.id).forUpdate().execute();
        const next = await nextOf(ctx, row.id);
        if (next)
          throw new AppError('conflict', {
            messageKey: 'legal.sessions.alreadyPostponed',
            params: { nextDate: next.date },
            extra: { nextId: next.id },
          });
        if (body.nextDate <= String(row.date))
          throw invalid('nextDate', 'nextDateNotAfter', { date: String(row.date) });
        await entities.get(sessions.name).create(asServerWrite(ctx), {
          lawsuitId: row.lawsuitId,
          date: body.nextDate,
          time: row.time,
          courtId: row.courtId,
          circuitId: row.circuitId,
          judgeId: row.judgeId,
          sessionTypeId: row.sessionTypeId,
          attendanceId: row.attendanceId,
          lawyerId: row.lawyerId,
          previousId: row.id,
        });
        return { set: { decision: body.decision, nextDate: body.nextDate } };
      },
    },
    listFilters: {
      from: (value, { eb, table }) => eb(`${table}.${DATE}`, '>=', String(value)),
      to: (value, { eb, table }) => eb(`${table}.${DATE}`, '<=', String(value)),
      pastWithoutDecision: (value, { eb, table, today }) =>
        value
          ? eb.and([eb(`${table}.${DATE}`, '<', today), eb(`${table}.${DECISION}`, 'is', null)])
          : eb.or([eb(`${table}.${DATE}`, '>=', today), eb(`${table}.${DECISION}`, 'is not', null)]),
      branchId: ofLawsuits((eb, id) =>
        eb.selectFrom(lawsuits.table).select(`${lawsuits.table}.id`).where(cols(lawsuits).branchId, '=', id),
      ),
      customerId: ofParty(CUSTOMER_LINKS),
      opponentId: ofParty(OPPONENT_LINKS),
      // The hearings an employee attends, and every hearing of the lawsuits they are responsible for.
      employeeId: (value, { eb, table }) =>
        eb.or([
          eb(`${table}.${LAWYER}`, '=', Number(value)),
          eb(
            `${table}.${LAWSUIT}`,
            'in',
            eb
              .selectFrom(LAWYER_LINKS)
              .select(`${LAWYER_LINKS}.owner_id`)
              .where(`${LAWYER_LINKS}.ref_id`, '=', Number(value)),
          ),
        ]),
    },
  });

  defineRoute(app, LEGAL_ROUTES.sessionChain, {
    tags: [sessions.name],
    handler: async (request, { params }) => {
      const service = entities.get(sessions.name);
      const asked = await service.get(params.id, actorOf(request));
      // Every link of the lawsuit's hearings (a lawsuit holds tens of hearings, not thousands).
      const links = await selectFields(app.db, sessions, ['previousId'])
        .where(LAWSUIT, '=', asked.lawsuitId as number)
        .execute();
      const previousOf = new Map<number, number>();
      const nextOf = new Map<number, number>();
      for (const raw of links) {
        const link = readRow(sessions, raw);
        if (link.previousId === null) continue;
        previousOf.set(link.id, link.previousId);
        nextOf.set(link.previousId, link.id);
      }
      let first = asked.id;
      while (previousOf.has(first)) first = previousOf.get(first)!;
      const ids = [first];
      while (nextOf.has(ids[ids.length - 1]!)) ids.push(nextOf.get(ids[ids.length - 1]!)!);
      // Each hearing as the reader may see it: one out of their scope is left out of the chain.
      const byId = new Map((await service.getMany(ids, actorOf(request))).map((r) => [r.id, r]));
      const items = ids.flatMap((id) => byId.get(id) ?? []);
      return { data: { items: items as unknown as SessionRow[] } satisfies SessionChain };
    },
  });
}
