import {
  lawsuits,
  notificationChannel,
  timeEntries,
  TIMER_ROUTES,
  type TimerLiveMessage,
  type TimerState,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf, type WriteContext } from '../engine/context';
import { officeToday } from '../engine/today';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { readTimeZone } from '../settings/repository';

/** The table of running and paused timers: one row per employee (finance_002_timers). */
export const TIMERS = 'finance_timers';

interface TimerRow {
  employee_id: number;
  lawsuit_id: number;
  elapsed_seconds: number;
  running_since: string | Date | null;
  updated_at: string | Date;
}

const iso = (value: string | Date | null): string | null =>
  value === null ? null : new Date(value).toISOString();

function present(row: TimerRow, now: Date): TimerState;
function present(row: TimerRow | undefined, now: Date): TimerState | null;
function present(row: TimerRow | undefined, now: Date): TimerState | null {
  if (!row) return null;
  return {
    lawsuitId: Number(row.lawsuit_id),
    elapsedSeconds: Number(row.elapsed_seconds),
    runningSince: iso(row.running_since),
    now: now.toISOString(),
  };
}

/** Seconds a timer row has counted at `now`. */
function secondsAt(row: TimerRow, now: Date): number {
  const since = row.running_since === null ? null : new Date(row.running_since).getTime();
  return (
    Number(row.elapsed_seconds) +
    (since === null ? 0 : Math.max(0, Math.floor((now.getTime() - since) / 1000)))
  );
}

const lawsuitExists = async (ctx: WriteContext, id: number) =>
  (await ctx.trx.selectFrom(lawsuits.table).select('id').where('id', '=', id).executeTakeFirst()) !==
  undefined;

const noTimer = () => new AppError('conflict', { messageKey: 'legal.finance.noTimer' });

/**
 * The employee's timer, one per employee in `finance_timers`, so it survives reloads, sign-outs and
 * other devices: start (or resume) on a lawsuit, pause, stop (a time entry of the counted minutes,
 * at least one, for the office's today, through the engine: rate, amount, checks and audit as any
 * entry; over 24 h it is 422 on `duration` and the timer stays, to be discarded), discard. Each
 * change reaches the employee's other tabs as a `timer` frame on their channel. Recording time is
 * `timeEntries.create`.
 */
export function registerTimerRoutes(app: FastifyInstance): void {
  const labels = `entities:${timeEntries.name}.fields`;
  const me = (request: FastifyRequest) => request.user!.id;
  const read = (ctx: WriteContext, employeeId: number) => {
    const query = ctx.trx.selectFrom(TIMERS).selectAll().where('employee_id', '=', employeeId);
    // Two tabs pressing at once: the second waits for the first's answer on PostgreSQL (SQLite has one writer).
    return (app.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst() as Promise<
      TimerRow | undefined
    >;
  };
  const publish = (ctx: WriteContext, employeeId: number, data: TimerState | null) => {
    const channel = notificationChannel(employeeId);
    const message: TimerLiveMessage = { type: 'timer', channel, data };
    ctx.work.events.push({ channel, message });
  };
  /** Stores the employee's timer (a new row or their existing one), tells their tabs, answers it. */
  const save = async (
    ctx: WriteContext,
    employeeId: number,
    exists: boolean,
    now: Date,
    timer: Pick<TimerRow, 'lawsuit_id' | 'elapsed_seconds' | 'running_since'>,
  ): Promise<TimerState> => {
    const values = { ...timer, updated_at: now.toISOString() };
    if (exists) await ctx.trx.updateTable(TIMERS).set(values).where('employee_id', '=', employeeId).execute();
    else
      await ctx.trx
        .insertInto(TIMERS)
        .values({ employee_id: employeeId, ...values })
        .execute();
    const state = present({ employee_id: employeeId, ...values }, now)!;
    publish(ctx, employeeId, state);
    return state;
  };
  const write = <T>(request: FastifyRequest, fn: (ctx: WriteContext, now: Date) => Promise<T>) =>
    app.entities.transaction(actorOf(request), (ctx) => fn(ctx, app.clock()));

  defineRoute(app, TIMER_ROUTES.get, {
    labels,
    handler: async (request) => {
      const row = (await app.db
        .selectFrom(TIMERS)
        .selectAll()
        .where('employee_id', '=', me(request))
        .executeTakeFirst()) as TimerRow | undefined;
      return { data: present(row, app.clock()) };
    },
  });

  defineRoute(app, TIMER_ROUTES.start, {
    labels,
    handler: async (request, { body }) => {
      const data = await write(request, async (ctx, now) => {
        const row = await read(ctx, me(request));
        const lawsuitId = body.lawsuitId ?? row?.lawsuit_id;
        if (lawsuitId === undefined)
          throw new AppError('validation', {
            entity: timeEntries.name,
            errors: { lawsuitId: [{ key: 'validation.required' }] },
          });
        if (row?.running_since && Number(row.lawsuit_id) !== lawsuitId)
          throw new AppError('conflict', { messageKey: 'legal.finance.timerRunning' });
        if (row?.running_since) return present(row, now);
        if (!(await lawsuitExists(ctx, Number(lawsuitId))))
          throw new AppError('validation', {
            entity: timeEntries.name,
            errors: { lawsuitId: [{ key: 'http.referenceMissing' }] },
          });
        return save(ctx, me(request), row !== undefined, now, {
          lawsuit_id: Number(lawsuitId),
          // A paused timer switched to another lawsuit starts counting again from nothing.
          elapsed_seconds: row && Number(row.lawsuit_id) === lawsuitId ? Number(row.elapsed_seconds) : 0,
          running_since: now.toISOString(),
        });
      });
      return { data };
    },
  });

  defineRoute(app, TIMER_ROUTES.pause, {
    labels,
    handler: async (request) => {
      const data = await write(request, async (ctx, now) => {
        const row = await read(ctx, me(request));
        if (!row) throw noTimer();
        if (row.running_since === null) return present(row, now);
        return save(ctx, me(request), true, now, {
          lawsuit_id: Number(row.lawsuit_id),
          elapsed_seconds: secondsAt(row, now),
          running_since: null,
        });
      });
      return { data };
    },
  });

  defineRoute(app, TIMER_ROUTES.stop, {
    labels,
    handler: async (request, { body }) => {
      const data = await write(request, async (ctx, now) => {
        const row = await read(ctx, me(request));
        if (!row) throw noTimer();
        const minutes = Math.max(1, Math.round(secondsAt(row, now) / 60));
        const { today } = officeToday(await readTimeZone(ctx.trx), now);
        const entry = await app.entities.get(timeEntries.name).create(ctx, {
          employeeId: me(request),
          lawsuitId: Number(row.lawsuit_id),
          date: today,
          duration: minutes,
          ...body,
        });
        await ctx.trx.deleteFrom(TIMERS).where('employee_id', '=', me(request)).execute();
        publish(ctx, me(request), null);
        return entry;
      });
      return { data };
    },
  });

  defineRoute(app, TIMER_ROUTES.discard, {
    labels,
    handler: async (request) => {
      await write(request, async (ctx) => {
        const removed = await ctx.trx
          .deleteFrom(TIMERS)
          .where('employee_id', '=', me(request))
          .executeTakeFirst();
        if (!Number(removed.numDeletedRows)) throw noTimer();
        publish(ctx, me(request), null);
      });
      return { data: null };
    },
  });
}
