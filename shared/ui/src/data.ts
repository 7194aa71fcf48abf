import {
  api,
  entityApi as provider,
  useAuth,
  type ExportOptions,
  type Input,
  type ListParams,
  type RequestOptions,
  type ToggleChange,
} from '@mizan/sdk';
import {
  AUDIT_ROUTES,
  DOCUMENT_ROUTES,
  documentTemplates,
  OPTIONS_ROUTES,
  type DocumentPreviewBody,
  type DocumentRecordKind,
  type GenerateBatchBody,
  type GenerateDocumentBody,
  type AuditItem,
  type Entity,
  type Fields,
  type Page,
  type RefOption,
} from '@mizan/contracts';
import type { EntityRow } from './fields/types';

export { entityKeys, useEntityChannel, http, fetchFile, notify, isApiError, wsClient } from '@mizan/sdk';
// The multipart body as the SDK builds it: its part order gives each file's place in the upload.
export { newIdempotencyKey, toFormData } from '@mizan/sdk';

/** The SDK's data provider bound to one definition, as the generic screens call it. */
export interface BoundEntityApi {
  list: (params?: ListParams, options?: RequestOptions) => Promise<Page<EntityRow>>;
  get: (id: number, options?: RequestOptions) => Promise<EntityRow>;
  create: (input: Record<string, unknown>, options?: RequestOptions) => Promise<EntityRow>;
  update: (id: number, input: Record<string, unknown>, options?: RequestOptions) => Promise<EntityRow>;
  /** Deletes at the version read (`updatedAt`): 409 when someone changed the row since. */
  remove: (id: number, updatedAt?: unknown) => Promise<unknown>;
  setStatus: (id: number, status?: boolean | ToggleChange, options?: RequestOptions) => Promise<EntityRow>;
  setBaned: (id: number, baned?: boolean | ToggleChange, options?: RequestOptions) => Promise<EntityRow>;
  /**
   * Deletes one stored file through the definition's `fileDeletePath`: the owner's id where that
   * path names it (`/delete/file/:ownerId/:fileId`), null where it does not (`/files/:fileId`).
   */
  deleteFile: (ownerId: number | null, fileId: number, options?: RequestOptions) => Promise<unknown>;
  /** Every row matching the filters, all pages, with progress (exports). */
  exportAll: (params: ListParams, options: ExportOptions) => Promise<EntityRow[]>;
}

/**
 * Everything ui takes from `@mizan/sdk` goes through here: the generic screens speak to the API
 * only through the SDK's entity data provider (one HTTP client, one error toast policy).
 */
export function entityApi(entity: Entity<Fields>): BoundEntityApi {
  return {
    list: (params, options) => provider.list(entity, params, options) as Promise<Page<EntityRow>>,
    get: (id, options) => provider.get(entity, id, options) as Promise<EntityRow>,
    // The body was checked by the definition's zod schema; the generic entity has no static field types.
    create: (input, options) =>
      provider.create(entity, input as Input<Entity<Fields>>, options) as Promise<EntityRow>,
    update: (id, input, options) =>
      provider.update(entity, id, input as Input<Entity<Fields>>, options) as Promise<EntityRow>,
    remove: (id, updatedAt) =>
      provider.remove(entity, id, undefined, typeof updatedAt === 'string' ? updatedAt : undefined),
    setStatus: (id, status, options) => provider.setStatus(entity, id, status, options) as Promise<EntityRow>,
    setBaned: (id, baned, options) => provider.setBaned(entity, id, baned, options) as Promise<EntityRow>,
    deleteFile: (ownerId, fileId, options) => provider.deleteFile(entity, ownerId, fileId, options),
    exportAll: (params, options) => provider.exportAll(entity, params, options) as Promise<EntityRow[]>,
  };
}

/**
 * One record's audit entries, newest first (`GET …/system/audit?entity=&entityId=`): readable
 * with `audit.view` or the entity's `view` permission.
 */
export function recordHistory(
  entityName: string,
  entityId: number,
  page: { page: number; pageSize: number },
  options?: RequestOptions,
): Promise<Page<AuditItem>> {
  return api.call(
    AUDIT_ROUTES.list,
    { query: { entity: entityName, entityId, sort: 'createdAt:desc', ...page } },
    options,
  );
}

/**
 * What a reference field may point at (`GET /api/options/<entity>/<field>`, api/options.ts):
 * `q` searches, `ids` names values already chosen, other keys filter the referenced list.
 */
export async function referenceOptions(
  entity: string,
  field: string,
  params: Record<string, string | number | boolean>,
  options?: RequestOptions,
): Promise<RefOption[]> {
  return (await api.call(OPTIONS_ROUTES.list, { params: { entity, field }, query: params }, options)).items;
}

/** The signed-in user's permission check, `can('courts.update')`. */
export function useCan(): (permission: string) => boolean {
  return useAuth().can;
}

/** The templates that fill from a record kind (`documentTemplates` whose `record` is it), active ones. */
export async function templatesFor(kind: DocumentRecordKind): Promise<EntityRow[]> {
  const page = await provider.list(documentTemplates, {
    record: kind,
    status: true,
    pageSize: 100,
  } as ListParams);
  return page.items as EntityRow[];
}

/** Whether this server makes PDF documents, and why not. */
export const documentTools = () => api.call(DOCUMENT_ROUTES.tools);

/** One document from a template and a record, stored as the record's file. */
export const generateDocument = (body: GenerateDocumentBody) =>
  api.call(DOCUMENT_ROUTES.generate, { body }, { silent: true });

/** One document per record, all in one ZIP archive. */
export const generateBatch = (body: GenerateBatchBody) =>
  api.call(DOCUMENT_ROUTES.batch, { body }, { responseType: 'blob', silent: true }) as Promise<Blob>;

/** A document as PDF to look at, stored nowhere. */
export const previewDocument = (body: DocumentPreviewBody) =>
  api.call(DOCUMENT_ROUTES.preview, { body }, { responseType: 'blob', silent: true }) as Promise<Blob>;
