import crypto from 'node:crypto';
import { HEADERS } from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** How long the first answer to a key is replayed (the prune job removes older rows). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A key still running after this long belongs to a request whose process died: a retry takes it over. */
const ABANDONED_MS = 2 * 60_000;
/** Visible ASCII, as clients generate them (UUIDs, say). */
const KEY = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The `Idempotency-Key` this request holds while it runs (its answer is kept on send). */
    idempotencyKey?: { employeeId: number; key: string };
  }
}

/** JSON with object keys sorted, so the same body written in another key order hashes alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * What a retry must repeat: method, address and body. A multipart body is still a stream here (its
 * route reads it), so its length stands for it: a client retrying a submission sends the same
 * bytes, and a browser's boundaries are of one length.
 */
function requestHash(request: FastifyRequest): string {
  const body = request.isMultipart()
    ? `multipart:${request.headers['content-length'] ?? ''}`
    : canonical(request.body ?? null);
  return crypto.createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

/**
 * `Idempotency-Key` on every POST of a signed-in employee: the first answer (status and body) is
 * kept per employee and key with a hash of the request, and a retry with that key gets it again
 * (header `Idempotent-Replayed: true`) for 24 hours instead of creating twice. The same key with
 * another body answers 422; while the first request runs, 409. A 5xx answer is not kept (the retry
 * runs again). Installed before the routes, after authentication (the routes' `onRequest`).
 */
export function installIdempotency(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers[HEADERS.idempotencyKey];
    if (request.method !== 'POST' || header === undefined || !request.user) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (!KEY.test(key)) throw new AppError('validation', { messageKey: 'http.idempotencyKeyInvalid' });
    const employeeId = request.user.id;
    const hash = requestHash(request);
    const now = new Date();
    const db = app.db;
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({ employee_id: employeeId, key, request_hash: hash, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['employee_id', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
        request.idempotencyKey = { employeeId, key };
        return;
      }
      const row = (await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('employee_id', '=', employeeId)
        .where('key', '=', key)
        .executeTakeFirst()) as
        | { request_hash: string; status: number | null; body: string | null; created_at: string | Date }
        | undefined;
      if (!row) continue; // removed meanwhile (a failed first attempt): try again
      const age = now.getTime() - new Date(row.created_at).getTime();
      if (age >= IDEMPOTENCY_TTL_MS || (row.status === null && age >= ABANDONED_MS)) {
        // Expired, or left running by a process that died: the key starts afresh.
        await db
          .deleteFrom('idempotency_keys')
          .where('employee_id', '=', employeeId)
          .where('key', '=', key)
          .where('created_at', '=', row.created_at)
          .execute();
        continue;
      }
      if (row.request_hash !== hash)
        throw new AppError('validation', { messageKey: 'http.idempotencyKeyReused' });
      if (row.status === null) throw new AppError('conflict', { messageKey: 'http.idempotencyInFlight' });
      return reply
        .code(row.status)
        .header('content-type', 'application/json; charset=utf-8')
        .header('idempotent-replayed', 'true')
        .send(row.body ?? '');
    }
    throw new AppError('conflict', { messageKey: 'http.idempotencyInFlight' });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotencyKey;
    if (!held) return payload;
    request.idempotencyKey = undefined;
    const where = app.db
      .updateTable('idempotency_keys')
      .where('employee_id', '=', held.employeeId)
      .where('key', '=', held.key);
    // JSON answers only: a file or a stream is not kept (it is replayed as JSON).
    const json = /json/.test(String(reply.getHeader('content-type') ?? ''));
    if (reply.statusCode < 500 && json && (typeof payload === 'string' || Buffer.isBuffer(payload)))
      await where.set({ status: reply.statusCode, body: payload.toString() }).execute();
    else
      await app.db
        .deleteFrom('idempotency_keys')
        .where('employee_id', '=', held.employeeId)
        .where('key', '=', held.key)
        .execute();
    return payload;
  });
}
