import { dayInZone } from '@mizan/contracts';
import { officeToday } from '../engine/today';

/** What a schedule is computed in: the office's time zone (IANA), read when the schedule is asked. */
export interface ScheduleEnv {
  timeZone: string;
}

/** When a recurring job runs. */
export interface Schedule {
  /** The first run strictly after `after`. */
  next(after: Date, env: ScheduleEnv): Promise<Date>;
  /**
   * The run `planned` becomes under the settings in force now (a daily job whose time was changed
   * runs on the same office day at the new time). Without it a planned run never moves.
   */
  replan?(planned: Date, env: ScheduleEnv): Promise<Date>;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms (Cairo in winter: 2 h). */
function zoneOffset(timeZone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant the office's clock shows `time` (`HH:mm`) on `day` (`YYYY-MM-DD`) in `timeZone`.
 * The offset is taken twice: once at a first guess and again at the instant it gives, so a day on
 * which summer time starts or ends still lands on the wall time (a time the change skips lands an
 * hour off, as a wall clock would show it).
 *
 * @example wallTimeInZone('Africa/Cairo', '2026-11-23', '18:00').toISOString() // '2026-11-23T16:00:00.000Z'
 */
export function wallTimeInZone(timeZone: string, day: string, time: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const match = TIME.exec(time);
  if (!match) throw new Error(`not a time of day (HH:mm): "${time}"`);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, Number(match[1]), Number(match[2]));
  const first = wall - zoneOffset(timeZone, wall);
  return new Date(wall - zoneOffset(timeZone, first));
}

/**
 * Every day at `time` (`HH:mm`) on the office's clock. `time` may be a function read each time the
 * schedule is asked (a time kept in the system settings), so a changed time applies to the run
 * still to come.
 *
 * @example scheduler.define({ name: 'digest', schedule: dailyAt('07:00'), run })
 */
export function dailyAt(time: string | (() => Promise<string>)): Schedule {
  const timeOfDay = typeof time === 'string' ? async () => time : time;
  return {
    async next(after, { timeZone }) {
      const at = await timeOfDay();
      const { today, daysFromToday } = officeToday(timeZone, after);
      const sameDay = wallTimeInZone(timeZone, today, at);
      return sameDay > after ? sameDay : wallTimeInZone(timeZone, daysFromToday(1), at);
    },
    async replan(planned, { timeZone }) {
      return wallTimeInZone(timeZone, dayInZone(timeZone, planned), await timeOfDay());
    },
  };
}
