import type { Db } from '../db';
import { gatherAtCommit, writeNow, type CommitWrite } from '../db/atCommit';
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
 * Appends an audit entry; call it inside the transaction of the change it records (written at its
 * end when it gathers writes for the commit, `db/atCommit.ts`).
 * `before`/`after` are stored as JSON text (rows without write-only fields).
 *
 * @example
 * await writeAudit(ctx.trx, { employeeId: ctx.user?.id ?? null, entity: 'systemSettings', entityId: 1,
 *   action: 'update', before, after, ip: ctx.ip });
 */
export async function writeAudit(trx: Trx | Db, entry: AuditEntry): Promise<void> {
  await writeAuditMany(trx, [entry]);
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
  const add = (gathered: AuditRow[]) => {
    gathered.push(...rows);
    return gathered;
  };
  if (!gatherAtCommit(trx, AUDIT_ROWS, add)) await writeNow(trx, AUDIT_ROWS, rows);
}

type AuditRow = Record<string, unknown>;

/** Audit rows in multi-row inserts, written before the kept totals (they lock no shared row). */
const AUDIT_ROWS: CommitWrite<AuditRow[]> = {
  rank: 0,
  start: () => [],
  statements: (db, rows) => {
    const inserts = [];
    // Eight values per row: 2,000 rows stay under either database's parameter limit.
    for (let i = 0; i < rows.length; i += 2_000)
      inserts.push(
        db
          .insertInto('audit_log')
          .values(rows.slice(i, i + 2_000))
          .compile(),
      );
    return [inserts];
  },
};
