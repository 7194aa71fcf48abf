import { AREA_PERMISSIONS, amountForMinutes, employees, lawsuits, timeEntries } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from '../auth/types';
import type { HookContext, ScopeWhere } from '../engine/hooks';
import { cols, readRow, selectFields } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';
import { AppError } from '../http/errors';

const EMPLOYEE = cols(timeEntries).employeeId;

/** Whether `user` sees and writes everyone's time entries, not only their own. */
export const seesAllTime = (user: AuthUser) => user.permissions.has(AREA_PERMISSIONS.financeEveryone);

/** The time entries `user` may see and change: their own, unless they see everyone's. */
export function visibleTimeEntries(user: AuthUser): ScopeWhere | null {
  if (seesAllTime(user)) return null;
  return (eb, table) => eb(`${table}.${EMPLOYEE}`, '=', user.id);
}

const invalid = (field: string, key: string) =>
  new AppError('validation', { entity: timeEntries.name, errors: { [field]: [{ key }] } });

/** A stored hourly rate of a lawsuit or an employee, or null when none is set (or no such row). */
async function storedRate(
  ctx: HookContext,
  entity: typeof lawsuits | typeof employees,
  id: unknown,
): Promise<number | null> {
  if (typeof id !== 'number') return null;
  const row = await selectFields(ctx.trx, entity, ['hourlyRate']).where('id', '=', id).executeTakeFirst();
  return row ? readRow(entity, row).hourlyRate : null;
}

/**
 * The rate an entry takes when none is given: the lawsuit's own hourly rate (an override agreed
 * for that lawsuit), else the employee's, else 0 (time recorded, nothing to bill until a rate is set).
 */
export async function defaultRate(
  ctx: HookContext,
  lawsuitId: unknown,
  employeeId: unknown,
): Promise<number> {
  return (await storedRate(ctx, lawsuits, lawsuitId)) ?? (await storedRate(ctx, employees, employeeId)) ?? 0;
}

/** Someone without `finance.everyone` records and moves time only to themself (422 on `employeeId`). */
function checkEmployee(ctx: HookContext, employeeId: unknown): void {
  const user = ctx.user;
  if (!user || seesAllTime(user) || employeeId === user.id) return;
  throw invalid('employeeId', 'legal.finance.ownTimeOnly');
}

/**
 * Time entries beyond the generic pattern (call once per app, from the finance plugin):
 *
 * - scope: one's own entries, everyone's with `finance.everyone` (another's answers 404);
 * - create: the employee defaults to the actor; the rate to the lawsuit's, else the employee's;
 * - create and update: the amount is the server's, minutes × rate rounded half up (`amountForMinutes`);
 *   an update that clears the rate takes the default again.
 */
export function installTimeEntryHooks(app: FastifyInstance): void {
  app.entities.hooks(timeEntries.name, {
    scope: (_ctx, user) => visibleTimeEntries(user),
    reads: { entities: [], perUser: true },
    async beforeCreate(ctx, values) {
      values.employeeId ??= ctx.user?.id ?? null;
      if (values.employeeId === null) throw invalid('employeeId', 'validation.required');
      checkEmployee(ctx, values.employeeId);
      if (values.rate === undefined || values.rate === null)
        values.rate = await defaultRate(ctx, values.lawsuitId, values.employeeId);
      values.amount = amountForMinutes(values.duration as number, values.rate as number);
    },
    async beforeUpdate(ctx, values, before: ApiRow) {
      if ('employeeId' in values) {
        if (values.employeeId === null) throw invalid('employeeId', 'validation.required');
        if (values.employeeId !== before.employeeId) checkEmployee(ctx, values.employeeId);
      }
      const merged = { ...before, ...values };
      if ('rate' in values && values.rate === null)
        values.rate = await defaultRate(ctx, merged.lawsuitId, merged.employeeId);
      const duration = (values.duration ?? before.duration) as number;
      const rate = (values.rate ?? before.rate ?? 0) as number;
      const amount = amountForMinutes(duration, rate);
      if (amount !== before.amount) values.amount = amount;
    },
  });
}
