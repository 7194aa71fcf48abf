import { tasks } from '@mizan/contracts';

/** A task's screen route, the link of its notifications. */
export const taskLink = (id: number) => `${tasks.route}/${id}`;

/**
 * An instant as the office reads it, `YYYY-MM-DD HH:mm` in its time zone: what a notification
 * shows of a due time (its texts are filled in on the client, in the reader's language).
 *
 * @example formatInZone('2026-11-24T07:30:00.000Z', 'Africa/Cairo') // '2026-11-24 09:30'
 */
export function formatInZone(instant: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}
