import type { Db } from '../db';
import type { Trx } from '../engine/context';

/** One change as the audit trail keeps it: who, what, when, before, after, from where. */
export interface AuditEntry {
  employeeId: number | null;
  entity: string;
  entityId: number | null;
  /** `create`, `update`, `delete`, `status`, `baned`, `fileDelete`, or a module's own verb. */
  action: string;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/**
 * Appends an audit entry; call it inside the transaction of the change it records.
 * `before`/`after` are stored as JSON text (rows without write-only fields).
 *
 * @example
 * await writeAudit(ctx.trx, { employeeId: ctx.user?.id ?? null, entity: 'systemSettings', entityId: 1,
 *   action: 'update', before, after, ip: ctx.ip });
 */
export async function writeAudit(trx: Trx | Db, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      employee_id: entry.employeeId,
      entity: entry.entity,
      entity_id: entry.entityId,
      action: entry.action,
      before: entry.before === undefined || entry.before === null ? null : JSON.stringify(entry.before),
      after: entry.after === undefined || entry.after === null ? null : JSON.stringify(entry.after),
      ip: entry.ip ?? null,
      created_at: new Date().toISOString(),
    })
    .execute();
}

/** Appends many audit entries with a few multi-row inserts (batch writes: `createMany`, imports). */
export async function writeAuditMany(trx: Trx | Db, entries: readonly AuditEntry[]): Promise<void> {
  const createdAt = new Date().toISOString();
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  const rows = entries.map((entry) => ({
    employee_id: entry.employeeId,
    entity: entry.entity,
    entity_id: entry.entityId,
    action: entry.action,
    before: json(entry.before),
    after: json(entry.after),
    ip: entry.ip ?? null,
    created_at: createdAt,
  }));
  // Eight values per row: 2,000 rows stay under either database's parameter limit.
  for (let i = 0; i < rows.length; i += 2_000)
    await trx
      .insertInto('audit_log')
      .values(rows.slice(i, i + 2_000))
      .execute();
}
