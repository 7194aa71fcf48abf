import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { LOG_TYPES, type LogDate, type LogEntry, type LogType } from '@mizan/contracts';

/**
 * The daily log files written by `logging/logger.ts`: `<dir>/YYYY-MM-DD-combined.log` (every line)
 * and `<dir>/YYYY-MM-DD-error.log` (levels error and fatal), one pino JSON object per line.
 */

export { LOG_TYPES, type LogType } from '@mizan/contracts';

export const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
export const LEVEL_VALUES: Record<string, number> = Object.fromEntries(
  Object.entries(LEVEL_NAMES).map(([value, name]) => [name, Number(value)]),
);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const FILE = /^(\d{4}-\d{2}-\d{2})-(combined|error)\.log$/;

/** True for a real calendar date written `YYYY-MM-DD` (nothing else can reach the file system). */
export function isLogDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

export function isLogType(value: unknown): value is LogType {
  return typeof value === 'string' && (LOG_TYPES as readonly string[]).includes(value);
}

/**
 * The path of one day's file. Only a validated date and type are ever joined to the folder, so no
 * request value can name a file outside it.
 */
export function logFilePath(dir: string, date: string, type: LogType): string {
  if (!isLogDate(date) || !isLogType(type)) throw new Error(`Invalid log file ${date}/${type}`);
  return path.join(dir, `${date}-${type}.log`);
}

export interface LogFileInfo {
  path: string;
  size: number;
  mtimeMs: number;
}

/** The file's size and time, or null when it does not exist. */
export async function statLog(dir: string, date: string, type: LogType): Promise<LogFileInfo | null> {
  const file = logFilePath(dir, date, type);
  try {
    const stat = await fs.promises.stat(file);
    return stat.isFile() ? { path: file, size: stat.size, mtimeMs: stat.mtimeMs } : null;
  } catch {
    return null;
  }
}

export type { LogDate, LogEntry } from '@mizan/contracts';

/** Every day that has a log file, newest first. */
export async function listLogDates(dir: string): Promise<LogDate[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return [];
  }
  const days = new Map<string, LogDate>();
  for (const name of names) {
    const match = FILE.exec(name);
    if (!match || !isLogDate(match[1])) continue;
    const [, date, type] = match as unknown as [string, string, LogType];
    const stat = await fs.promises.stat(path.join(dir, name)).catch(() => null);
    if (!stat?.isFile()) continue;
    const entry = days.get(date) ?? { date, combined: null, error: null };
    entry[type] = stat.size;
    days.set(date, entry);
  }
  return [...days.values()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}

const KNOWN = new Set([
  'level',
  'time',
  'msg',
  'reqId',
  'method',
  'url',
  'route',
  'statusCode',
  'responseTime',
  'err',
  'pid',
  'hostname',
]);

const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Parses one line; null for a line that is not a JSON object (a torn write, an editor's stray line). */
export function parseLogLine(text: string, line: number): LogEntry | null {
  if (!text.startsWith('{')) return null;
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const levelValue = typeof raw.level === 'number' ? raw.level : (LEVEL_VALUES[String(raw.level)] ?? 30);
  const time = typeof raw.time === 'number' ? new Date(raw.time).toISOString() : (str(raw.time) ?? '');
  let err: LogEntry['err'] = null;
  if (raw.err && typeof raw.err === 'object') {
    const e = raw.err as Record<string, unknown>;
    err = {
      message: str(e.message) ?? '',
      ...(str(e.type) ? { type: str(e.type)! } : {}),
      ...(str(e.stack) ? { stack: str(e.stack)! } : {}),
      ...(str(e.code) ? { code: str(e.code)! } : {}),
    };
  }
  const context: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!KNOWN.has(key)) context[key] = value;
  return {
    line,
    time,
    level: LEVEL_NAMES[levelValue] ?? String(levelValue),
    levelValue,
    msg: str(raw.msg) ?? '',
    reqId: str(raw.reqId),
    method: str(raw.method),
    url: str(raw.url),
    route: str(raw.route),
    statusCode: num(raw.statusCode),
    responseTime: num(raw.responseTime),
    err,
    context: Object.keys(context).length ? context : null,
  };
}

/**
 * Reads a log file line by line (never the whole file at once), yielding each parsed entry.
 * Lines that are not JSON objects are skipped.
 */
export async function* readLog(file: string): AsyncGenerator<LogEntry> {
  const stream = fs.createReadStream(file, { encoding: 'utf8' });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const text of lines) {
      n++;
      const entry = parseLogLine(text, n);
      if (entry) yield entry;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
