/**
 * Shapes of `/admin/settings/system/logsSystem/*` answers, declared once in `@mizan/contracts`
 * (`api/logs.ts`) for the server's log reader and this screen.
 */
import type { LogDate } from '@mizan/contracts';

export type {
  DayStats,
  ErrorGroup,
  HourStats,
  LevelCount,
  LogDate,
  LogEntry,
  RouteStats as RouteStat,
} from '@mizan/contracts';

/** `/dates` may answer plain dates or one object per day; the screen needs the dates. */
export function datesOf(answer: readonly (string | LogDate)[] | undefined): string[] {
  return (answer ?? []).map((d) => (typeof d === 'string' ? d : d.date)).sort();
}

/** `/levels` may answer names or `{ level }` objects. */
export function levelsOf(
  answer: readonly (string | { level: string } | { name: string })[] | undefined,
): string[] {
  return (answer ?? []).map((l) => (typeof l === 'string' ? l : 'level' in l ? l.level : l.name));
}
