import { z } from 'zod';
import { AREA_PERMISSIONS } from '../areaPermissions';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from '../entity';
import { answer, route } from '../route';
import type { Gender } from '../entities/people';

/**
 * `GET /api/admin/settings/system/audit`: who changed which row, and how. The whole trail needs
 * `audit.view`; the history of one row (`entity` and `entityId`) needs only `<entity>.view`, as a
 * record page shows it.
 */

/** One audit entry as the API returns it. */
export interface AuditItem {
  id: number;
  employeeId: number | null;
  /**
   * The employee who made the change (null for system work, or once the employee is deleted), with
   * their gender for the verb that names what they did.
   */
  employee: { id: number; name: string; gender?: Gender | null } | null;
  entity: string;
  entityId: number | null;
  action: string;
  /** The row before and after the change (null on create and delete respectively). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  createdAt: string;
}

/**
 * The verbs the audit trail records besides each definition's declared actions (`actions` of
 * `defineEntity`: `close`, `postpone`, ...): the engine's writes and the modules' own. The screens
 * name each one (`ui:record.history.actions`), agreeing with who did it.
 */
export const AUDIT_VERBS = [
  'create',
  'update',
  'delete',
  'status',
  'baned',
  'fileDelete',
  'import',
  'resetPassword',
  'changePassword',
  'signOutEverywhere',
  'resetTwoFactor',
  'twoFactorRoles',
  'reset',
  'appearance',
  'share',
] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A day (`YYYY-MM-DD`, the whole day in UTC) or an ISO instant. */
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

export type AuditQuery = z.input<typeof auditQuery>;

/** Documentation of the answer (the shape is `Page<AuditItem>`). */
const auditPage = z.object({
  items: z.array(z.looseObject({ id: z.number(), entity: z.string(), action: z.string() })),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const AUDIT_ROUTES = {
  list: route({
    method: 'GET',
    path: '/admin/settings/system/audit',
    // Signed in is checked by the guard; which entries the user may read, by the handler.
    permission: null,
    summary:
      `Audit trail, newest first (${AREA_PERMISSIONS.auditView}; or one record's history, ` +
      '`entity` and `entityId`, with `<entity>.view`)',
    query: auditQuery,
    response: auditPage,
    answer: answer<Page<AuditItem>>(),
  }),
};
