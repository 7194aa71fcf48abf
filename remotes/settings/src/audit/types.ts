/** One row of the audit trail: who changed which row of which entity, and how. */
export interface AuditEntry {
  id: number;
  createdAt: string;
  employeeId: number | null;
  employee?: { id: number; name: string } | null;
  entity: string;
  entityId: number | string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip?: string | null;
}
