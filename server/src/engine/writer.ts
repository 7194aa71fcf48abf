import {
  createSchema,
  genderOf,
  patchSchema,
  updateSchema,
  versionSchema,
  type Entity,
  type EventAction,
  type Fields,
  type FilesField,
  type RefField,
  referencesIn,
  registry,
  setByServer,
} from '@mizan/contracts';
import { z } from 'zod';
import { writeAudit, writeAuditMany, type AuditEntry } from '../audit/audit';
import { columnName } from '../db/migrations';
import { adjustCount } from '../db/counts';
import type { SavedUpload } from '../files/storage';
import { AppError, type Translatable } from '../http/errors';
import { parseOrThrow, zodFieldErrors } from '../http/validation';
import type { Db } from '../db';
import { present } from '../http/values';
import { inTransaction, isWriteContext, type ActorContext, type Trx, type WriteContext } from './context';
import { HookRegistry, type ChangeAction, type HookContext, type ReadContext } from './hooks';
import { EntityReader, type EngineDeps } from './reader';
import {
  chunks,
  missingFrom,
  missingIds,
  titlesOf,
  uniqueGroups,
  uniqueKey,
  type Links,
  type Titles,
} from './repository';
import { referencedError } from './referenced';
import { searchColumns } from './search';
import type { ApiRow, DbRow } from './serialize';

/** Options of `createMany`. */
export interface CreateManyOptions {
  /** Audit verb of every row (default `create`; the importer writes `import`). */
  auditAction?: string;
  /**
   * `each` (default): one `create` event per row. `summary`: one `create` event carrying
   * `{ imported: n }` for the whole batch, so list screens refetch once instead of once per row.
   */
  events?: 'each' | 'summary';
}

const toggleBody = (key: 'status' | 'baned') =>
  z
    .object({
      [key]: z.boolean({ error: 'validation.types.boolean' }).optional(),
      updatedAt: versionSchema,
    })
    .strip()
    .nullish();

const actionVersion = z.object({ updatedAt: versionSchema }).loose();

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
 * The next `updated_at` of a row: now, or 1 ms after the previous stamp when the clock has not
 * moved on (two writes within one millisecond must still be two versions).
 */
function nextStamp(previous?: string): string {
  const now = Date.now();
  const last = previous ? Date.parse(previous) : Number.NaN;
  return new Date(Number.isFinite(last) && now <= last ? last + 1 : now).toISOString();
}

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);

/** Whether a value sent is the one held (absent and null alike; lists and dates by their JSON). */
const sameValue = (sent: unknown, held: unknown) =>
  JSON.stringify(sent ?? null) === JSON.stringify(held ?? null);

/**
 * The engine's reference check for a route's own input (a report's client, the dashboard's
 * branch): 422 `http.referenceMissing` on `field`, naming it by `label`, when `entity` has no row
 * `id`. An entity's own `ref` fields are checked by the writer (`checkManyReferences`).
 *
 * @example await requireReference(app.db, { entity: 'branches', id: 3, field: 'branchId', label });
 */
export async function requireReference(
  db: Db | Trx,
  reference: { entity: string; id: number; field: string; label?: string },
): Promise<void> {
  if (!(await missingIds(db, reference.entity, [reference.id])).length) return;
  throw new AppError('validation', {
    errors: {
      [reference.field]: [
        {
          key: 'http.referenceMissing',
          ...(reference.label === undefined ? {} : { params: { label: reference.label } }),
        },
      ],
    },
  });
}
/**
 * The standard entity pattern for one definition: the reads of `EntityReader` (reader.ts), and
 * create, createMany, update, patch, delete, status and ban toggles and the definition's declared
 * actions. Every write runs in one transaction with its hooks, join tables, audit entry and
 * maintained count; its event is published after commit. Pass a WriteContext (from
 * `EntityServices.transaction`) to join a larger transaction (imports).
 *
 * Writes of an existing row accept the version it was read at (`updatedAt`): a stale one is
 * refused with 409 `stale` (contracts `StaleWriteError`) and changes nothing.
 */
export class EntityService extends EntityReader {
  constructor(
    entity: Entity<Fields>,
    deps: EngineDeps,
    registry: HookRegistry = new HookRegistry(),
    /** Every entity the app serves, what may still hold a row it deletes (default: the registry). */
    private readonly served?: readonly Entity<Fields>[],
    /** The service of another served entity: deletes the rows that go with one of this entity's. */
    private readonly peer: (name: string) => EntityService = () => {
      throw new Error(`Entity "${entity.name}": no other entity services to cascade a delete to`);
    },
  ) {
    super(entity, deps, registry);
    this.serverFields = Object.keys(entity.fields).filter((key) => entity.fields[key]!.setBy);
  }

  /**
   * `POST /`: one row through `createMany`'s path (the same checks, hooks, audit entry and event),
   * with its uploads. Refused as a form is: 422 with the field messages (the schema's, then the
   * hooks', then missing references), 409 `unique` when a unique value is taken.
   *
   * The answer's computed fields (`expand` hooks) are read once the row is stored, outside the
   * write's transaction: on PostgreSQL the next creates wait for the rows it locked (the kept
   * totals) until it commits. Inside a caller's transaction they are read there.
   */
  async create(actor: ActorContext, input: unknown, uploads: readonly SavedUpload[] = []): Promise<ApiRow> {
    const row = await this.write(
      actor,
      uploads,
      async (ctx) => (await this.insertRows(ctx, [input], { one: true, uploads }))[0]!,
    );
    return this.presentOne(actor, row, { created: true });
  }

  /**
   * Many rows in one transaction, all or none: each validated like `create` (defaults, hooks,
   * references, uniqueness against the table and within the batch), inserted with multi-row
   * statements, one audit entry per row, the count adjusted once. Returns the stored rows in input
   * order; throws 422 with `rows: [{ index, errors }]` (index into `inputs`) when any row is invalid.
   *
   * @example
   * await app.entities.get('courts').createMany(actor, [{ name: 'A' }, { name: 'B' }]);
   */
  async createMany(
    actor: ActorContext,
    inputs: readonly unknown[],
    options: CreateManyOptions = {},
  ): Promise<ApiRow[]> {
    return this.write(actor, [], (ctx) => this.insertRows(ctx, inputs, options));
  }

  /**
   * The one way rows are created (`create` is one row of it): parse, refuse what only the server
   * sets (`setBy`), defaults, `beforeCreate` hooks, references and uniqueness (one query per field
   * or group for the whole batch), the uploads' count and `beforeFiles`; `beforeInsert`; then multi-row inserts,
   * links, files, the audit entries, per row `afterChange` and the event, and the count last.
   *
   * `one`: a single row refused as `create` always was, at the first stage that finds a problem
   * (the stage's 422, a hook's own error as thrown, 409 `unique`). Otherwise every row is checked
   * and the 422 lists each refused row's problems (`rows`).
   */
  private async insertRows(
    ctx: WriteContext,
    inputs: readonly unknown[],
    options: CreateManyOptions & { one?: boolean; uploads?: readonly SavedUpload[] },
  ): Promise<ApiRow[]> {
    const { one = false, uploads = [] } = options;
    const rowErrors = new Map<number, Record<string, Translatable[]>>();
    const fail = (index: number, field: string, message: Translatable) => {
      const errors = rowErrors.get(index) ?? {};
      (errors[field] ??= []).push(message);
      rowErrors.set(index, errors);
    };
    /** A single row stops at the stage that refused it; a batch is refused once every check ran. */
    const refuse = (kind: 'validation' | 'unique', end = false) => {
      if (!rowErrors.size || (!one && !end)) return;
      if (one) throw new AppError(kind, { entity: this.name, errors: rowErrors.get(0)! });
      throw new AppError('validation', {
        entity: this.name,
        messageKey: 'http.rowsInvalid',
        rows: [...rowErrors.entries()]
          .sort(([a], [b]) => a - b)
          .map(([index, errors]) => ({ index, errors })),
      });
    };

    const values: Record<string, unknown>[] = inputs.map((input, index) => {
      if (one) return this.parseWrite(createSchema(this.entity), input);
      const parsed = createSchema(this.entity).safeParse(input ?? {});
      if (parsed.success) return parsed.data as Record<string, unknown>;
      for (const [field, messages] of Object.entries(zodFieldErrors(parsed.error)))
        for (const m of messages) fail(index, field, m);
      return {};
    });
    values.forEach((row, index) => {
      if (rowErrors.has(index)) return;
      for (const [field, message] of this.serverFieldErrors(ctx, row, null)) fail(index, field, message);
      this.fillDefaults(row);
    });
    refuse('validation');
    // Rows refused so far stand in as `{}` below: no references, no unique values, no hooks, so
    // every other row is still checked and the 422 lists all problems at once.
    const checked = values.map((_, index) => !rowErrors.has(index));
    checked.forEach((ok, index) => {
      if (!ok) values[index] = {};
    });

    const hookCtx = this.hookContext(ctx);
    for (const [index, row] of values.entries()) {
      if (!checked[index]) continue;
      try {
        for (const hooks of this.hooks) await hooks.beforeCreate?.(hookCtx, row);
      } catch (error) {
        // A hook's field messages belong to its row; anything else stops the batch as it is.
        if (one || !(error instanceof AppError) || !error.options.errors) throw error;
        for (const [field, messages] of Object.entries(error.options.errors))
          for (const m of messages) fail(index, field, m);
      }
    }
    const titles = await this.checkManyReferences(ctx, values, fail);
    refuse('validation');
    await this.checkManyUnique(ctx, values, fail);
    refuse('unique');
    refuse('validation', true);
    if (one) {
      this.checkFileCount(uploads, 0);
      if (uploads.length)
        for (const hooks of this.hooks) await hooks.beforeFiles?.(hookCtx, uploads, values[0]!);
    }

    for (const hooks of this.hooks) await hooks.beforeInsert?.(hookCtx, values);

    const stamp = nextStamp();
    // Every row gets the same columns, so that a batch is one multi-row INSERT on both dialects.
    const columnRows = values.map((row) => this.repo.toColumns(this.nullBlanks(row)));
    const columns = new Set(columnRows.flatMap((row) => Object.keys(row)));
    const full = columnRows.map((row, i) => {
      const out: DbRow = {
        created_at: stamp,
        updated_at: stamp,
        ...searchColumns(this.entity, values[i]!),
      };
      for (const column of columns)
        out[column] =
          column in row ? row[column] : column === 'status' ? true : column === 'baned' ? false : null;
      return out;
    });
    // A new row has no links to replace: inserted only, and known without reading them back.
    // Each row's referenced ids per `refs` field, ascending and once each.
    const rowLinks = values.map(
      (row) =>
        new Map(
          this.repo
            .refsFields()
            .map(([key]): [string, number[]] => [
              key,
              Array.isArray(row[key]) ? [...new Set(row[key].map(Number))].sort((a, b) => a - b) : [],
            ]),
        ),
    );
    const stored =
      values.length === 1
        ? [await this.repo.insertOne(ctx.trx, full[0]!, rowLinks[0]!)]
        : await this.repo.insertMany(ctx.trx, full);
    const ids = stored.map((row) => Number(row.id));
    const written: Links = new Map();
    for (const [key] of this.repo.refsFields()) {
      const links = rowLinks.flatMap((refs, i) =>
        refs.get(key)!.length ? [{ owner: ids[i]!, ids: refs.get(key)! }] : [],
      );
      written.set(key, new Map(links.map(({ owner, ids: refs }) => [owner, refs])));
      // One row's went with it (`insertOne`).
      if (links.length && values.length > 1) await this.repo.insertLinks(ctx.trx, key, links);
    }
    if (one) await this.repo.attachFiles(ctx.trx, ids[0]!, uploads, ctx.user?.id ?? null);

    // The rows as the insert answered them (no trigger changes a stored row), with their links
    // and the titles the reference check read.
    const rows: ApiRow[] = [];
    for (const part of chunks(stored, 500))
      rows.push(...(await this.repo.expand(ctx.trx, part, undefined, { links: written, titles })));
    await writeAuditMany(
      ctx.trx,
      rows.map((after): AuditEntry => this.auditEntry(ctx, options.auditAction ?? 'create', null, after)),
    );
    // The audit entries, the hooks' aggregates and the row count are gathered and written at the
    // transaction's end (`db/atCommit.ts`): on PostgreSQL a total's row stays locked from its
    // write to the commit, and concurrent creates wait for it in turn. The write versions and
    // filter totals are raised at commit (deferred triggers).
    for (const after of rows) {
      for (const hooks of this.hooks)
        await hooks.afterChange?.(hookCtx, { action: 'create', before: null, after });
      if (options.events !== 'summary') this.pushEvent(ctx, 'create', after);
    }
    await adjustCount(ctx.trx, this.name, ids.length);
    if (options.events === 'summary' && rows.length) {
      ctx.work.events.push({
        channel: this.name,
        message: { type: 'event', channel: this.name, action: 'create', data: { imported: rows.length } },
      });
    }
    return rows;
  }

  /**
   * The fields only the server writes in this write (`setByServer`: a `setBy: 'create'` one on
   * update and patch only) that `values` would change: a value other than the stored one
   * (`stored`; on create the field's default, else none) is refused, one sent back unchanged is
   * dropped. The module's own writes (`serverWrite`: postponing, actions) pass.
   */
  private serverFieldErrors(
    ctx: WriteContext,
    values: Record<string, unknown>,
    stored: ApiRow | null,
  ): [string, Translatable][] {
    if (ctx.serverWrite) return [];
    const refused: [string, Translatable][] = [];
    for (const key of this.serverFields) {
      if (values[key] === undefined || !setByServer(this.entity.fields[key]!, stored ? 'update' : 'create'))
        continue;
      const current = stored ? stored[key] : this.entity.fields[key]!.default;
      if (sameValue(values[key], current)) delete values[key];
      else refused.push([key, { key: 'http.serverField.refused' }]);
    }
    return refused;
  }

  /** The definition's fields only the server writes (`setBy`). */
  private readonly serverFields: readonly string[];

  /** A write's body parsed with `schema`: 422 with every field's message, 400 when it is no object. */
  private parseWrite(schema: z.ZodType, input: unknown): Record<string, unknown> {
    return parseOrThrow(schema, input ?? {}, this.name) as Record<string, unknown>;
  }

  /** `PUT /` (id in the body): a field left out keeps its value; `null` clears an optional one. */
  async update(actor: ActorContext, input: unknown, uploads: readonly SavedUpload[] = []): Promise<ApiRow> {
    return this.write(actor, uploads, async (ctx) => {
      const values = this.parseWrite(updateSchema(this.entity), input);
      const id = values.id as number;
      delete values.id;
      return this.change(ctx, id, values, uploads);
    });
  }

  /** `PATCH /:id`: only the given fields change; the same checks, hooks, audit and event as update. */
  async patch(
    actor: ActorContext,
    id: number,
    input: unknown,
    uploads: readonly SavedUpload[] = [],
  ): Promise<ApiRow> {
    return this.write(actor, uploads, async (ctx) => {
      return this.change(ctx, id, this.parseWrite(patchSchema(this.entity), input), uploads);
    });
  }

  private async change(
    ctx: WriteContext,
    id: number,
    values: Record<string, unknown>,
    uploads: readonly SavedUpload[],
  ): Promise<ApiRow> {
    const version = values.updatedAt as string | undefined;
    delete values.updatedAt;
    const before = await this.loadForWrite(ctx, id, version);
    const refused = this.serverFieldErrors(ctx, values, before);
    if (refused.length)
      throw new AppError('validation', {
        entity: this.name,
        errors: Object.fromEntries(refused.map(([field, message]) => [field, [message]])),
      });
    const hookCtx = this.hookContext(ctx);
    for (const hooks of this.hooks) await hooks.beforeUpdate?.(hookCtx, values, before);
    for (const [key] of this.filesFields()) {
      const existing = await this.repo.fileCount(ctx.trx, id, key);
      this.checkFileCount(
        uploads.filter((u) => u.field === key),
        existing,
      );
    }
    if (uploads.length)
      for (const hooks of this.hooks) await hooks.beforeFiles?.(hookCtx, uploads, { ...before, ...values });
    const after = await this.store(ctx, before, values, version);
    await this.repo.attachFiles(ctx.trx, id, uploads, ctx.user?.id ?? null);
    const final = uploads.length ? (await this.getIn(ctx, id))! : after;
    await this.changed(ctx, 'update', before, final);
    return this.presentOne(ctx, final);
  }

  /** Checks and writes `values` over `before` with a new stamp; a concurrent newer version is 409. */
  private async store(
    ctx: WriteContext,
    before: ApiRow,
    values: Record<string, unknown>,
    version: string | undefined,
  ): Promise<ApiRow> {
    const missing: Record<string, Translatable[]> = {};
    await this.checkManyReferences(ctx, [values], (_, field, message) => (missing[field] = [message]));
    if (Object.keys(missing).length) throw new AppError('validation', { entity: this.name, errors: missing });
    await this.checkUnique(ctx, { ...before, ...values }, before.id);
    const written = await this.repo.update(
      ctx.trx,
      before.id,
      {
        ...this.repo.toColumns(this.nullBlanks(values)),
        ...searchColumns(this.entity, values, before),
        updated_at: nextStamp(before.updatedAt),
      },
      version === undefined ? undefined : before.updatedAt,
    );
    // Another transaction committed a newer version between our read and this write.
    if (!written) throw await this.stale(ctx, before.id);
    for (const [key] of this.repo.refsFields()) {
      if (Array.isArray(values[key]))
        await this.repo.replaceLinks(ctx.trx, before.id, key, values[key] as number[]);
    }
    return (await this.getIn(ctx, before.id))!;
  }

  /**
   * `DELETE /:id`: refused (409) while any row still references this one. With `version` (the
   * `updatedAt` the client read), a row changed since is not deleted: 409 `stale`, as a stale save.
   */
  async remove(actor: ActorContext, id: number, version?: string): Promise<ApiRow> {
    return this.write(
      actor,
      [],
      async (ctx) => {
        const before = await this.loadForWrite(ctx, id, version);
        const hookCtx = this.hookContext(ctx);
        for (const hooks of this.hooks) await hooks.beforeDelete?.(hookCtx, before);
        await this.deleteParts(ctx, id);
        const heldBy = await this.repo.referencedBy(ctx.trx, id, this.served);
        if (heldBy.length) throw referencedError(this.entity, before, heldBy, ctx.request);
        ctx.work.staleFiles.push(...(await this.repo.detachFiles(ctx.trx, id)));
        // A concurrent delete (or, with a version, save) committed since our read is seen here
        // (PostgreSQL re-checks the row it waited for): 404 or 409, and the count moves only once.
        const expected = version === undefined ? undefined : before.updatedAt;
        if (!(await this.repo.delete(ctx.trx, id, expected))) throw await this.stale(ctx, id);
        await adjustCount(ctx.trx, this.name, -1);
        await this.changed(ctx, 'delete', before, null);
        return before;
      },
      'delete',
    );
  }

  /**
   * Deletes, within the write, the rows that are part of row `id`: those whose reference to this
   * entity is declared `onDelete: 'cascade'`, each through its own service (hooks, audit, event, files).
   */
  private async deleteParts(ctx: WriteContext, id: number): Promise<void> {
    const parts = referencesIn(this.name, this.served ?? (registry as readonly Entity<Fields>[])).filter(
      (r) => r.type === 'ref' && (r.entity.fields[r.field] as RefField).onDelete === 'cascade',
    );
    for (const part of parts) {
      const rows = await ctx.trx
        .selectFrom(part.entity.table)
        .select('id')
        .where(columnName(part.field), '=', id)
        .orderBy('id')
        .execute();
      for (const row of rows) await this.peer(part.entity.name).remove(ctx, Number(row.id));
    }
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
      { status?: boolean; baned?: boolean; updatedAt?: string } | null | undefined;
    return this.write(actor, [], async (ctx) => {
      const before = await this.loadForWrite(ctx, id, parsed?.updatedAt);
      const value = parsed?.[key] ?? !before[key];
      const written = await this.repo.update(
        ctx.trx,
        id,
        { [key]: value, updated_at: nextStamp(before.updatedAt) },
        parsed?.updatedAt === undefined ? undefined : before.updatedAt,
      );
      if (!written) throw await this.stale(ctx, id);
      const after = (await this.getIn(ctx, id))!;
      await this.changed(ctx, key, before, after);
      return this.presentOne(ctx, after);
    });
  }

  /**
   * A declared action (`PATCH /:id/<action>` by default): parses the body with the action's
   * schema, loads the row (scoped, version-checked), runs the module's handler, stores the values
   * it returns in `set` (validated like a patch) with a new stamp, and records the action as the
   * audit verb and event. Answers the handler's `result`, else the row after the action.
   */
  async runAction(actor: ActorContext, action: string, id: number, body: unknown): Promise<unknown> {
    const definition = this.entity.actions?.[action];
    if (!definition) throw new AppError('notFound');
    const { updatedAt, ...rest } = parseOrThrow(actionVersion, body ?? {}, this.name) as Record<
      string,
      unknown
    > & { updatedAt?: string };
    const input = definition.body ? parseOrThrow(definition.body, rest, this.name) : undefined;
    const handler = this.registry.action(this.name, action);
    if (!handler)
      throw new Error(`No handler for the action "${action}" of ${this.name}: add it with hooks()`);
    const { result, after } = await this.write(actor, [], async (ctx) => {
      const before = await this.loadForWrite(ctx, id, updatedAt);
      const outcome = (await handler(this.hookContext(ctx), before, input)) ?? {};
      const set = outcome.set
        ? (parseOrThrow(patchSchema(this.entity), outcome.set, this.name) as Record<string, unknown>)
        : {};
      delete set.updatedAt;
      // Every action makes a new version, so a form opened before it is told the row moved on.
      const stored = await this.store(ctx, before, set, updatedAt);
      await this.changed(ctx, action, before, stored);
      return { result: outcome.result, after: stored };
    });
    // Like a create's, the answer's computed fields are read once the action is stored.
    return result !== undefined ? result : this.presentOne(actor, after);
  }

  /**
   * Deletes one attached file (`fileDeletePath`); the disk file goes after commit. `ownerId` null:
   * the owner is the file's own (404 when the file belongs to no row of this entity). Either way a
   * write of the owner: its scope, a new `updatedAt`, the audit entry (`fileDelete`) and event.
   */
  async removeFile(actor: ActorContext, ownerId: number | null, fileId: number): Promise<ApiRow> {
    return this.write(actor, [], async (ctx) => {
      ownerId ??= await this.repo.fileOwner(ctx.trx, fileId);
      if (ownerId === null) throw new AppError('notFound');
      const before = await this.loadForWrite(ctx, ownerId, undefined);
      if (!(await this.repo.findFile(ctx.trx, ownerId, fileId))) throw new AppError('notFound');
      ctx.work.staleFiles.push(...(await this.repo.detachFiles(ctx.trx, ownerId, fileId)));
      await this.repo.update(ctx.trx, ownerId, { updated_at: nextStamp(before.updatedAt) });
      const after = (await this.getIn(ctx, ownerId))!;
      await this.changed(ctx, 'update', before, after, 'fileDelete');
      return this.presentOne(ctx, after);
    });
  }

  /**
   * The row a write starts from: 404 when it does not exist or lies outside the actor's scope;
   * 409 `stale` when `version` (the `updatedAt` the client read) is not the stored one.
   */
  private async loadForWrite(ctx: WriteContext, id: number, version: string | undefined): Promise<ApiRow> {
    const raw = await this.repo.findRaw(ctx.trx, id, this.scopeOf(this.readContext(ctx.trx, ctx)));
    if (!raw) throw new AppError('notFound');
    const [before] = await this.repo.expand(ctx.trx, [raw]);
    if (version !== undefined && !sameInstant(version, before!.updatedAt)) throw await this.stale(ctx, id);
    return before!;
  }

  /**
   * The 409 of a stale write: the current row, and who changed it last (the audit trail's latest
   * entry); 404 when the row was deleted meanwhile (a save racing a delete).
   */
  private async stale(ctx: WriteContext, id: number): Promise<AppError> {
    const current = await this.getIn(ctx, id);
    if (!current) return new AppError('notFound');
    const latest = await ctx.trx
      .selectFrom('audit_log')
      .leftJoin('employees', 'employees.id', 'audit_log.employee_id')
      .select(['audit_log.employee_id as employeeId', 'employees.name as name', 'employees.gender as gender'])
      .where('audit_log.entity', '=', this.name)
      .where('audit_log.entity_id', '=', id)
      .orderBy('audit_log.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const changedBy =
      latest && latest.employeeId !== null && latest.employeeId !== undefined
        ? { id: Number(latest.employeeId), name: String(latest.name ?? ''), gender: genderOf(latest.gender) }
        : null;
    return new AppError('stale', {
      messageKey: 'http.stale',
      extra: { current: await this.presentOne(ctx, current), changedBy, changedAt: current.updatedAt },
    });
  }

  private fillDefaults(values: Record<string, unknown>): void {
    for (const [key, field] of Object.entries(this.entity.fields)) {
      if (values[key] === undefined && field.default !== undefined) values[key] = field.default;
    }
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

  /**
   * References of a whole batch: every row's ids of every referenced entity in one statement
   * (a lawsuit names a court, a branch, clients and lawyers), refused on each field naming a
   * missing one. Answers the titles of the rows found, which name them in the answer.
   */
  private async checkManyReferences(
    ctx: WriteContext,
    rows: readonly Record<string, unknown>[],
    fail: (index: number, field: string, message: Translatable) => void,
  ): Promise<Titles> {
    const refs = Object.entries(this.entity.fields).flatMap(([key, field]) =>
      field.type === 'ref' || field.type === 'refs'
        ? [
            {
              key,
              target: field.entity,
              idsOf: (row: Record<string, unknown>): number[] =>
                field.type === 'ref'
                  ? typeof row[key] === 'number'
                    ? [row[key] as number]
                    : []
                  : Array.isArray(row[key])
                    ? (row[key] as number[])
                    : [],
            },
          ]
        : [],
    );
    const wanted = new Map<string, number[]>();
    for (const { target, idsOf } of refs)
      wanted.set(target, [...(wanted.get(target) ?? []), ...rows.flatMap(idsOf)]);
    const titles = await titlesOf(ctx.trx, wanted, true);
    const missing = missingFrom(wanted, titles);
    for (const { key, target, idsOf } of refs) {
      const gone = new Set(missing.get(target));
      if (!gone.size) continue;
      rows.forEach((row, index) => {
        if (idsOf(row).some((id) => gone.has(id))) fail(index, key, { key: 'http.referenceMissing' });
      });
    }
    return titles;
  }

  /** Uniqueness of a whole batch: against stored rows (one query per group) and within the batch. */
  private async checkManyUnique(
    ctx: WriteContext,
    rows: readonly Record<string, unknown>[],
    fail: (index: number, field: string, message: Translatable) => void,
  ): Promise<void> {
    const taken = new Set<string>();
    for (const group of uniqueGroups(this.entity)) {
      const message = { key: group.length > 1 ? 'http.uniqueTogether' : 'http.unique' };
      const existing = await this.repo.existingKeys(ctx.trx, group, rows);
      const seen = new Set<string>();
      rows.forEach((row, index) => {
        const key = uniqueKey(row, group);
        if (key === null) return;
        // One message per field: a group's own field already taken says enough.
        if ((existing.has(key) || seen.has(key)) && !taken.has(`${index}:${group[0]}`)) {
          taken.add(`${index}:${group[0]}`);
          fail(index, group[0]!, message);
        }
        seen.add(key);
      });
    }
  }

  private async checkUnique(
    ctx: WriteContext,
    values: Record<string, unknown>,
    exceptId?: number,
  ): Promise<void> {
    const errors: Record<string, Translatable[]> = {};
    for (const [key, field] of Object.entries(this.entity.fields)) {
      const value = values[key];
      if (!field.unique || !present(value)) continue;
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

  /** `row` as the API answers it, read in the actor's transaction when it has one. */
  private async presentOne(
    actor: ActorContext,
    row: ApiRow,
    options: Pick<ReadContext, 'created'> = {},
  ): Promise<ApiRow> {
    const db = isWriteContext(actor) ? actor.trx : this.deps.db;
    return (await this.present({ ...this.readContext(db, actor), ...options }, [row]))[0]!;
  }

  private auditEntry(
    ctx: WriteContext,
    action: string,
    before: ApiRow | null,
    after: ApiRow | null,
  ): AuditEntry {
    return {
      employeeId: ctx.user?.id ?? null,
      entity: this.name,
      entityId: (after ?? before)!.id,
      action,
      before,
      after,
      ip: ctx.ip ?? ctx.request?.ip ?? null,
    };
  }

  private pushEvent(ctx: WriteContext, action: ChangeAction, row: ApiRow): void {
    // A ban is an update to list screens; every other verb (declared actions too) is sent as it is.
    const eventAction: EventAction = action === 'baned' ? 'update' : action;
    ctx.work.events.push({
      channel: this.name,
      message: { type: 'event', channel: this.name, action: eventAction, data: row },
    });
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
    for (const hooks of this.hooks) await hooks.afterChange?.(hookCtx, { action, before, after });
    await writeAudit(ctx.trx, this.auditEntry(ctx, auditAction, before, after));
    this.pushEvent(ctx, action, (after ?? before)!);
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
