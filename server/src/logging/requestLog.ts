import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The error behind a 5xx, kept for the request's completion line. */
const errors = new WeakMap<FastifyRequest, unknown>();

export function rememberError(request: FastifyRequest, error: unknown): void {
  errors.set(request, error);
}

/**
 * One line per request when it completes (Fastify's two default lines are turned off):
 * `{ reqId, method, url, route, statusCode, responseTime, err? }`; level info below 400,
 * warn for 4xx, error for 5xx.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const statusCode = reply.statusCode;
    const line = {
      method: request.method,
      url: request.url,
      route: request.routeOptions.url ?? null,
      statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
      ...(errors.has(request) ? { err: errors.get(request) } : {}),
    };
    if (statusCode >= 500) request.log.error(line, 'request failed');
    else if (statusCode >= 400) request.log.warn(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}
