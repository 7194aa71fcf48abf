import {
  createSchema,
  getEntity,
  listQuerySchema,
  updateSchema,
  type Entity,
  type EventAction,
  type Fields,
  type FilesField,
  type Page,
} from '@mizan/contracts';
import { z } from 'zod';
import { writeAudit } from '../audit/audit';
import type { Bus } from '../bus';
import type { Db, Dialect } from '../db';
import type { FileStore, SavedUpload } from '../files/storage';
import { AppError, type Translatable } from '../http/errors';
import { parseOrThrow } from '../http/validation';
import { inTransaction, type ActorContext, type WriteContext } from './context';
import { adjustCount, readCount } from './counts';
import { entityHooks, type ChangeAction, type HookContext } from './hooks';
import { EntityRepository, type ListParams } from './repository';
import type { ApiRow } from './serialize';

export interface EngineDeps {
  db: Db;
  dialect: Dialect;
  bus: Bus;
  files: FileStore;
}

const toggleBody = (key: 'status' | 'baned') =>
  z
    .object({ [key]: z.boolean({ error: 'validation.types.boolean' }).optional() })
    .strip()
    .nullish();

/** Database errors that a concurrent write can still raise after the service's own checks. */
function constraintKind(error: unknown): 'unique' | 'foreignKey' | null {
  const e = error as { code?: string; message?: string };
  if (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  ) {
    return 'unique';
  }
  if (e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'foreignKey';
  return null;
}

/**
 * The standard entity pattern for one definition: list, get, create, update, delete, status and
 * ban toggles. Every write runs in one transaction with its audit entry and hooks; its event is
 * published after commit. Pass a WriteContext (from `EntityServices.transaction`) to join a
 * larger transaction (imports).
 */
export class EntityService {
  readonly repo: EntityRepository;
  private readonly schemas;

  constructor(
    readonly entity: Entity<Fields>,
    private readonly deps: EngineDeps,
  ) {
    this.repo = new EntityRepository(entity, deps.dialect);
    this.schemas = {
      create: createSchema(entity),
      update: updateSchema(entity),
      list: listQuerySchema(entity),
    };
  }

  get name(): string {
    return this.entity.name;
  }

  /** `GET /`: one page; the total comes from `entity_counts` when nothing narrows the list. */
  async list(query: unknown): Promise<Page<ApiRow>> {
    const parsed = parseOrThrow(this.schemas.list, query ?? {}, this.name) as Record<string, unknown>;
    const { page, pageSize, q, sort, ...filters } = parsed as {
      page: number;
      pageSize: number;
      q?: string;
      sort?: string;
    };
    const params: ListParams = {
      page,
      pageSize,
      q: q || undefined,
      sort,
      filters: this.checkFilters(filters),
    };
    const db = this.deps.db;
    const [rows, total] = await Promise.all([
      this.repo.page(db, params),
      this.repo.isFiltered(params) ? this.repo.count(db, params) : this.unfilteredTotal(),
    ]);
    return { items: await this.repo.expand(db, rows), total, page, pageSize };
  }

  private async unfilteredTotal(): Promise<number> {
    return (
      (await readCount(this.deps.db, this.name)) ??
      this.repo.count(this.deps.db, { page: 1, pageSize: 1, filters: {} })
    );
  }

  /** `refs` filters arrive as strings (the shared schema keeps them generic): they must be ids. */
  private checkFilters(filters: Record<string, unknown>): Record<string, unknown> {
    const errors: Record<string, Translatable[]> = {};
    const out: Record<string, unknown> = { ...filters };
    for (const [key, value] of Object.entries(filters)) {
      if (value === undefined || this.entity.fields[key]?.type !== 'refs') continue;
      const id = Number(value);
      if (!Number.isInteger(id) || id <= 0) errors[key] = [{ key: 'validation.types.integer' }];
      else out[key] = id;
    }
    if (Object.keys(errors).length) throw new AppError('validation', { entity: this.name, errors });
    return out;
  }

  async get(id: number): Promise<ApiRow> {
    const row = await this.repo.findRaw(this.deps.db, id);
    if (!row) throw new AppError('notFound');
    const [api] = await this.repo.expand(this.deps.db, [row]);
    return api!;
  }

  /** Loads one row inside a transaction (hooks, other modules). */
  async getIn(ctx: WriteContext, id: number): Promise<ApiRow | null> {
    const row = await this.repo.findRaw(ctx.trx, id);
    return row ? (await this.repo.expand(ctx.trx, [row]))[0]! : null;
  }

  /** `POST /`: validates, applies defaults, checks references and uniqueness, stores the uploads. */
  async create(actor: ActorContext, input: unknown, uploads: readonly SavedUpload[] = []): Promise<ApiRow> {
    return this.write(actor, uploads, async (ctx) => {
      // Parsed inside the write so that uploads of a refused body are removed too.
      const values = parseOrThrow(this.schemas.create, input ?? {}, this.name) as Record<string, unknown>;
      for (const [key, field] of Object.entries(this.entity.fields)) {
        if (values[key] === undefined && field.default !== undefined) values[key] = field.default;
      }
      const hookCtx = this.hookContext(ctx);
      for (const hooks of entityHooks(this.name)) await hooks.beforeCreate?.(hookCtx, values);
      await this.checkReferences(ctx, values);
      await this.checkUnique(ctx, values);
      this.checkFileCount(uploads, 0);
      const stamp = new Date().toISOString();
      const id = await this.repo.insert(ctx.trx, {
        ...this.repo.toColumns(this.nullBlanks(values)),
        created_at: stamp,
        updated_at: stamp,
      });
      for (const [key] of this.repo.refsFields()) {
        if (Array.isArray(values[key]))
          await this.repo.replaceLinks(ctx.trx, id, key, values[key] as number[]);
      }
      await this.repo.attachFiles(ctx.trx, id, uploads, ctx.user?.id ?? null);
      await adjustCount(ctx.trx, this.name, 1);
      const after = (await this.getIn(ctx, id))!;
      await this.changed(ctx, 'create', null, after);
      return after;
    });
  }

  /** `PUT /` (id in the body): a field left out keeps its value; `null` clears an optional one. */
  async update(actor: ActorContext, input: unknown, uploads: readonly SavedUpload[] = []): Promise<ApiRow> {
    return this.write(actor, uploads, async (ctx) => {
      const values = parseOrThrow(this.schemas.update, input ?? {}, this.name) as Record<string, unknown>;
      const id = values.id as number;
      delete values.id;
      const before = await this.getIn(ctx, id);
      if (!before) throw new AppError('notFound');
      const hookCtx = this.hookContext(ctx);
      for (const hooks of entityHooks(this.name)) await hooks.beforeUpdate?.(hookCtx, values, before);
      await this.checkReferences(ctx, values);
      await this.checkUnique(ctx, { ...before, ...values }, id);
      for (const [key] of this.filesFields()) {
        const existing = await this.repo.fileCount(ctx.trx, id, key);
        this.checkFileCount(
          uploads.filter((u) => u.field === key),
          existing,
        );
      }
      await this.repo.update(ctx.trx, id, {
        ...this.repo.toColumns(this.nullBlanks(values)),
        updated_at: new Date().toISOString(),
      });
      for (const [key] of this.repo.refsFields()) {
        if (Array.isArray(values[key]))
          await this.repo.replaceLinks(ctx.trx, id, key, values[key] as number[]);
      }
      await this.repo.attachFiles(ctx.trx, id, uploads, ctx.user?.id ?? null);
      const after = (await this.getIn(ctx, id))!;
      await this.changed(ctx, 'update', before, after);
      return after;
    });
  }

  /** `DELETE /:id`: refused (409) while any row still references this one. */
  async remove(actor: ActorContext, id: number): Promise<ApiRow> {
    return this.write(
      actor,
      [],
      async (ctx) => {
        const before = await this.getIn(ctx, id);
        if (!before) throw new AppError('notFound');
        const hookCtx = this.hookContext(ctx);
        for (const hooks of entityHooks(this.name)) await hooks.beforeDelete?.(hookCtx, before);
        if (await this.repo.isReferenced(ctx.trx, id)) throw new AppError('referenced');
        ctx.work.staleFiles.push(...(await this.repo.detachFiles(ctx.trx, id)));
        await this.repo.delete(ctx.trx, id);
        await adjustCount(ctx.trx, this.name, -1);
        await this.changed(ctx, 'delete', before, null);
        return before;
      },
      'delete',
    );
  }

  /** `PATCH /status/:id`: toggles, or sets `{ status }` when given. */
  async setStatus(actor: ActorContext, id: number, body?: unknown): Promise<ApiRow> {
    return this.toggle(actor, id, 'status', body);
  }

  /** `PATCH /baned/:id`: toggles, or sets `{ baned }` when given. */
  async setBaned(actor: ActorContext, id: number, body?: unknown): Promise<ApiRow> {
    return this.toggle(actor, id, 'baned', body);
  }

  private async toggle(
    actor: ActorContext,
    id: number,
    key: 'status' | 'baned',
    body: unknown,
  ): Promise<ApiRow> {
    if (!this.entity[key]) throw new AppError('notFound');
    const parsed = parseOrThrow(toggleBody(key), body ?? undefined, this.name) as
      Record<string, boolean | undefined> | null | undefined;
    return this.write(actor, [], async (ctx) => {
      const before = await this.getIn(ctx, id);
      if (!before) throw new AppError('notFound');
      const value = parsed?.[key] ?? !before[key];
      await this.repo.update(ctx.trx, id, { [key]: value, updated_at: new Date().toISOString() });
      const after = (await this.getIn(ctx, id))!;
      await this.changed(ctx, key, before, after);
      return after;
    });
  }

  /** Deletes one attached file (`fileDeletePath`); the disk file goes after commit. */
  async removeFile(actor: ActorContext, ownerId: number, fileId: number): Promise<ApiRow> {
    return this.write(actor, [], async (ctx) => {
      const before = await this.getIn(ctx, ownerId);
      if (!before || !(await this.repo.findFile(ctx.trx, ownerId, fileId))) throw new AppError('notFound');
      ctx.work.staleFiles.push(...(await this.repo.detachFiles(ctx.trx, ownerId, fileId)));
      await this.repo.update(ctx.trx, ownerId, { updated_at: new Date().toISOString() });
      const after = (await this.getIn(ctx, ownerId))!;
      await this.changed(ctx, 'update', before, after, 'fileDelete');
      return after;
    });
  }

  private filesFields(): [string, FilesField][] {
    return Object.entries(this.entity.fields).filter((e): e is [string, FilesField] => e[1].type === 'files');
  }

  private checkFileCount(uploads: readonly SavedUpload[], existing: number): void {
    for (const [key, field] of this.filesFields()) {
      const added = uploads.filter((u) => u.field === key).length;
      if (added && existing + added > field.maxCount) {
        throw new AppError('validation', {
          entity: this.name,
          errors: { [key]: [{ key: 'http.tooManyFiles', params: { max: field.maxCount } }] },
        });
      }
    }
  }

  /** Optional text left blank is stored as NULL, so "no value" has one representation. */
  private nullBlanks(values: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) out[key] = value === '' ? null : value;
    return out;
  }

  private async checkReferences(ctx: WriteContext, values: Record<string, unknown>): Promise<void> {
    const errors: Record<string, Translatable[]> = {};
    for (const [key, field] of Object.entries(this.entity.fields)) {
      const value = values[key];
      if (field.type === 'ref' && typeof value === 'number') {
        if ((await this.repo.missingIds(ctx.trx, field.entity, [value])).length)
          errors[key] = [{ key: 'http.referenceMissing' }];
      } else if (field.type === 'refs' && Array.isArray(value) && value.length) {
        if ((await this.repo.missingIds(ctx.trx, field.entity, value as number[])).length) {
          errors[key] = [{ key: 'http.referenceMissing' }];
        }
      }
    }
    if (Object.keys(errors).length) throw new AppError('validation', { entity: this.name, errors });
  }

  private async checkUnique(
    ctx: WriteContext,
    values: Record<string, unknown>,
    exceptId?: number,
  ): Promise<void> {
    const errors: Record<string, Translatable[]> = {};
    for (const [key, field] of Object.entries(this.entity.fields)) {
      const value = values[key];
      if (!field.unique || value === null || value === undefined || value === '') continue;
      if ((await this.repo.findDuplicate(ctx.trx, values, [key], exceptId)) !== null)
        errors[key] = [{ key: 'http.unique' }];
    }
    for (const group of this.entity.uniqueTogether ?? []) {
      if (group.some((key) => values[key] === null || values[key] === undefined)) continue;
      if ((await this.repo.findDuplicate(ctx.trx, values, group, exceptId)) !== null) {
        errors[group[0]!] ??= [{ key: 'http.uniqueTogether' }];
      }
    }
    if (Object.keys(errors).length) throw new AppError('unique', { entity: this.name, errors });
  }

  private hookContext(ctx: WriteContext): HookContext {
    return { ...ctx, entity: this.entity };
  }

  /** Hooks, audit entry and the event to publish after commit. */
  private async changed(
    ctx: WriteContext,
    action: ChangeAction,
    before: ApiRow | null,
    after: ApiRow | null,
    auditAction: string = action,
  ): Promise<void> {
    const hookCtx = this.hookContext(ctx);
    for (const hooks of entityHooks(this.name)) await hooks.afterChange?.(hookCtx, { action, before, after });
    const row = (after ?? before)!;
    await writeAudit(ctx.trx, {
      employeeId: ctx.user?.id ?? null,
      entity: this.name,
      entityId: row.id,
      action: auditAction,
      before,
      after,
      ip: ctx.ip ?? ctx.request?.ip ?? null,
    });
    const eventAction: EventAction = action === 'baned' ? 'update' : action;
    ctx.work.events.push({
      channel: this.name,
      message: { type: 'event', channel: this.name, action: eventAction, data: row },
    });
  }

  /** Runs a write in its own transaction (or the caller's) and turns late constraint errors into 409/422. */
  private async write<T>(
    actor: ActorContext,
    uploads: readonly SavedUpload[],
    fn: (ctx: WriteContext) => Promise<T>,
    kind: 'write' | 'delete' = 'write',
  ): Promise<T> {
    try {
      return await inTransaction(this.deps, actor, async (ctx) => {
        ctx.work.newFiles.push(...uploads.map((u) => u.storedName));
        return fn(ctx);
      });
    } catch (error) {
      // Uploads never attached to a committed row must not stay on disk (the caller's own
      // transaction removes them itself when it fails).
      if (!('work' in actor)) await Promise.all(uploads.map((u) => this.deps.files.remove(u.storedName)));
      const constraint = constraintKind(error);
      if (constraint === 'unique') throw new AppError('unique', { cause: error });
      if (constraint === 'foreignKey')
        throw new AppError(kind === 'delete' ? 'referenced' : 'validation', { cause: error });
      throw error;
    }
  }
}

/**
 * The service of every registry entity, for route handlers and other modules.
 *
 * @example
 * const courts = app.entities.get('courts');
 * await app.entities.transaction({ user, ip }, async (ctx) => { await courts.create(ctx, row); });
 */
export class EntityServices {
  private readonly services = new Map<string, EntityService>();

  constructor(
    entities: readonly Entity<Fields>[],
    private readonly deps: EngineDeps,
  ) {
    for (const entity of entities) this.services.set(entity.name, new EntityService(entity, deps));
  }

  get(name: string): EntityService {
    const service = this.services.get(name);
    if (!service) throw new Error(`No entity service for "${name}" (${getEntity(name).name} is not served)`);
    return service;
  }

  all(): EntityService[] {
    return [...this.services.values()];
  }

  /** One transaction for several writes; events are published and files cleaned once it commits. */
  transaction<T>(actor: ActorContext, fn: (ctx: WriteContext) => Promise<T>): Promise<T> {
    return inTransaction(this.deps, actor, fn);
  }
}
