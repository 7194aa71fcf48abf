import path from 'node:path';

/**
 * The server's whole configuration, read only from environment variables.
 *
 * @example
 * const app = await buildApp(loadConfig(process.env));
 */
export interface Config {
  port: number;
  host: string;
  /** `sqlite:<file>` or `postgres://user@host:port/db`. */
  databaseUrl: string;
  /** Uploaded files (`files/`) and daily logs (`logs/`). */
  dataDir: string;
  redisUrl: string | null;
  smtpUrl: string | null;
  /**
   * The most one mail may carry in attached files (`MIZAN_MAIL_MAX_ATTACHMENT_MB`, default 20, in
   * bytes here): a document shared with a client by email beyond it is refused before it is queued.
   */
  mailMaxAttachmentBytes: number;
  adminEmail: string | null;
  adminPassword: string | null;
  /** Remote name → manifest URL, served as `/remotes.json`; null = the local remotes. */
  remotes: Record<string, string> | null;
  /** Repository root holding `host/dist` and `remotes/<name>/dist`. */
  staticDir: string;
  logLevel: string;
  /**
   * Which peers may set X-Forwarded-For (`MIZAN_TRUST_PROXY`: proxy-addr names and CIDRs such as
   * `loopback, 10.0.0.5`, or `none`). Default: loopback only (nginx on the same machine). Not the
   * private networks: in an office LAN any machine could then claim any address and walk past
   * the per-IP sign-in limit or into the audit trail under another address.
   */
  trustProxy: string | false;
  /** Also log to stdout (off in tests so Jest output stays readable). */
  logToStdout: boolean;
  /**
   * How often this instance looks for due scheduled jobs (`MIZAN_SCHEDULER_POLL_SECONDS`, default
   * 60); 0: this instance runs none (another instance on the same database does).
   */
  schedulerPollSeconds: number;
  /** How often this instance looks for background jobs to run (`MIZAN_JOBS_POLL_SECONDS`, default 2; 0: none). */
  jobsPollSeconds: number;
  /** `MIZAN_METRICS_PORT`: Prometheus metrics at `/metrics` on this port (keep it off the public network). */
  metricsPort: number | null;
  /** `MIZAN_METRICS_TOKEN`: Prometheus metrics at `/api/metrics` for `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /**
   * How long one check of `/api/ready` may take before it counts as failing
   * (`MIZAN_READY_TIMEOUT_MS`, default 2000): below the load balancer's own probe timeout.
   */
  readyTimeoutMs: number;
  /**
   * How old an unfinished upload (`<name>.part` with no row) must be before a sweep removes it
   * (`MIZAN_FILE_ORPHAN_GRACE_SECONDS`, default 3600): younger ones may still be written by a live
   * instance.
   */
  fileOrphanGraceSeconds: number;
  /**
   * Where uploaded files are stored (`MIZAN_FILES_URL`): null for `DATA_DIR/files` on this disk,
   * else an S3-compatible bucket.
   */
  files: S3Location | null;
  /** `MIZAN_PUBLIC_URL`: the address people open (reset links; https turns on HSTS); null: unknown. */
  publicUrl: string | null;
}

/** An S3-compatible bucket and the prefix under which files are kept, from `MIZAN_FILES_URL`. */
export interface S3Location {
  bucket: string;
  /** Without slashes at either end; '' for the bucket's top. */
  prefix: string;
  /** Another S3-compatible server (MinIO, Ceph, ...); null: AWS itself. */
  endpoint: string | null;
  region: string;
  /** `bucket` in the path, not in the host name (most S3-compatible servers want it). */
  forcePathStyle: boolean;
  /** From the URL's user info; null: the AWS SDK's usual chain (`AWS_ACCESS_KEY_ID`, ...). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

const FILES_URL_HELP =
  'MIZAN_FILES_URL must look like s3://bucket/prefix?endpoint=http://host:9000&region=us-east-1&forcePathStyle=true';

/**
 * `s3://[key:secret@]bucket[/prefix][?endpoint=...&region=...&forcePathStyle=true]`; empty: files
 * on disk. Region: the URL's, else `AWS_REGION`, else us-east-1.
 */
export function parseFilesUrl(raw: string | undefined, env: NodeJS.ProcessEnv = {}): S3Location | null {
  const value = raw?.trim();
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(FILES_URL_HELP);
  }
  if (url.protocol !== 's3:' || !url.hostname) throw new Error(FILES_URL_HELP);
  const known = new Set(['endpoint', 'region', 'forcePathStyle']);
  for (const key of url.searchParams.keys())
    if (!known.has(key))
      throw new Error(`MIZAN_FILES_URL: unknown option "${key}" (${[...known].join(', ')})`);
  const endpoint = url.searchParams.get('endpoint');
  if (endpoint !== null && !/^https?:\/\/[^/]+/.test(endpoint))
    throw new Error(`MIZAN_FILES_URL: endpoint must be an http(s) address, got "${endpoint}"`);
  const pathStyle = url.searchParams.get('forcePathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false')
    throw new Error(`MIZAN_FILES_URL: forcePathStyle must be true or false, got "${pathStyle}"`);
  if (Boolean(url.username) !== Boolean(url.password))
    throw new Error(
      'MIZAN_FILES_URL: give both the access key and the secret (s3://key:secret@bucket), or neither',
    );
  return {
    bucket: url.hostname,
    prefix: decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, ''),
    endpoint,
    region: url.searchParams.get('region') || blankToNull(env.AWS_REGION) || 'us-east-1',
    forcePathStyle: pathStyle === 'true',
    credentials: url.username
      ? { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) }
      : null,
  };
}

/** Local remotes served from `remotes/<name>/dist` when `MIZAN_REMOTES` is not set. */
export const LOCAL_REMOTES = ['settings', 'clients', 'legal', 'tasks', 'chat'] as const;

function parseRemotes(raw: string | undefined): Record<string, string> | null {
  if (!raw || !raw.trim()) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('MIZAN_REMOTES must be a JSON object of remote name to manifest URL');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('MIZAN_REMOTES must be a JSON object of remote name to manifest URL');
  }
  const remotes: Record<string, string> = {};
  for (const [name, url] of Object.entries(parsed)) {
    if (typeof url !== 'string') throw new Error(`MIZAN_REMOTES: the URL of "${name}" must be a string`);
    remotes[name] = url;
  }
  return remotes;
}

function parsePort(raw: string | undefined, name = 'PORT'): number {
  if (raw === undefined || raw === '') return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name} must be 0-65535, got "${raw}"`);
  return port;
}

/** A bearer token guessable in less than forever is refused: at least 16 characters. */
function parseMetricsToken(raw: string | undefined): string | null {
  const token = blankToNull(raw)?.trim() ?? null;
  if (token !== null && token.length < 16)
    throw new Error('MIZAN_METRICS_TOKEN must be at least 16 characters');
  return token;
}

function parseTrustProxy(raw: string | undefined): string | false {
  const value = raw?.trim();
  if (!value) return 'loopback';
  return value.toLowerCase() === 'none' ? false : value;
}

function parsePollSeconds(
  raw: string | undefined,
  name = 'MIZAN_SCHEDULER_POLL_SECONDS',
  byDefault = 60,
): number {
  if (raw === undefined || raw.trim() === '') return byDefault;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 86_400)
    throw new Error(`${name} must be 0-86400, got "${raw}"`);
  return seconds;
}

function parseReadyTimeout(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 2000;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100 || ms > 60_000)
    throw new Error(`MIZAN_READY_TIMEOUT_MS must be 100-60000 milliseconds, got "${raw}"`);
  return ms;
}

function parseGraceSeconds(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 3600;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 0)
    throw new Error(`MIZAN_FILE_ORPHAN_GRACE_SECONDS must be a whole number of seconds, got "${raw}"`);
  return seconds;
}

function parseMailMaxAttachment(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 20 * 1024 * 1024;
  const mb = Number(raw);
  if (!Number.isFinite(mb) || mb <= 0 || mb > 1024)
    throw new Error(
      `MIZAN_MAIL_MAX_ATTACHMENT_MB must be a number of megabytes above 0 (at most 1024), got "${raw}"`,
    );
  return Math.floor(mb * 1024 * 1024);
}

const blankToNull = (value: string | undefined): string | null => (value && value.trim() ? value : null);

/** Reads the configuration from `env`; throws with a clear message on an invalid value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    port: parsePort(env.PORT),
    host: env.HOST || '0.0.0.0',
    // The database lives with the rest of the data unless told otherwise.
    databaseUrl: env.DATABASE_URL || `sqlite:${path.join(dataDir, 'mizan.db')}`,
    dataDir,
    redisUrl: blankToNull(env.REDIS_URL),
    smtpUrl: blankToNull(env.SMTP_URL),
    mailMaxAttachmentBytes: parseMailMaxAttachment(env.MIZAN_MAIL_MAX_ATTACHMENT_MB),
    adminEmail: blankToNull(env.MIZAN_ADMIN_EMAIL),
    adminPassword: blankToNull(env.MIZAN_ADMIN_PASSWORD),
    remotes: parseRemotes(env.MIZAN_REMOTES),
    // src/config.ts and dist/config.js both sit two levels below the repository root.
    staticDir: path.resolve(env.MIZAN_STATIC_DIR || path.join(__dirname, '..', '..')),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: parseTrustProxy(env.MIZAN_TRUST_PROXY),
    logToStdout: env.MIZAN_LOG_STDOUT !== 'false',
    schedulerPollSeconds: parsePollSeconds(env.MIZAN_SCHEDULER_POLL_SECONDS),
    jobsPollSeconds: parsePollSeconds(env.MIZAN_JOBS_POLL_SECONDS, 'MIZAN_JOBS_POLL_SECONDS', 2),
    publicUrl: blankToNull(env.MIZAN_PUBLIC_URL)?.trim() ?? null,
    metricsPort:
      blankToNull(env.MIZAN_METRICS_PORT) === null
        ? null
        : parsePort(env.MIZAN_METRICS_PORT, 'MIZAN_METRICS_PORT'),
    metricsToken: parseMetricsToken(env.MIZAN_METRICS_TOKEN),
    readyTimeoutMs: parseReadyTimeout(env.MIZAN_READY_TIMEOUT_MS),
    fileOrphanGraceSeconds: parseGraceSeconds(env.MIZAN_FILE_ORPHAN_GRACE_SECONDS),
    files: parseFilesUrl(env.MIZAN_FILES_URL, env),
  };
}
