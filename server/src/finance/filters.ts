import { customers } from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireReference } from '../engine/writer';
import { requestLanguage, translate } from '../http/messages';

/**
 * What the schemas of a report's or statement's filters cannot say (they refuse `from` after `to`
 * themselves): a client that does not exist is 422 on `customerId` (labels: `legal.reports.fields`).
 */
export async function checkReportFilters(
  app: FastifyInstance,
  request: FastifyRequest,
  filters: { customerId?: number },
): Promise<void> {
  const lang = requestLanguage(request);
  const label = (field: string) => translate(lang, `legal.reports.fields.${field}`);
  if (filters.customerId !== undefined)
    await requireReference(app.db, {
      entity: customers.name,
      id: filters.customerId,
      field: 'customerId',
      label: label('customerId'),
    });
}
