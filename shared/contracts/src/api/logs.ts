import { z } from 'zod';
import { AREA_PERMISSIONS } from '../areaPermissions';
import { MAX_PAGE_SIZE, type Page } from '../entity';
import { answer, route } from '../route';

/** `/api/admin/settings/system/logsSystem/*`: the daily log files and what is read from them. */

/** Most entries `GET /` returns at once. */
export const MAX_LOG_LIMIT = 1000;
/** Levels of the log lines, by pino's numbers. */
export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export const LOG_TYPES = ['combined', 'error'] as const;
export type LogType = (typeof LOG_TYPES)[number];

/** One log line as the API returns it. */
export interface LogEntry {
  /** 1-based line number in the file: a stable id within that day's file. */
  line: number;
  time: string;
  level: string;
  levelValue: number;
  msg: string;
  reqId: string | null;
  method: string | null;
  url: string | null;
  route: string | null;
  statusCode: number | null;
  responseTime: number | null;
  err: { type?: string; message: string; stack?: string; code?: string } | null;
  /** Any other fields of the line (module context), without pid and hostname. */
  context: Record<string, unknown> | null;
}

/** A day that has log files, with the size in bytes of each type (null: none of that type). */
export interface LogDate {
  date: string;
  combined: number | null;
  error: number | null;
}

export interface HourStats {
  hour: number;
  /** Request lines (those with a status code). */
  requests: number;
  /** Lines at level error or fatal. */
  errors: number;
  /** Requests answered 4xx. */
  clientErrors: number;
  /** Mean response time of the hour's requests in ms (null without requests). */
  avgDuration: number | null;
}

export interface RouteStats {
  method: string | null;
  /** Route pattern; null gathers requests that matched no route. */
  route: string | null;
  count: number;
  /** Requests answered 5xx. */
  errors: number;
  clientErrors: number;
  /** `errors / count`, 0..1, 4 decimals. */
  errorRate: number;
  p50: number | null;
  p95: number | null;
  avgDuration: number | null;
  maxDuration: number | null;
}

export interface ErrorGroup {
  message: string;
  route: string | null;
  type: string | null;
  count: number;
  firstSeen: string;
  lastSeen: string;
  statusCodes: number[];
  /** The stack of the latest occurrence, for the analysis screen's details. */
  lastStack: string | null;
  lastReqId: string | null;
}

export interface LevelCount {
  level: string;
  value: number;
  count: number;
}

/** `GET /stats`. */
export interface DayStats {
  date: string;
  lines: number;
  totals: { requests: number; errors: number; clientErrors: number; avgDuration: number | null };
  hours: HourStats[];
  levels: LevelCount[];
}

/** `GET /`: the newest entries of a day. */
export interface LatestLogEntries {
  date: string;
  type: LogType;
  items: LogEntry[];
  total: number;
  limit: number;
  truncated: boolean;
}

const int = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: 'validation.types.integer' })
    .int({ error: 'validation.types.integer' })
    .min(min, { error: 'validation.number.min' })
    .max(max, { error: 'validation.number.max' })
    .default(fallback);

/** The day and file a request reads (default: the newest day, `combined`). */
export const logFileQuery = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  type: z.enum(LOG_TYPES).optional(),
});

const filterShape = {
  level: z.enum(Object.keys(LOG_LEVELS) as [string, ...string[]], { error: 'validation.enum' }).optional(),
  route: z.string().trim().max(300, { error: 'validation.string.max' }).optional(),
  q: z.string().trim().max(200, { error: 'validation.string.max' }).optional(),
};

/** Query of `GET /` (besides the day and file). */
export const latestLogQuery = z.object({ ...filterShape, limit: int(1, MAX_LOG_LIMIT, 100) }).strip();

/** Query of `GET /paginated` (besides the day and file). */
export const pagedLogQuery = z
  .object({
    ...filterShape,
    page: int(1, 1_000_000, 1),
    pageSize: int(1, MAX_PAGE_SIZE, 20),
    order: z.enum(['asc', 'desc'], { error: 'validation.enum' }).default('desc'),
  })
  .strip();

/**
 * The day and file a log route reads: the server checks them itself (400 for a malformed one,
 * before any path is built), so they are only documented here.
 */
export const logDayQuery = z.object({
  date: z
    .string()
    .optional()
    .meta({ description: logFileQuery.shape.date.description ?? 'YYYY-MM-DD' }),
  type: z.string().optional().meta({ description: 'combined (default) or error' }),
});

const logsGet = <const P extends string>(path: P, summary: string) =>
  ({ method: 'GET', path, permission: AREA_PERMISSIONS.logsView, summary }) as const;

const LOGS = '/admin/settings/system/logsSystem';
/** What the entry and date routes answer, for the documentation. */
const logList = z.array(z.looseObject({}));
const logEntries = z.looseObject({ items: logList, total: z.number() });

/** The server's logs, read by day: entries, statistics, the days kept and a day's file. */
export const LOG_ROUTES = {
  latest: route({
    ...logsGet(LOGS, 'Latest log entries of a day'),
    query: latestLogQuery.extend(logDayQuery.shape),
    response: logEntries,
    answer: answer<LatestLogEntries>(),
  }),
  paginated: route({
    ...logsGet(`${LOGS}/paginated`, 'Log entries of a day, paged'),
    query: pagedLogQuery.extend(logDayQuery.shape),
    response: logEntries,
    answer: answer<Page<LogEntry>>(),
  }),
  stats: route({
    ...logsGet(`${LOGS}/stats`, 'Requests, errors and durations per hour of a day'),
    query: logDayQuery,
    answer: answer<DayStats>(),
  }),
  errorAnalysis: route({
    ...logsGet(`${LOGS}/error-analysis`, 'Errors of a day grouped by message and route'),
    query: logDayQuery,
    answer: answer<ErrorGroup[]>(),
  }),
  routeStats: route({
    ...logsGet(`${LOGS}/route-stats`, 'Requests per route of a day: count, error rate, p50/p95'),
    query: logDayQuery,
    answer: answer<RouteStats[]>(),
  }),
  levels: route({
    ...logsGet(`${LOGS}/levels`, 'Levels present in a day with their counts'),
    query: logDayQuery,
    answer: answer<LevelCount[]>(),
  }),
  dates: route({
    ...logsGet(`${LOGS}/dates`, 'Days that have log files, newest first'),
    response: logList,
    answer: answer<LogDate[]>(),
  }),
  download: route({
    ...logsGet(`${LOGS}/download/:date/:type`, "Download one day's log file"),
  }),
};
