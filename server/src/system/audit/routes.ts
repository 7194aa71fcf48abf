import {
  AREA_PERMISSIONS,
  AUDIT_ROUTES,
  auditQuery,
  findEntity,
  genderOf,
  permissionKey,
  type AuditItem,
  type Page,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authError } from '../../auth/errors';
import type { AuthUser } from '../../auth/types';
import type { Db } from '../../db';
import { defineRoute } from '../../http/route';

export { auditQuery, type AuditItem } from '@mizan/contracts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Lower bound of `from`, upper bound (exclusive) of `to`: a bare day covers the whole day (UTC). */
const startOf = (v: string) => (DAY.test(v) ? `${v}T00:00:00.000Z` : new Date(v).toISOString());
const endOf = (v: string) =>
  DAY.test(v)
    ? new Date(Date.parse(`${v}T00:00:00Z`) + 86_400_000).toISOString()
    : new Date(Date.parse(v) + 1).toISOString();

const parseJson = (text: unknown): Record<string, unknown> | null => {
  if (text === null || text === undefined) return null;
  try {
    const value: unknown = JSON.parse(String(text));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : { value };
  } catch {
    // Not JSON (a row written by hand): shown as it is.
    return { value: text };
  }
};

/** A page of the audit trail, newest first (or oldest with `sort=createdAt:asc`), with each employee's name. */
export async function listAudit(db: Db, query: z.output<typeof auditQuery>): Promise<Page<AuditItem>> {
  let base = db.selectFrom('audit_log');
  if (query.employeeId !== undefined) base = base.where('audit_log.employee_id', '=', query.employeeId);
  if (query.entity) base = base.where('audit_log.entity', '=', query.entity);
  if (query.entityId !== undefined) base = base.where('audit_log.entity_id', '=', query.entityId);
  if (query.action) base = base.where('audit_log.action', '=', query.action);
  if (query.from) base = base.where('audit_log.created_at', '>=', startOf(query.from));
  if (query.to) base = base.where('audit_log.created_at', '<', endOf(query.to));
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
    base
      .leftJoin('employees', 'employees.id', 'audit_log.employee_id')
      .select([
        'audit_log.id',
        'audit_log.employee_id',
        'audit_log.entity',
        'audit_log.entity_id',
        'audit_log.action',
        'audit_log.before',
        'audit_log.after',
        'audit_log.ip',
        'audit_log.created_at',
        'employees.name as employee_name',
        'employees.gender as employee_gender',
      ])
      .orderBy('audit_log.created_at', query.sort === 'createdAt:asc' ? 'asc' : 'desc')
      .orderBy('audit_log.id', query.sort === 'createdAt:asc' ? 'asc' : 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);
  return {
    items: rows.map((r) => ({
      id: Number(r.id),
      employeeId: r.employee_id === null ? null : Number(r.employee_id),
      employee:
        r.employee_id !== null && r.employee_name !== null
          ? { id: Number(r.employee_id), name: String(r.employee_name), gender: genderOf(r.employee_gender) }
          : null,
      entity: String(r.entity),
      entityId: r.entity_id === null ? null : Number(r.entity_id),
      action: String(r.action),
      before: parseJson(r.before),
      after: parseJson(r.after),
      ip: r.ip === null ? null : String(r.ip),
      createdAt: r.created_at instanceof Date ? r.created_at.toISOString() : String(r.created_at),
    })),
    total: Number(total),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * Who may read this page of the trail: a holder of `audit.view` any of it; a holder of
 * `<entity>.view` the history of one row of that entity (`entity` and `entityId` both given, the
 * entity one of the registry's), as its record page shows it. Anything else is 403, so no entry of
 * another entity, nor of the system settings, reaches a user without the audit permission.
 */
export function mayReadAudit(user: AuthUser, query: z.output<typeof auditQuery>): boolean {
  if (user.permissions.has(AREA_PERMISSIONS.auditView)) return true;
  if (!query.entity || query.entityId === undefined || !findEntity(query.entity)) return false;
  return user.permissions.has(permissionKey(query.entity, 'view'));
}

export function auditRoutes(app: FastifyInstance): void {
  // Which entries the user may read: `mayReadAudit`.
  defineRoute(app, AUDIT_ROUTES.list, {
    tags: ['system'],
    labels: 'system.fields',
    handler: async (request, { query }) => {
      // An employee who must change the password does nothing else first.
      if (request.user.passwordChangeRequired) throw authError('forbidden', 'passwordChangeRequired');
      if (!mayReadAudit(request.user, query)) throw authError('forbidden', 'forbidden');
      return { data: await listAudit(app.db, query) };
    },
  });
}
