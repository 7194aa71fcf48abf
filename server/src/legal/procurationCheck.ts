import {
  LEGAL_ROUTES,
  customers,
  lawsuits,
  procurations,
  sessions,
  type ProcurationCheck,
  type ProcurationProblem,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db';
import { joinTableName } from '../db/migrations';
import type { Trx } from '../engine/context';
import type { HookContext } from '../engine/hooks';
import { cols, readRow } from '../engine/rows';
import type { EntityServices } from '../engine/service';
import { officeToday } from '../engine/today';
import { AppError, type Translatable } from '../http/errors';
import { defineRoute } from '../http/route';
import { present } from '../http/values';
import { readSettings } from '../settings/repository';

const CLIENTS_OF_PROCURATION = joinTableName(procurations, 'customerIds');
const CLIENTS_OF_LAWSUIT = joinTableName(lawsuits, 'customerIds');
const { expiryDate: EXPIRY, litigation: LITIGATION } = cols(procurations);
const SESSIONS = sessions.table;
const { lawsuitId: LAWSUIT, date: DATE } = cols(sessions);

const ids = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];

/** The clients of a lawsuit, by id. */
async function clientsOfLawsuit(db: Db | Trx, lawsuitId: number): Promise<number[]> {
  const rows = await db
    .selectFrom(CLIENTS_OF_LAWSUIT)
    .select('ref_id')
    .where('owner_id', '=', lawsuitId)
    .execute();
  return rows.map((r) => Number(r.ref_id));
}

/**
 * Which of `customerIds` have no active power of attorney covering litigation on `day`, and why
 * (see `ProcurationProblem`), in two queries whatever their number; ordered by client id. An
 * open-ended power of attorney (no expiry) is in force on every day from its issue.
 */
export async function procurationProblems(
  db: Db | Trx,
  customerIds: readonly number[],
  day: string,
): Promise<ProcurationProblem[]> {
  const wanted = [...new Set(customerIds)].sort((a, b) => a - b);
  if (wanted.length === 0) return [];
  const names = await db
    .selectFrom(customers.table)
    .select(['id', 'name'])
    .where('id', 'in', wanted)
    .execute();
  const held = await db
    .selectFrom(CLIENTS_OF_PROCURATION)
    .innerJoin(procurations.table, `${procurations.table}.id`, `${CLIENTS_OF_PROCURATION}.owner_id`)
    .select([
      `${CLIENTS_OF_PROCURATION}.ref_id as customerId`,
      `${procurations.table}.${EXPIRY}`,
      `${procurations.table}.${LITIGATION}`,
    ])
    .where(`${CLIENTS_OF_PROCURATION}.ref_id`, 'in', wanted)
    .where(`${procurations.table}.status`, '=', true)
    .execute();
  const byClient = new Map<number, { expiry: string | null; litigation: boolean }[]>();
  for (const row of held) {
    const list = byClient.get(Number(row.customerId)) ?? [];
    const { expiryDate, litigation } = readRow(procurations, row, ['expiryDate', 'litigation']);
    // A column added to a table that had rows holds null for them until written: a litigation one.
    list.push({
      expiry: expiryDate === null ? null : expiryDate.slice(0, 10),
      litigation: litigation ?? true,
    });
    byClient.set(Number(row.customerId), list);
  }
  const problems: ProcurationProblem[] = [];
  for (const { id, name } of names) {
    const customerId = Number(id);
    const all = byClient.get(customerId) ?? [];
    const base = { customerId, name: String(name), expiredOn: null };
    if (all.length === 0) {
      problems.push({ ...base, reason: 'none' });
      continue;
    }
    const inForce = all.filter((p) => p.expiry === null || p.expiry >= day);
    if (inForce.length === 0) {
      const last = all.map((p) => p.expiry!).sort()[all.length - 1]!;
      problems.push({ ...base, reason: 'expired', expiredOn: last });
    } else if (!inForce.some((p) => p.litigation)) problems.push({ ...base, reason: 'notLitigation' });
  }
  return problems.sort((a, b) => a.customerId - b.customerId);
}

/** The field message of one client's problem, in the request's language when translated. */
const message = (problem: ProcurationProblem): Translatable => ({
  key: `legal.procurationCheck.${problem.reason}`,
  params: { name: problem.name, ...(problem.expiredOn ? { date: problem.expiredOn } : {}) },
});

/**
 * In `refuse` mode, 422 on `field` naming each client of `customerIds` without a power of
 * attorney for litigation on `day` and why; in `warn` mode nothing (the form has warned).
 */
async function enforce(
  ctx: HookContext,
  entity: string,
  field: string,
  customerIds: readonly number[],
  day: string,
): Promise<void> {
  const settings = await readSettings(ctx.trx);
  if (settings.procurationCheck !== 'refuse') return;
  const problems = await procurationProblems(ctx.trx, customerIds, day);
  if (problems.length === 0) return;
  throw new AppError('validation', { entity, errors: { [field]: problems.map(message) } });
}

/**
 * The power-of-attorney check of the office's writes: a lawsuit created, or its filing recorded
 * (its filing date set or changed), with a client who has no power of attorney covering
 * litigation on that day (the filing date, else today); a hearing scheduled (created, or moved to
 * another day or lawsuit) for a lawsuit whose client has none on the hearing's day. What it does is
 * the system setting `procurationCheck`: `refuse` is 422 on `customerIds` (lawsuit) or `date`
 * (hearing), one message per client; `warn` lets the write through (the forms warn beforehand
 * through `GET procurationCheck`). The lawsuits' list filter `procurationGap=true`: those with a
 * hearing from today on whose day a client's powers of attorney do not cover (`false`: the others).
 */
export function installProcurationCheck(app: FastifyInstance, entities: EntityServices): void {
  const todayOf = async (trx: Trx) => officeToday((await readSettings(trx)).timeZone, app.clock()).today;
  entities.hooks(lawsuits.name, {
    listFilters: {
      procurationGap: (value, { eb, table, today }) => {
        const gap = eb.exists(
          eb
            .selectFrom(`${SESSIONS} as s`)
            .innerJoin(`${CLIENTS_OF_LAWSUIT} as lc`, 'lc.owner_id', `s.${LAWSUIT}`)
            .select(sql.lit(1).as('one'))
            .whereRef(`s.${LAWSUIT}`, '=', `${table}.id`)
            .where(`s.${DATE}`, '>=', today)
            .where(({ not, exists, selectFrom, or, eb: inner }) =>
              not(
                exists(
                  selectFrom(`${CLIENTS_OF_PROCURATION} as pc`)
                    .innerJoin(`${procurations.table} as p`, 'p.id', 'pc.owner_id')
                    .select(sql.lit(1).as('one'))
                    .whereRef('pc.ref_id', '=', 'lc.ref_id')
                    .where('p.status', '=', true)
                    .where(`p.${LITIGATION}`, '=', true)
                    .where(
                      or([
                        inner(`p.${EXPIRY}`, 'is', null),
                        inner(`p.${EXPIRY}`, '>=', inner.ref(`s.${DATE}`)),
                      ]),
                    ),
                ),
              ),
            ),
        );
        return value ? gap : eb.not(gap);
      },
    },
    async beforeCreate(ctx, values) {
      const day = present(values.filingDate) ? String(values.filingDate) : await todayOf(ctx.trx);
      await enforce(ctx, lawsuits.name, 'customerIds', ids(values.customerIds), day);
    },
    async beforeUpdate(ctx, values, before) {
      const filed =
        'filingDate' in values && present(values.filingDate) && values.filingDate !== before.filingDate;
      if (!filed && !('customerIds' in values)) return;
      const merged = { ...before, ...values };
      const day = present(merged.filingDate) ? String(merged.filingDate) : await todayOf(ctx.trx);
      await enforce(ctx, lawsuits.name, 'customerIds', ids(merged.customerIds), day);
    },
  });
  /** A hearing held on its day for its lawsuit's clients: checked on the hearing's date. */
  const enforceHearing = async (ctx: HookContext, hearing: Record<string, unknown>) => {
    if (typeof hearing.lawsuitId !== 'number' || !present(hearing.date)) return;
    await enforce(
      ctx,
      sessions.name,
      'date',
      await clientsOfLawsuit(ctx.trx, hearing.lawsuitId),
      String(hearing.date),
    );
  };
  entities.hooks(sessions.name, {
    beforeCreate: (ctx, values) => enforceHearing(ctx, values),
    async beforeUpdate(ctx, values, before) {
      const moved =
        ('date' in values && values.date !== before.date) ||
        ('lawsuitId' in values && values.lawsuitId !== before.lawsuitId);
      if (moved) await enforceHearing(ctx, { ...before, ...values });
    },
  });

  defineRoute(app, LEGAL_ROUTES.procurationCheck, {
    tags: [lawsuits.name],
    handler: async (_request, { query }) => {
      const settings = await readSettings(app.db);
      const date = query.date ?? officeToday(settings.timeZone, app.clock()).today;
      const clients = [
        ...(query.customerIds ?? []),
        ...(query.lawsuitId !== undefined ? await clientsOfLawsuit(app.db, query.lawsuitId) : []),
      ];
      const problems = await procurationProblems(app.db, clients, date);
      return { data: { mode: settings.procurationCheck, date, problems } satisfies ProcurationCheck };
    },
  });
}
