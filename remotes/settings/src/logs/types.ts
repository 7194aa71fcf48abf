/**
 * Shapes of `/admin/settings/system/logsSystem/*` answers, as the server's log reader
 * (`server/src/system/logs`) produces them.
 */

/** One line of a day's file. */
export interface LogEntry {
  /** 1-based line number: a stable id within that day's file. */
  line: number;
  time: string;
  level: string;
  levelValue?: number;
  msg: string;
  reqId: string | null;
  method: string | null;
  url: string | null;
  route: string | null;
  statusCode: number | null;
  responseTime: number | null;
  err: { type?: string; message: string; stack?: string; code?: string } | null;
  context?: Record<string, unknown> | null;
}

/** A day that has log files, with the size of each file type (null: none of that type). */
export interface LogDate {
  date: string;
  combined: number | null;
  error: number | null;
}

export interface HourStats {
  hour: number;
  requests: number;
  errors: number;
  clientErrors?: number;
  avgDuration?: number | null;
}

export interface LevelCount {
  level: string;
  value?: number;
  count: number;
}

/** `/stats`: the day's totals, the hours and the level counts. */
export interface DayStats {
  hours: HourStats[];
  totals: { requests: number; errors: number; clientErrors?: number; avgDuration?: number | null };
  levels: LevelCount[];
  lines?: number;
}

export interface RouteStat {
  method: string | null;
  route: string | null;
  count: number;
  errors: number;
  clientErrors?: number;
  /** 0..1 */
  errorRate: number;
  p50: number | null;
  p95: number | null;
  avgDuration?: number | null;
  maxDuration?: number | null;
}

export interface ErrorGroup {
  message: string;
  route: string | null;
  type?: string | null;
  count: number;
  firstSeen: string;
  lastSeen: string;
  statusCodes: number[];
  lastStack?: string | null;
  lastReqId?: string | null;
}

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
