import { branches, customers } from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireReference } from '../engine/writer';
import { requestLanguage, translate } from '../http/messages';

/**
 * What the schemas of a report's filters cannot say (they refuse `from` after `to` themselves): a
 * client or a branch that does not exist is 422 on `customerId` or `branchId` (labels:
 * `legal.reports.fields`).
 */
export async function checkReportFilters(
  app: FastifyInstance,
  request: FastifyRequest,
  filters: { customerId?: number; branchId?: number },
): Promise<void> {
  const lang = requestLanguage(request);
  const label = (field: string) => translate(lang, `legal.reports.fields.${field}`);
  const refs = [
    { field: 'customerId', entity: customers.name, id: filters.customerId },
    { field: 'branchId', entity: branches.name, id: filters.branchId },
  ] as const;
  for (const { field, entity, id } of refs)
    if (id !== undefined) await requireReference(app.db, { entity, id, field, label: label(field) });
}
