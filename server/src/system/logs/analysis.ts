import type { ErrorGroup, HourStats, LevelCount, RouteStats } from '@mizan/contracts';
import { LEVEL_NAMES, readLog, type LogEntry, type LogFileInfo } from './files';

/** Narrowing of the log screens: level name, route pattern (or URL prefix), free text. */
export interface LogFilter {
  level?: string;
  route?: string;
  q?: string;
}

/** True when the entry passes every given filter. */
export function matches(entry: LogEntry, filter: LogFilter): boolean {
  if (filter.level && entry.level !== filter.level) return false;
  if (filter.route && entry.route !== filter.route && !(entry.url ?? '').startsWith(filter.route))
    return false;
  if (filter.q) {
    const q = filter.q.toLowerCase();
    const hay = [entry.msg, entry.url, entry.reqId, entry.err?.message, entry.err?.type]
      .filter(Boolean)
      .join('\n')
      .toLowerCase();
    if (!hay.includes(q)) return false;
  }
  return true;
}

/** The last `limit` matching entries, newest first, and how many matched in all (one pass). */
export async function latestEntries(
  file: string,
  filter: LogFilter,
  limit: number,
): Promise<{ items: LogEntry[]; total: number }> {
  // A ring of the latest matches: memory stays at `limit` entries whatever the file's size.
  const ring: LogEntry[] = [];
  let total = 0;
  for await (const entry of readLog(file)) {
    if (!matches(entry, filter)) continue;
    ring[total % limit] = entry;
    total++;
  }
  const items: LogEntry[] = [];
  for (let i = 0; i < Math.min(total, limit); i++) items.push(ring[(total - 1 - i) % limit]!);
  return { items, total };
}

/**
 * One page of matching entries. Newest first (the default) needs the total before it knows which
 * entries form page 1, so it reads the file twice; oldest first reads it once.
 */
export async function pageOfEntries(
  file: string,
  filter: LogFilter,
  page: number,
  pageSize: number,
  order: 'asc' | 'desc',
): Promise<{ items: LogEntry[]; total: number }> {
  let total = 0;
  if (order === 'desc') {
    for await (const entry of readLog(file)) if (matches(entry, filter)) total++;
  }
  // Positions (in file order) of the wanted page's entries.
  const from = order === 'asc' ? (page - 1) * pageSize : total - page * pageSize;
  const to = from + pageSize;
  const items: LogEntry[] = [];
  let index = 0;
  for await (const entry of readLog(file)) {
    if (!matches(entry, filter)) continue;
    if (index >= Math.max(from, 0) && index < to) items.push(entry);
    index++;
    if (order === 'desc' && index >= to) break;
  }
  if (order === 'asc') total = index;
  return { items: order === 'desc' ? items.reverse() : items, total };
}

export type { ErrorGroup, HourStats, LevelCount, RouteStats } from '@mizan/contracts';

export interface LogSummary {
  lines: number;
  hours: HourStats[];
  totals: { requests: number; errors: number; clientErrors: number; avgDuration: number | null };
  routes: RouteStats[];
  errorGroups: ErrorGroup[];
  levels: LevelCount[];
}

const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places;

/** Nearest-rank percentile of ascending `sorted` values. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (!sorted.length) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1]!;
}

/** UTC hour of an ISO instant (the files are split on UTC days too). */
const hourOf = (time: string): number => {
  const hour = Number(time.slice(11, 13));
  return Number.isInteger(hour) && hour >= 0 && hour < 24 ? hour : new Date(time).getUTCHours() || 0;
};

/** Every figure of the statistics screens, in one pass over the file. */
export async function summarise(file: string): Promise<LogSummary> {
  const hours = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    requests: 0,
    errors: 0,
    clientErrors: 0,
    duration: 0,
    timed: 0,
  }));
  const routes = new Map<
    string,
    {
      method: string | null;
      route: string | null;
      durations: number[];
      count: number;
      errors: number;
      clientErrors: number;
    }
  >();
  const groups = new Map<string, ErrorGroup & { codes: Set<number> }>();
  const levels = new Map<number, number>();
  let lines = 0;
  for await (const entry of readLog(file)) {
    lines++;
    levels.set(entry.levelValue, (levels.get(entry.levelValue) ?? 0) + 1);
    const hour = hours[hourOf(entry.time)]!;
    if (entry.levelValue >= 50) hour.errors++;
    if (entry.statusCode !== null) {
      hour.requests++;
      if (entry.statusCode >= 400 && entry.statusCode < 500) hour.clientErrors++;
      if (entry.responseTime !== null) {
        hour.duration += entry.responseTime;
        hour.timed++;
      }
      const key = `${entry.method ?? ''} ${entry.route ?? ''}`;
      const stats = routes.get(key) ?? {
        method: entry.method,
        route: entry.route,
        durations: [],
        count: 0,
        errors: 0,
        clientErrors: 0,
      };
      stats.count++;
      if (entry.statusCode >= 500) stats.errors++;
      else if (entry.statusCode >= 400) stats.clientErrors++;
      if (entry.responseTime !== null) stats.durations.push(entry.responseTime);
      routes.set(key, stats);
    }
    if (entry.levelValue >= 50) {
      const message = entry.err?.message || entry.msg;
      const key = `${message}\u0000${entry.route ?? ''}`;
      const group = groups.get(key) ?? {
        message,
        route: entry.route,
        type: entry.err?.type ?? null,
        count: 0,
        firstSeen: entry.time,
        lastSeen: entry.time,
        statusCodes: [],
        codes: new Set<number>(),
        lastStack: null,
        lastReqId: null,
      };
      group.count++;
      if (entry.time < group.firstSeen) group.firstSeen = entry.time;
      if (entry.time >= group.lastSeen) {
        group.lastSeen = entry.time;
        group.lastStack = entry.err?.stack ?? group.lastStack;
        group.lastReqId = entry.reqId ?? group.lastReqId;
      }
      if (entry.statusCode !== null) group.codes.add(entry.statusCode);
      groups.set(key, group);
    }
  }
  const totalTimed = hours.reduce((s, h) => s + h.timed, 0);
  return {
    lines,
    hours: hours.map(({ hour, requests, errors, clientErrors, duration, timed }) => ({
      hour,
      requests,
      errors,
      clientErrors,
      avgDuration: timed ? round(duration / timed) : null,
    })),
    totals: {
      requests: hours.reduce((s, h) => s + h.requests, 0),
      errors: hours.reduce((s, h) => s + h.errors, 0),
      clientErrors: hours.reduce((s, h) => s + h.clientErrors, 0),
      avgDuration: totalTimed ? round(hours.reduce((s, h) => s + h.duration, 0) / totalTimed) : null,
    },
    routes: [...routes.values()]
      .map(({ method, route, durations, count, errors, clientErrors }) => {
        const sorted = Float64Array.from(durations).sort();
        return {
          method,
          route,
          count,
          errors,
          clientErrors,
          errorRate: round(errors / count, 4),
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          avgDuration: sorted.length ? round(sorted.reduce((s, d) => s + d, 0) / sorted.length) : null,
          maxDuration: sorted.length ? sorted[sorted.length - 1]! : null,
        };
      })
      .sort((a, b) => b.count - a.count || String(a.route).localeCompare(String(b.route))),
    errorGroups: [...groups.values()]
      .map(({ codes, ...group }) => ({ ...group, statusCodes: [...codes].sort((a, b) => a - b) }))
      .sort((a, b) => b.count - a.count || (a.lastSeen < b.lastSeen ? 1 : -1)),
    levels: [...levels.entries()]
      .sort(([a], [b]) => a - b)
      .map(([value, count]) => ({ level: LEVEL_NAMES[value] ?? String(value), value, count })),
  };
}

/**
 * Summaries by file, reused while the file keeps its size and time: a past day's file never
 * changes, so its statistics are computed once. Today's grows with every request (the log screen's
 * own included), so a summary younger than `maxStaleMs` is reused even though the file grew: the
 * screen's four simultaneous requests then read the file once, not four times.
 */
export class SummaryCache {
  private readonly entries = new Map<string, { key: string; at: number; summary: Promise<LogSummary> }>();

  constructor(
    private readonly max = 16,
    private readonly maxStaleMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(info: LogFileInfo): Promise<LogSummary> {
    const key = `${info.size}:${info.mtimeMs}`;
    const hit = this.entries.get(info.path);
    if (hit && (hit.key === key || this.now() - hit.at < this.maxStaleMs)) {
      // Most recently used last.
      this.entries.delete(info.path);
      this.entries.set(info.path, hit);
      return hit.summary;
    }
    const summary = summarise(info.path);
    summary.catch(() => this.entries.delete(info.path));
    this.entries.set(info.path, { key, at: this.now(), summary });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return summary;
  }
}
