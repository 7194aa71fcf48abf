import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOCAL_REMOTES, type Config } from '../config';
import { IMMUTABLE } from '../http/headers';
import { t } from '../http/messages';
import { registerReleases, releasedRemotes, releasesDir } from './releases';

/** Webpack's `[name].[contenthash:10].js` chunks (and hashed assets): the name changes with the content. */
const CONTENT_HASHED = /\.[0-9a-f]{10,}\.(js|css|woff2?|png|jpe?g|gif|svg)$/;

/** The precompressed siblings @fastify/static picks by `Accept-Encoding`. */
const COMPRESSED_SUFFIX = /\.(br|gz)$/;

/**
 * Hashed chunks are cached for a year; everything else (`index.html`, `main.js`, `remoteEntry.js`,
 * `mf-manifest.json`, theme stylesheets) is re-checked on every load against its ETag, so a new
 * build is picked up at once and an unchanged one costs a 304.
 */
function setCacheHeaders(reply: FastifyReply, filePath: string): void {
  const name = path.basename(filePath).replace(COMPRESSED_SUFFIX, '');
  void reply.header('cache-control', CONTENT_HASHED.test(name) ? IMMUTABLE : 'no-cache');
}

/**
 * Sends a small generated or read document with `no-cache` and a strong ETag of its bytes;
 * 304 when the browser already holds it.
 */
function sendRevalidated(request: FastifyRequest, reply: FastifyReply, body: Buffer | string) {
  const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  void reply.header('cache-control', 'no-cache').header('etag', etag);
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.send(body);
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

  // Remotes released on their own (releases.ts) replace their entry, read again on every request.
  const releases = releasesDir(app.config);
  await registerReleases(app, releases);
  app.get('/remotes.json', { schema: { hide: true } }, async (request, reply) =>
    sendRevalidated(
      request,
      reply.type('application/json; charset=utf-8'),
      JSON.stringify({ ...manifest, ...releasedRemotes(releases) }),
    ),
  );

  if (hasHost) {
    // `reply.sendFile` is left undecorated so other modules can stream their own files freely.
    await app.register(fastifyStatic, {
      root: hostDist,
      prefix: '/',
      index: 'index.html',
      decorateReply: false,
      preCompressed: true,
      cacheControl: false,
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
      preCompressed: true,
      cacheControl: false,
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
    const page = await fs.promises.readFile(path.join(hostDist, 'index.html'));
    return sendRevalidated(request, reply.type('text/html; charset=utf-8'), page);
  });
}
