import fs from 'node:fs';
import path from 'node:path';
import { LOG_ROUTES, type RouteAnswer } from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

export function logsRoutes(app: FastifyInstance): void {
  const dir = path.join(app.config.dataDir, 'logs');
  const cache = new SummaryCache();
  const common = { tags: ['logs'], labels: 'system.fields' } as const;

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
  defineRoute(app, LOG_ROUTES.latest, {
    ...common,
    handler: async (request, { query }) => {
      const { date, type, info } = await fileOf(request);
      const { items, total } = await latestEntries(info.path, filterOf(query), query.limit);
      return { data: { date, type, items, total, limit: query.limit, truncated: total > items.length } };
    },
  });

  defineRoute(app, LOG_ROUTES.paginated, {
    ...common,
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

  type DaySummary = Awaited<ReturnType<SummaryCache['get']>>;
  const summaryRoute = <C extends (typeof LOG_ROUTES)['stats' | 'errorAnalysis' | 'routeStats' | 'levels']>(
    contract: C,
    pick: (s: DaySummary, date: string) => RouteAnswer<C>,
  ) =>
    defineRoute(app, contract as (typeof LOG_ROUTES)['stats'], {
      ...common,
      handler: async (request) => {
        const { date, info } = await fileOf(request);
        return { data: pick(await cache.get(info), date) as never };
      },
    });

  summaryRoute(LOG_ROUTES.stats, (s, date) => ({
    date,
    lines: s.lines,
    totals: s.totals,
    hours: s.hours,
    levels: s.levels,
  }));
  summaryRoute(LOG_ROUTES.errorAnalysis, (s) => s.errorGroups);
  summaryRoute(LOG_ROUTES.routeStats, (s) => s.routes);
  summaryRoute(LOG_ROUTES.levels, (s) => s.levels);

  defineRoute(app, LOG_ROUTES.dates, {
    ...common,
    handler: async () => ({ data: await listLogDates(dir) }),
  });

  defineRoute(app, LOG_ROUTES.download, {
    ...common,
    handler: async (request, { params }, reply) => {
      const { date, type } = fileParams(request, params);
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
