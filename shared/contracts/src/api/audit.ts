import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../entity';

/**
 * `GET /api/admin/settings/system/audit`: who changed which row, and how. The whole trail needs
 * `audit.view`; the history of one row (`entity` and `entityId`) needs only `<entity>.view`, as a
 * record page shows it.
 */

/** One audit entry as the API returns it. */
export interface AuditItem {
  id: number;
  employeeId: number | null;
  /** The employee who made the change (null for system work, or once the employee is deleted). */
  employee: { id: number; name: string } | null;
  entity: string;
  entityId: number | null;
  action: string;
  /** The row before and after the change (null on create and delete respectively). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  createdAt: string;
}

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
