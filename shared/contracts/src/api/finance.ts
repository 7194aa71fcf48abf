import { z } from 'zod';
import { parseDigits } from '../text';

/**
 * The signed-in employee's timer (one per employee, kept on the server so that it survives
 * reloads, sign-outs and other devices): `GET` answers it (null: none), `POST .../start` starts it
 * on a lawsuit (or resumes a paused one), `.../pause` pauses it, `.../stop` turns it into a time
 * entry and answers the entry, `DELETE` discards it. Every change goes to the employee's tabs on
 * their channel (`notificationChannel`) as a `timer` frame.
 */
export const FINANCE = {
  timer: '/admin/finance/timer',
  timerStart: '/admin/finance/timer/start',
  timerPause: '/admin/finance/timer/pause',
  timerStop: '/admin/finance/timer/stop',
} as const;

/** The timer as the API answers it; `runningSince` null while paused. */
export interface TimerState {
  lawsuitId: number;
  /** Seconds counted before `runningSince` (the time of earlier runs, before each pause). */
  elapsedSeconds: number;
  /** When the current run began (ISO instant), or null while paused. */
  runningSince: string | null;
  /** The server's clock when it answered, so a client with a wrong clock still ticks right. */
  now: string;
}

/** Body of `POST .../timer/start`: the lawsuit, required when no timer is paused. */
export const timerStartBody = z
  .object({
    lawsuitId: z.preprocess(
      parseDigits,
      z.int({ error: 'validation.types.integer' }).positive({ error: 'validation.types.integer' }),
    ),
  })
  .partial()
  .strip();
export type TimerStartInput = z.input<typeof timerStartBody>;

/** Body of `POST .../timer/stop`: the entry's description and whether it is billable, both optional. */
export const timerStopBody = z
  .object({
    description: z.string().max(2000, { error: 'validation.string.max' }),
    billable: z.boolean({ error: 'validation.types.boolean' }),
  })
  .partial()
  .strip();
export type TimerStopInput = z.input<typeof timerStopBody>;

/** The `timer` frame on the employee's channel: the timer after a change (null: stopped or discarded). */
export interface TimerLiveMessage {
  type: 'timer';
  channel: string;
  data: TimerState | null;
}

/** Seconds the timer has counted at `at` (ms since the epoch), by the server's `now`. */
export function timerSeconds(state: TimerState, at: number = Date.parse(state.now)): number {
  if (!state.runningSince) return state.elapsedSeconds;
  return state.elapsedSeconds + Math.max(0, Math.floor((at - Date.parse(state.runningSince)) / 1000));
}
