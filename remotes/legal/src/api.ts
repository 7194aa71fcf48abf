import { LEGAL_ROUTES, actionPath, type Entity, type Fields } from '@mizan/contracts';
import { api, type RequestOptions } from '@mizan/sdk';
import type { EntityRow } from '@mizan/ui';

/** An API path with its `:id` filled in. */
export const withId = (path: string, id: number) => path.replace(':id', String(id));

/**
 * Runs one of a definition's declared row actions (`close`, `postpone`…) at the route the engine
 * derives for it (`PATCH <path>/:id/<action>` unless the definition says otherwise), with the
 * version the row was read at so a row changed since answers 409.
 *
 * @example await runAction(lawsuits, 'close', 7, { lawsuitCaseId: 3, updatedAt: row.updatedAt });
 */
export function runAction(
  entity: Entity<Fields>,
  action: string,
  id: number,
  body: Record<string, unknown> = {},
  options?: RequestOptions,
): Promise<EntityRow> {
  const definition = entity.actions?.[action];
  if (!definition) return Promise.reject(new Error(`${entity.name} declares no action "${action}"`));
  const url = `${entity.path}${withId(actionPath(action, definition), id)}`;
  return definition.method === 'POST'
    ? api.post<EntityRow>(url, body, options)
    : api.patch<EntityRow>(url, body, options);
}

/** Query keys of the legal routes beyond CRUD (beside the entity keys, so a save can refresh them). */
export const legalKeys = {
  fees: (lawsuitId: number) => ['legal', 'fees', lawsuitId] as const,
  feeRows: (lawsuitId: number) => ['legal', 'feeRows', lawsuitId] as const,
  chain: (sessionId: number) => ['legal', 'chain', sessionId] as const,
  chains: () => ['legal', 'chain'] as const,
};

/** The fee figures of one lawsuit (`LEGAL_ROUTES.lawsuitFees`). */
export const fetchLawsuitFees = (lawsuitId: number, options?: RequestOptions) =>
  api.call(LEGAL_ROUTES.lawsuitFees, { params: { id: lawsuitId } }, options);

/** Every payment that counts towards one lawsuit's fee, one row each (`LEGAL_ROUTES.lawsuitFeeRows`). */
export const fetchLawsuitFeeRows = (lawsuitId: number, options?: RequestOptions) =>
  api.call(LEGAL_ROUTES.lawsuitFeeRows, { params: { id: lawsuitId } }, options);

/** The postponement chain of one hearing, first to last (`LEGAL_ROUTES.sessionChain`). */
export const fetchSessionChain = (sessionId: number, options?: RequestOptions) =>
  api.call(LEGAL_ROUTES.sessionChain, { params: { id: sessionId } }, options);
