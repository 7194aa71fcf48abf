import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuthDatabase } from './types';

/**
 * The Kysely instance the app decorates Fastify with, seen through this module's table types
 * (the engine's own Database type is generated; the columns we touch are declared in types.ts).
 */
export function authDb(app: FastifyInstance): Kysely<AuthDatabase> {
  const { db } = app as unknown as { db?: Kysely<AuthDatabase> };
  if (!db) throw new Error('auth: the Fastify instance has no `db` decoration');
  return db;
}

/** Times are written as ISO strings on both dialects (see types.ts). */
export function iso(date: Date): string {
  return date.toISOString();
}

export function toDate(value: string | Date | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(value);
}
