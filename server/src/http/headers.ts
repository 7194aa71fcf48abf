import compress from '@fastify/compress';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** Responses smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/** One year: content-hashed files never change under the same name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Origins other than this server's that the page loads remotes from: each absolute manifest URL
 * of `MIZAN_REMOTES` (the manifest, its `remoteEntry.js` and chunks live on the same origin).
 */
export function remoteOrigins(config: Pick<Config, 'remotes'>): string[] {
  const origins = new Set<string>();
  for (const url of Object.values(config.remotes ?? {})) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      // A relative URL is served from this origin: 'self' covers it.
    }
  }
  return [...origins];
}

/**
 * The Content-Security-Policy the built host and remotes run under: scripts only from this origin
 * and the remotes' (the federation runtime adds script tags, never inline code); styles inline
 * because antd writes its CSS-in-JS into `<style>` elements; blob: for file previews (the PDF
 * viewer in an iframe, image previews) and data: for antd's inline images and fonts.
 */
export function contentSecurityPolicy(config: Pick<Config, 'remotes' | 'publicUrl'>) {
  const remotes = remoteOrigins(config);
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...remotes],
      // 'self' covers the same-origin WebSocket (ws:/wss: of this host) in CSP level 3 browsers;
      // blob: lets a file preview read back the blob it shows.
      connectSrc: ["'self'", ...remotes, 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:', ...remotes],
      // A previewed PDF is a blob: document in an iframe; it inherits this policy and its viewer
      // is an embedded plugin.
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'self'", 'blob:'],
      workerSrc: ["'self'", 'blob:'],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(isHttps(config.publicUrl) ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

const isHttps = (url: string | null) => url !== null && url.toLowerCase().startsWith('https:');

type SyncCompress = (payload: Buffer, options?: object) => Buffer;

/** Buffers sent as they are, again and again, never changed (see `unchanging`). */
const kept = new WeakSet<Buffer>();

/**
 * Marks `body` as bytes that will be sent again unchanged (a kept list answer, see
 * `EntityService.listJson`): its compressed forms are made once and live as long as it does.
 */
export function unchanging(body: Buffer): Buffer {
  kept.add(body);
  return body;
}

/**
 * zlib as @fastify/compress uses it, except that an `unchanging` Buffer is compressed once per
 * method. Anything else is compressed as zlib would.
 */
export function rememberingZlib(): typeof zlib {
  const compressed = new WeakMap<Buffer, Map<SyncCompress, Buffer>>();
  const remember =
    (compress: SyncCompress): SyncCompress =>
    (payload, options) => {
      if (!kept.has(payload)) return compress(payload, options);
      let byMethod = compressed.get(payload);
      if (!byMethod) compressed.set(payload, (byMethod = new Map()));
      let out = byMethod.get(compress);
      if (!out) byMethod.set(compress, (out = compress(payload, options)));
      return out;
    };
  return {
    ...zlib,
    brotliCompressSync: remember(zlib.brotliCompressSync),
    gzipSync: remember(zlib.gzipSync),
    deflateSync: remember(zlib.deflateSync),
  } as typeof zlib;
}

/**
 * The headers helmet sets with `options`, worked out once: they are the same on every response
 * (no per-request nonce, no directive computed from the request). @fastify/helmet builds helmet's
 * middleware again on every request, parsing the whole policy each time: about a tenth of a kept
 * list answer's CPU.
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.freeze(headers);
}

/**
 * Security headers on every response (helmet's, see `helmetHeaders`) and compression of dynamic
 * answers above {@link COMPRESS_THRESHOLD}. Static files carry their own precompressed `.br`/`.gz`
 * siblings (built by compression-webpack-plugin) and are sent as they are; see static/index.ts.
 * HSTS only when the public URL is https: on plain http a browser ignores it anyway, and on a
 * loopback or LAN name it would pin https on a host that has none.
 */
export async function registerHttpHeaders(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const security = helmetHeaders({
    contentSecurityPolicy: contentSecurityPolicy(config),
    strictTransportSecurity: isHttps(config.publicUrl)
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The older form of `frame-ancestors 'none'`, for browsers without CSP level 2.
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(security);
    done();
  });
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    zlib: rememberingZlib(),
  });
}
