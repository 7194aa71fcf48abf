import { procurations } from '@mizan/contracts';
import { cols } from '../engine/rows';
import type { EntityServices } from '../engine/service';
import { AppError } from '../http/errors';
import { present } from '../http/values';

const EXPIRY = cols(procurations).expiryDate;

/**
 * Expiry on or after issue, on the row as it will be stored (`merged`): a change of either date
 * is compared with the other's stored value. 422 on `expiryDate` naming the issue date. Dates are
 * `YYYY-MM-DD`, so their text order is their calendar order.
 */
function checkDates(merged: Record<string, unknown>): void {
  if (!present(merged.issueDate) || !present(merged.expiryDate)) return;
  const [issueDate, expiryDate] = [String(merged.issueDate), String(merged.expiryDate)];
  if (expiryDate >= issueDate) return;
  throw new AppError('validation', {
    entity: procurations.name,
    errors: { expiryDate: [{ key: 'clients.procurations.expiryBeforeIssue', params: { issueDate } }] },
  });
}

/**
 * The powers of attorney beyond the generic pattern (call once per app, from the clients plugin):
 * the date rule, and the conditions of the declared list filters. "Today" is the engine's (UTC:
 * the office keeps no time zone setting). At least one client is the definition's own rule (a
 * required `refs` field).
 *
 * - `expiresWithin=N`: expiry between today and today + N days, both included.
 * - `expired=true`: expiry before today; `expired=false`: not expired, open-ended ones included.
 */
export function installProcurationHooks(entities: EntityServices): void {
  entities.hooks(procurations.name, {
    beforeCreate(_ctx, values) {
      checkDates(values);
    },
    beforeUpdate(_ctx, values, before) {
      checkDates({ ...before, ...values });
    },
    listFilters: {
      expiresWithin: (days, { eb, table, today, daysFromToday }) =>
        eb.and([
          eb(`${table}.${EXPIRY}`, '>=', today),
          eb(`${table}.${EXPIRY}`, '<=', daysFromToday(Number(days))),
        ]),
      expired: (value, { eb, table, today }) =>
        value
          ? eb(`${table}.${EXPIRY}`, '<', today)
          : eb.or([eb(`${table}.${EXPIRY}`, 'is', null), eb(`${table}.${EXPIRY}`, '>=', today)]),
    },
  });
}
