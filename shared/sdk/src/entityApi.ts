import { MAX_PAGE_SIZE, pathOf, VERSION_FIELD } from '@mizan/contracts/light';
import { LIGHT_FILE_ROUTES } from '@mizan/contracts/lightRoutes';
import type { Entity, EntityInput, EntityRecord, Fields, Page } from '@mizan/contracts';
import { api, type RequestOptions } from './http';

/** List query of the API (docs/architecture.md): paging, `sort=field:asc|desc`, `q`, and per-field filters. */
export interface ListParams {
  page?: number;
  pageSize?: number;
  sort?: string;
  q?: string;
  [filter: string]: string | number | boolean | null | undefined;
}

type AnyEntity = Entity<Fields>;
/** A row of an entity as the API returns it (plus the display joins `foo: {id, name}`). */
export type Row<E extends AnyEntity> = EntityRecord<E> & Record<string, unknown>;
/**
 * A create/update body: the definition's fields; a `files` field may hold new `File`/`Blob`s
 * (sent as multipart parts) next to already stored files (ignored: they are on the server).
 */
export type Input<E extends AnyEntity> = Partial<Omit<EntityInput<E>, FilesKeys<E>>> & {
  [K in FilesKeys<E>]?: readonly unknown[];
} & Record<string, unknown>;
type FilesKeys<E extends AnyEntity> = {
  [K in keyof E['fields']]: E['fields'][K] extends { type: 'files' } ? K : never;
}[keyof E['fields']] &
  string;

const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;

/** Query params without empty filters (an empty select or search box means "no filter"). */
export function cleanParams(params: ListParams = {}): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = value;
  }
  return out;
}

function filesOf(entity: AnyEntity): string[] {
  return Object.entries(entity.fields)
    .filter(([, field]) => field.type === 'files')
    .map(([key]) => key);
}

/** Whether a body must go as multipart: it carries at least one new file. */
export function hasNewFiles(entity: AnyEntity, input: Record<string, unknown>): boolean {
  return filesOf(entity).some((key) => {
    const value = input[key];
    return Array.isArray(value) && value.some(isBlob);
  });
}

/**
 * Multipart body per the cross-team contract: plain fields as form fields (numbers and booleans
 * as text, null as an empty value), arrays as repeated keys, new files as parts named after the
 * files field; stored files are left out (already on the server).
 */
export function toFormData(entity: AnyEntity, input: Record<string, unknown>): FormData {
  const form = new FormData();
  const files = new Set(filesOf(entity));
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (files.has(key)) {
      for (const item of Array.isArray(value) ? value : []) {
        if (isBlob(item)) form.append(key, item, item instanceof File ? item.name : key);
      }
      continue;
    }
    if (Array.isArray(value)) for (const item of value) form.append(key, String(item));
    else if (value === null) form.append(key, '');
    else if (typeof value === 'object') form.append(key, JSON.stringify(value));
    else form.append(key, String(value));
  }
  return form;
}

/** JSON body: files fields dropped (they travel only as multipart parts). */
function toJson(entity: AnyEntity, input: Record<string, unknown>): Record<string, unknown> {
  const files = new Set(filesOf(entity));
  return Object.fromEntries(
    Object.entries(input).filter(([key, value]) => !files.has(key) && value !== undefined),
  );
}

function body(entity: AnyEntity, input: Record<string, unknown>): FormData | Record<string, unknown> {
  return hasNewFiles(entity, input) ? toFormData(entity, input) : toJson(entity, input);
}

/**
 * A status or ban switch sent with the version the row was read at (`updatedAt`), so a row
 * changed since answers 409 `stale` instead of being switched blindly. `value` left out flips it.
 */
export interface ToggleChange {
  value?: boolean;
  updatedAt?: string;
}

function toggleBody(key: 'status' | 'baned', change: boolean | ToggleChange | undefined) {
  if (change === undefined) return {};
  if (typeof change === 'boolean') return { [key]: change };
  return {
    ...(change.value === undefined ? {} : { [key]: change.value }),
    ...(change.updatedAt === undefined ? {} : { [VERSION_FIELD]: change.updatedAt }),
  };
}

export interface ExportOptions {
  /** Called after each page with rows loaded so far and the total. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * The data provider over the one HTTP client, for any entity definition (the routes of the
 * standard entity pattern). Every method rejects with `ApiError`; pass `{ silent: true }` in
 * `options` to handle the error without the toast.
 *
 * @example const page = await entityApi.list(courts, { page: 1, pageSize: 20, sort: 'name:asc' });
 */
export const entityApi = {
  list<E extends AnyEntity>(entity: E, params?: ListParams, options?: RequestOptions): Promise<Page<Row<E>>> {
    return api.get<Page<Row<E>>>(entity.path, { ...options, params: cleanParams(params) });
  },

  get<E extends AnyEntity>(entity: E, id: number, options?: RequestOptions): Promise<Row<E>> {
    return api.get<Row<E>>(`${entity.path}/${id}`, options);
  },

  create<E extends AnyEntity>(entity: E, input: Input<E>, options?: RequestOptions): Promise<Row<E>> {
    return api.post<Row<E>>(entity.path, body(entity, input), options);
  },

  /** `PUT /` with the id in the body. */
  update<E extends AnyEntity>(
    entity: E,
    id: number,
    input: Input<E>,
    options?: RequestOptions,
  ): Promise<Row<E>> {
    return api.put<Row<E>>(entity.path, body(entity, { ...input, id }), options);
  },

  /**
   * `DELETE /:id`; with `updatedAt` (the version the screen shows), a row changed since is not
   * deleted: 409 `stale`, as a stale save.
   */
  remove(entity: AnyEntity, id: number, options?: RequestOptions, updatedAt?: string): Promise<unknown> {
    const version = updatedAt ? `?updatedAt=${encodeURIComponent(updatedAt)}` : '';
    return api.delete(`${entity.path}/${id}${version}`, options);
  },

  /** Toggles the status, or sets it when `status` is given. */
  setStatus<E extends AnyEntity>(
    entity: E,
    id: number,
    status?: boolean | ToggleChange,
    options?: RequestOptions,
  ): Promise<Row<E>> {
    return api.patch<Row<E>>(`${entity.path}/status/${id}`, toggleBody('status', status), options);
  },

  /** Toggles the ban (roles, employees), or sets it when `baned` is given. */
  setBaned<E extends AnyEntity>(
    entity: E,
    id: number,
    baned?: boolean | ToggleChange,
    options?: RequestOptions,
  ): Promise<Row<E>> {
    if (!entity.baned) return Promise.reject(new Error(`${entity.name} has no ban toggle`));
    return api.patch<Row<E>>(`${entity.path}/baned/${id}`, toggleBody('baned', baned), options);
  },

  /**
   * Deletes one stored file of a row through the entity's `fileDeletePath`. The owner's id is
   * needed only when that path names it (`/delete/file/:ownerId/:fileId`); for `/files/:fileId`
   * pass null (the server finds the owner from the file).
   *
   * @example
   * await entityApi.deleteFile(employees, 7, 12); // DELETE …/delete/file/7/12
   * await entityApi.deleteFile(procurations, null, 12); // DELETE …/files/12
   */
  deleteFile(
    entity: AnyEntity,
    ownerId: number | null | undefined,
    fileId: number,
    options?: RequestOptions,
  ): Promise<unknown> {
    if (!entity.fileDeletePath) return Promise.reject(new Error(`${entity.name} has no file deletion route`));
    const withOwner = entity.fileDeletePath.includes(':ownerId');
    if (withOwner && (ownerId === null || ownerId === undefined))
      return Promise.reject(new Error(`${entity.name}: deleting a file needs the owner's id`));
    const path = entity.fileDeletePath
      .replace(':ownerId', String(ownerId))
      .replace(':fileId', String(fileId));
    return api.delete(`${entity.path}${path}`, options);
  },

  /** `POST /import` with one CSV/XLSX file (importable entities). */
  importFile<T = unknown>(entity: AnyEntity, file: Blob, options?: RequestOptions): Promise<T> {
    if (!entity.importable) return Promise.reject(new Error(`${entity.name} is not importable`));
    const form = new FormData();
    form.append('file', file, file instanceof File ? file.name : 'import');
    return api.post<T>(`${entity.path}/import`, form, options);
  },

  /**
   * Every row matching the filters, page by page (100 a page), for export. Stops at `total` or
   * at an empty page; `signal` cancels between pages.
   */
  async exportAll<E extends AnyEntity>(
    entity: E,
    params: ListParams = {},
    { onProgress, signal }: ExportOptions = {},
  ): Promise<Row<E>[]> {
    const rows: Row<E>[] = [];
    for (let page = 1; ; page++) {
      signal?.throwIfAborted();
      const result = await entityApi.list(entity, { ...params, page, pageSize: MAX_PAGE_SIZE }, { signal });
      rows.push(...result.items);
      onProgress?.(rows.length, result.total);
      if (result.items.length === 0 || rows.length >= result.total) return rows;
    }
  },
};

/** A stored file's content (authorised download through `GET /api/files/:id`). */
export function fetchFile(id: number, options?: RequestOptions): Promise<Blob> {
  return api.get<Blob>(pathOf(LIGHT_FILE_ROUTES.download.path, { id }), { ...options, responseType: 'blob' });
}
