/** One row of the audit trail (who changed which row of which entity, and how), as the contracts declare it. */
export type { AuditItem as AuditEntry } from '@mizan/contracts';
