import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOCAL_REMOTES, type Config } from '../config';
import { t } from '../http/messages';

/** Files a browser must re-check on every load: the entry page and the deploy-time manifests. */
const NO_CACHE = new Set(['index.html', 'remotes.json', 'mf-manifest.json']);

function setCacheHeaders(reply: FastifyReply, filePath: string): void {
  if (NO_CACHE.has(path.basename(filePath))) void reply.header('cache-control', 'no-cache');
}

/** `/remotes.json`: `MIZAN_REMOTES`, or each local remote's manifest under `/remotes/<name>/`. */
export function remotesManifest(config: Config): Record<string, string> {
  return (
    config.remotes ??
    Object.fromEntries(LOCAL_REMOTES.map((name) => [name, `/remotes/${name}/mf-manifest.json`]))
  );
}

/**
 * Production serving on one port: the host build at `/` with SPA fallback, each remote's build at
 * `/remotes/<name>/`, `/remotes.json`. Missing builds are tolerated (API-only server); unknown
 * `/api` paths get the JSON 404.
 */
export async function registerStatic(app: FastifyInstance): Promise<void> {
  const { staticDir } = app.config;
  const hostDist = path.join(staticDir, 'host', 'dist');
  const hasHost = fs.existsSync(path.join(hostDist, 'index.html'));
  const manifest = remotesManifest(app.config);

  app.get('/remotes.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(manifest),
  );

  if (hasHost) {
    // `reply.sendFile` is left undecorated so other modules can stream their own files freely.
    await app.register(fastifyStatic, {
      root: hostDist,
      prefix: '/',
      index: 'index.html',
      decorateReply: false,
      setHeaders: setCacheHeaders,
    });
  }
  for (const name of LOCAL_REMOTES) {
    const dist = path.join(staticDir, 'remotes', name, 'dist');
    if (!fs.existsSync(dist)) continue;
    await app.register(fastifyStatic, {
      root: dist,
      prefix: `/remotes/${name}/`,
      decorateReply: false,
      setHeaders: setCacheHeaders,
    });
  }

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send({ message: t(request, 'http.routeNotFound'), code: 'notFound' });

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isPage =
      hasHost &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.startsWith('/api/') &&
      url !== '/api' &&
      !url.startsWith('/remotes/') &&
      !path.extname(url);
    if (!isPage) return notFound(request, reply);
    // Client-side routes (`/admin/...`) get the shell; the router shows its own 404 inside.
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(await fs.promises.readFile(path.join(hostDist, 'index.html')));
  });
}
