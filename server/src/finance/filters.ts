import { customers } from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireReference } from '../engine/writer';
import { AppError } from '../http/errors';
import { requestLanguage, translate } from '../http/messages';

/**
 * What the schemas of a report's or statement's filters cannot say: `from` after `to` is 422 on
 * `from`, and a client that does not exist is 422 on `customerId` (labels: `legal.reports.fields`).
 */
export async function checkReportFilters(
  app: FastifyInstance,
  request: FastifyRequest,
  filters: { from?: string; to?: string; customerId?: number },
): Promise<void> {
  const lang = requestLanguage(request);
  const label = (field: string) => translate(lang, `legal.reports.fields.${field}`);
  if (filters.from && filters.to && filters.from > filters.to)
    throw new AppError('validation', {
      errors: {
        from: [{ key: 'legal.reports.fromAfterTo', params: { label: label('from'), to: filters.to } }],
      },
    });
  if (filters.customerId !== undefined)
    await requireReference(app.db, {
      entity: customers.name,
      id: filters.customerId,
      field: 'customerId',
      label: label('customerId'),
    });
}
