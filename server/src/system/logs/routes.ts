import fs from 'node:fs';
import path from 'node:path';
import {
  API_BASE,
  AREA_PERMISSIONS,
  latestLogQuery,
  logFileQuery,
  pagedLogQuery,
  SYSTEM,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors';
import { requestLanguage, translate } from '../../http/messages';
import { defineRoute } from '../../http/route';
import { latestEntries, pageOfEntries, SummaryCache, type LogFilter } from './analysis';
import { isLogDate, isLogType, listLogDates, statLog, type LogFileInfo, type LogType } from './files';

export { MAX_LOG_LIMIT } from '@mizan/contracts';

/**
 * The date and file type of a request: both name a file on disk, so anything but `YYYY-MM-DD` and
 * `combined|error` is refused as malformed (400) before any path is built.
 */
function fileParams(
  request: FastifyRequest,
  raw: { date?: unknown; type?: unknown },
  defaults: { date?: string } = {},
) {
  const lang = requestLanguage(request);
  const date = raw.date === undefined || raw.date === '' ? defaults.date : raw.date;
  const type = raw.type === undefined || raw.type === '' ? 'combined' : raw.type;
  if (date !== undefined && !isLogDate(date)) {
    throw new AppError('malformed', {
      messageKey: 'system.logDateInvalid',
      errors: { date: [translate(lang, 'system.logDateInvalid')] },
    });
  }
  if (!isLogType(type)) {
    throw new AppError('malformed', {
      messageKey: 'system.logTypeInvalid',
      errors: { type: [translate(lang, 'system.logTypeInvalid')] },
    });
  }
  return { date, type: type as LogType };
}

/** Loose documentation of the answers (the shapes are the contracts' `api/logs.ts` types). */
const list = z.array(z.looseObject({}));
const entries = z.looseObject({ items: list, total: z.number() });

export function logsRoutes(app: FastifyInstance): void {
  const base = API_BASE + SYSTEM.logs;
  const dir = path.join(app.config.dataDir, 'logs');
  const cache = new SummaryCache();
  const common = {
    method: 'GET',
    permission: AREA_PERMISSIONS.logsView,
    tags: ['logs'],
    labels: 'system.fields',
  } as const;

  /** The file a request is about: its date (default: the newest day with logs) and type; 404 when absent. */
  async function fileOf(
    request: FastifyRequest,
  ): Promise<{ date: string; type: LogType; info: LogFileInfo }> {
    const query = (request.query ?? {}) as { date?: unknown; type?: unknown };
    // Only a request without a date needs the folder listed.
    const newest =
      query.date === undefined || query.date === '' ? (await listLogDates(dir))[0]?.date : undefined;
    const { date, type } = fileParams(request, query, { date: newest });
    const info = date ? await statLog(dir, date, type) : null;
    if (!date || !info) throw new AppError('notFound', { messageKey: 'system.logNotFound' });
    return { date, type, info };
  }

  const filterOf = (q: { level?: string; route?: string; q?: string }): LogFilter => ({
    level: q.level,
    route: q.route || undefined,
    q: q.q || undefined,
  });

  // The day and file are read by `fileOf` (400 for a malformed one, before any path is built);
  // the rest of the query by the route's schema.
  const dayQuery = z.object({
    date: z
      .string()
      .optional()
      .meta({ description: logFileQuery.shape.date.description ?? 'YYYY-MM-DD' }),
    type: z.string().optional().meta({ description: 'combined (default) or error' }),
  });

  defineRoute(app, {
    ...common,
    url: base,
    summary: 'Latest log entries of a day',
    query: latestLogQuery.extend(dayQuery.shape),
    response: entries,
    handler: async (request, { query }) => {
      const { date, type, info } = await fileOf(request);
      const { items, total } = await latestEntries(info.path, filterOf(query), query.limit);
      return { data: { date, type, items, total, limit: query.limit, truncated: total > items.length } };
    },
  });

  defineRoute(app, {
    ...common,
    url: `${base}/paginated`,
    summary: 'Log entries of a day, paged',
    query: pagedLogQuery.extend(dayQuery.shape),
    response: entries,
    handler: async (request, { query }) => {
      const { info } = await fileOf(request);
      const { items, total } = await pageOfEntries(
        info.path,
        filterOf(query),
        query.page,
        query.pageSize,
        query.order,
      );
      return { data: { items, total, page: query.page, pageSize: query.pageSize } };
    },
  });

  const summaryRoute = (
    url: string,
    summary: string,
    pick: (s: Awaited<ReturnType<SummaryCache['get']>>, date: string) => unknown,
  ) =>
    defineRoute(app, {
      ...common,
      url: `${base}${url}`,
      summary,
      query: dayQuery,
      handler: async (request) => {
        const { date, info } = await fileOf(request);
        return { data: pick(await cache.get(info), date) };
      },
    });

  summaryRoute('/stats', 'Requests, errors and durations per hour of a day', (s, date) => ({
    date,
    lines: s.lines,
    totals: s.totals,
    hours: s.hours,
    levels: s.levels,
  }));
  summaryRoute('/error-analysis', 'Errors of a day grouped by message and route', (s) => s.errorGroups);
  summaryRoute('/route-stats', 'Requests per route of a day: count, error rate, p50/p95', (s) => s.routes);
  summaryRoute('/levels', 'Levels present in a day with their counts', (s) => s.levels);

  defineRoute(app, {
    ...common,
    url: `${base}/dates`,
    summary: 'Days that have log files, newest first',
    response: list,
    handler: async () => ({ data: await listLogDates(dir) }),
  });

  defineRoute(app, {
    ...common,
    url: `${base}/download/:date/:type`,
    summary: "Download one day's log file",
    handler: async (request, _input, reply) => {
      const { date, type } = fileParams(request, request.params as { date?: unknown; type?: unknown });
      const info = await statLog(dir, date!, type);
      if (!info) throw new AppError('notFound', { messageKey: 'system.logNotFound' });
      void reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-length', info.size)
        .header('content-disposition', `attachment; filename="${date}-${type}.log"`)
        .header('x-content-type-options', 'nosniff');
      // Streamed, and only the bytes counted above: today's file keeps growing while it is sent.
      if (info.size === 0) return reply.send(Buffer.alloc(0));
      return reply.send(fs.createReadStream(info.path, { start: 0, end: info.size - 1 }));
    },
  });
}
