import {
  API_BASE,
  AREA_PERMISSIONS,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  SYSTEM,
  type Page,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requirePermission } from '../../auth/guard';
import type { Db } from '../../db';
import { doc, security } from '../docs';
import { parseSystem } from '../validation';

/** One audit entry as `GET /api/admin/settings/system/audit` returns it. */
export interface AuditItem {
  id: number;
  employeeId: number | null;
  /** The employee who made the change (null for system work, or once the employee is deleted). */
  employee: { id: number; name: string } | null;
  entity: string;
  entityId: number | null;
  action: string;
  before: unknown;
  after: unknown;
  ip: string | null;
  createdAt: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const instant = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(Date.parse(DAY.test(v) ? `${v}T00:00:00Z` : v)), {
    error: 'validation.date.invalid',
  });
const positive = z.coerce
  .number({ error: 'validation.types.integer' })
  .int({ error: 'validation.types.integer' })
  .positive({ error: 'validation.types.integer' });

export const auditQuery = z
  .object({
    page: positive.default(1),
    pageSize: positive.max(MAX_PAGE_SIZE, { error: 'validation.number.max' }).default(DEFAULT_PAGE_SIZE),
    employeeId: positive.optional(),
    entity: z.string().trim().max(100, { error: 'validation.string.max' }).optional(),
    entityId: positive.optional(),
    action: z.string().trim().max(30, { error: 'validation.string.max' }).optional(),
    from: instant.optional(),
    to: instant.optional(),
    sort: z.enum(['createdAt:desc', 'createdAt:asc'], { error: 'validation.enum' }).default('createdAt:desc'),
  })
  .strip();

/** Lower bound of `from`, upper bound (exclusive) of `to`: a bare day covers the whole day (UTC). */
const startOf = (v: string) => (DAY.test(v) ? `${v}T00:00:00.000Z` : new Date(v).toISOString());
const endOf = (v: string) =>
  DAY.test(v)
    ? new Date(Date.parse(`${v}T00:00:00Z`) + 86_400_000).toISOString()
    : new Date(Date.parse(v) + 1).toISOString();

const parseJson = (text: unknown): unknown => {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(String(text));
  } catch {
    return text;
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
          ? { id: Number(r.employee_id), name: String(r.employee_name) }
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

export function auditRoutes(app: FastifyInstance): void {
  app.get(
    API_BASE + SYSTEM.audit,
    {
      preHandler: requirePermission(AREA_PERMISSIONS.auditView),
      schema: {
        tags: ['system'],
        security,
        summary: 'Audit trail, newest first',
        querystring: doc(auditQuery),
      },
    },
    async (request) => ({
      data: await listAudit(app.db, parseSystem(auditQuery, request.query ?? {}, request)),
    }),
  );
}
