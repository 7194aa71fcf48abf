import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config';

/**
 * Remotes released on their own with `npm run release -- <remote>` (scripts/release.mjs), while
 * this server keeps running. The script writes `<dir>/<remote>/<version>/` and
 * `<dir>/<remote>/release.json` (`{ history: [..., previous, current] }`); this module serves the
 * version folders and tells `/remotes.json` which version is current, read again on every request.
 */

export const RELEASES_PREFIX = '/releases/';

const NAME = /^[a-z][a-z0-9_]*$/;
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]*$/;
/** webpack's `[contenthash:10]` chunks and `[hash]` assets: their name changes with their content. */
const HASHED = /[.-][0-9a-f]{10,}\.[a-z0-9]+$/;
const YEAR = 365 * 24 * 60 * 60;
/** The build's precompressed siblings, which @fastify/static sends by `Accept-Encoding`. */
const COMPRESSED = /\.(br|gz)$/;

/** `MIZAN_RELEASES_DIR`, or `releases` in the data directory (the release script agrees). */
export function releasesDir(config: Config, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.MIZAN_RELEASES_DIR || path.join(config.dataDir, 'releases'));
}

function currentVersion(dir: string, remote: string): string | undefined {
  try {
    const { history } = JSON.parse(fs.readFileSync(path.join(dir, remote, 'release.json'), 'utf8')) as {
      history?: unknown;
    };
    const current = Array.isArray(history) ? history.at(-1) : undefined;
    if (typeof current !== 'string' || !VERSION.test(current)) return undefined;
    return fs.existsSync(path.join(dir, remote, current, 'mf-manifest.json')) ? current : undefined;
  } catch {
    // No release of this remote (or a state being replaced): its built-in entry stays.
    return undefined;
  }
}

/**
 * `remote → manifest URL` of every remote with a current release. Read on each call: a release or
 * rollback shows on the next page load without a restart.
 */
export function releasedRemotes(dir: string): Record<string, string> {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => NAME.test(name));
  } catch {
    return {};
  }
  const entries: [string, string][] = [];
  for (const name of names) {
    const version = currentVersion(dir, name);
    if (version) entries.push([name, `${RELEASES_PREFIX}${name}/${version}/mf-manifest.json`]);
  }
  return Object.fromEntries(entries);
}

/**
 * Hashed chunks are cached for a year (a version folder is never rewritten); the manifest, the
 * remote entry and the declaration are checked on every load, as are unhashed files.
 */
export function setReleaseCacheHeaders(reply: FastifyReply, filePath: string): void {
  void reply.header(
    'cache-control',
    HASHED.test(path.basename(filePath).replace(COMPRESSED, ''))
      ? `public, max-age=${YEAR}, immutable`
      : 'no-cache',
  );
}

/** Only `/<remote>/<version>/<file>`: never `release.json` nor a folder still being written. */
function isReleaseFile(pathName: string): boolean {
  const [, remote, version, ...rest] = pathName.split('/');
  return (
    remote !== undefined &&
    NAME.test(remote) &&
    version !== undefined &&
    VERSION.test(version) &&
    rest.length > 0 &&
    rest.every((part) => part !== '' && !part.startsWith('.'))
  );
}

/** Serves `<dir>/<remote>/<version>/...` at `/releases/<remote>/<version>/...`. */
export async function registerReleases(app: FastifyInstance, dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await app.register(fastifyStatic, {
    root: dir,
    prefix: RELEASES_PREFIX,
    decorateReply: false,
    index: false,
    preCompressed: true,
    allowedPath: (pathName) => isReleaseFile(pathName),
    setHeaders: setReleaseCacheHeaders,
  });
}
