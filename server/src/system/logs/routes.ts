import fs from 'node:fs';
import path from 'node:path';
import { API_BASE, AREA_PERMISSIONS, MAX_PAGE_SIZE, SYSTEM } from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requirePermission } from '../../auth/guard';
import { AppError } from '../../http/errors';
import { requestLanguage, translate } from '../../http/messages';
import { doc, security } from '../docs';
import { parseSystem } from '../validation';
import { latestEntries, pageOfEntries, SummaryCache, type LogFilter } from './analysis';
import {
  isLogDate,
  isLogType,
  LEVEL_VALUES,
  listLogDates,
  statLog,
  type LogFileInfo,
  type LogType,
} from './files';

/** Most entries `GET /` returns at once. */
export const MAX_LOG_LIMIT = 1000;

const filterShape = {
  level: z.enum(Object.keys(LEVEL_VALUES) as [string, ...string[]], { error: 'validation.enum' }).optional(),
  route: z.string().trim().max(300, { error: 'validation.string.max' }).optional(),
  q: z.string().trim().max(200, { error: 'validation.string.max' }).optional(),
};
const int = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: 'validation.types.integer' })
    .int({ error: 'validation.types.integer' })
    .min(min, { error: 'validation.number.min' })
    .max(max, { error: 'validation.number.max' })
    .default(fallback);

const listQuery = z.object({ ...filterShape, limit: int(1, MAX_LOG_LIMIT, 100) }).strip();
const pageQuery = z
  .object({
    ...filterShape,
    page: int(1, 1_000_000, 1),
    pageSize: int(1, MAX_PAGE_SIZE, 20),
    order: z.enum(['asc', 'desc'], { error: 'validation.enum' }).default('desc'),
  })
  .strip();

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
  const base = API_BASE + SYSTEM.logs;
  const dir = path.join(app.config.dataDir, 'logs');
  const cache = new SummaryCache();
  const opts = (summary: string, querystring?: Record<string, unknown>) => ({
    preHandler: requirePermission(AREA_PERMISSIONS.logsView),
    schema: { tags: ['logs'], security, summary, ...(querystring ? { querystring } : {}) },
  });
  const fileQuery = z.object({
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    type: z.enum(['combined', 'error']).optional(),
  });
  const dayDoc = doc(fileQuery);

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

  app.get(
    base,
    opts('Latest log entries of a day', doc(fileQuery.extend(listQuery.shape))),
    async (request) => {
      const { date, type, info } = await fileOf(request);
      const query = parseSystem(listQuery, request.query ?? {}, request);
      const { items, total } = await latestEntries(info.path, filterOf(query), query.limit);
      return { data: { date, type, items, total, limit: query.limit, truncated: total > items.length } };
    },
  );

  app.get(
    `${base}/paginated`,
    opts('Log entries of a day, paged', doc(fileQuery.extend(pageQuery.shape))),
    async (request) => {
      const { info } = await fileOf(request);
      const query = parseSystem(pageQuery, request.query ?? {}, request);
      const { items, total } = await pageOfEntries(
        info.path,
        filterOf(query),
        query.page,
        query.pageSize,
        query.order,
      );
      return { data: { items, total, page: query.page, pageSize: query.pageSize } };
    },
  );

  app.get(
    `${base}/stats`,
    opts('Requests, errors and durations per hour of a day', dayDoc),
    async (request) => {
      const { date, info } = await fileOf(request);
      const summary = await cache.get(info);
      const { lines, totals, hours, levels } = summary;
      return { data: { date, lines, totals, hours, levels } };
    },
  );

  app.get(
    `${base}/error-analysis`,
    opts('Errors of a day grouped by message and route', dayDoc),
    async (request) => {
      const { info } = await fileOf(request);
      return { data: (await cache.get(info)).errorGroups };
    },
  );

  app.get(
    `${base}/route-stats`,
    opts('Requests per route of a day: count, error rate, p50/p95', dayDoc),
    async (request) => {
      const { info } = await fileOf(request);
      return { data: (await cache.get(info)).routes };
    },
  );

  app.get(`${base}/dates`, opts('Days that have log files, newest first'), async () => ({
    data: await listLogDates(dir),
  }));

  app.get(`${base}/levels`, opts('Levels present in a day with their counts', dayDoc), async (request) => {
    const { info } = await fileOf(request);
    return { data: (await cache.get(info)).levels };
  });

  app.get<{ Params: { date: string; type: string } }>(
    `${base}/download/:date/:type`,
    opts("Download one day's log file"),
    async (request, reply) => {
      const { date, type } = fileParams(request, request.params);
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
  );
}
