import {
  DEFAULT_TIME_ZONE,
  displayKey,
  filterableFields,
  listQuerySchema,
  OPTIONS_LIMIT,
  type Entity,
  type Fields,
  type Page,
  type RefOption,
} from '@mizan/contracts';
import { ACCOUNT_ENTITIES } from '../auth/accountCache';
import type { Bus } from '../bus';
import type { Db, Dialect } from '../db';
import { readStamp, stampOf } from '../db/counts';
import { StampedCache } from '../db/stampedCache';
import type { FileStore } from '../files/storage';
import { AppError, type Translatable } from '../http/errors';
import { unchanging } from '../http/headers';
import { parseOrThrow } from '../http/validation';
import { present } from '../http/values';
import type { ActorContext, WriteContext } from './context';
import {
  HookRegistry,
  type EntityHooks,
  type ListFilterValue,
  type ReadContext,
  type ScopeWhere,
} from './hooks';
import { EntityRepository, type ListParams } from './repository';
import { officeToday } from './today';
import type { ApiRow } from './serialize';

export interface EngineDeps {
  db: Db;
  dialect: Dialect;
  bus: Bus;
  files: FileStore;
  /** The office's time zone (IANA), read when a declared list filter needs "today" (default Africa/Cairo). */
  timeZone?: () => Promise<string>;
  /** The current instant (tests set it; default the system clock). */
  clock?: () => Date;
  /**
   * Whole list answers as sent (see `EntityService.listJson`), shared by the app's services; none:
   * every list is read from the rows.
   */
  answers?: StampedCache<string, Buffer>;
}

/** A list answer is about 10 KB; 16 MB of them at most, whatever their number. */
export const listAnswerCache = () =>
  new StampedCache<string, Buffer>({ maxEntries: 5000, maxWeight: 16 << 20, weigh: (body) => body.length });

/** A list query as the definition's list schema checked it. */
type ParsedList = Readonly<
  { page: number; pageSize: number; q?: string; sort?: string } & Record<string, unknown>
>;

/** What a kept list answer is read from (see `answerDependsOn`). */
interface AnswerSources {
  entities: readonly string[];
  perUser: boolean;
}

export const missingListFilter = (entity: string, filter: string) =>
  `${entity} declares the list filter "${filter}" but no module gives its condition: add it with ` +
  `app.entities.hooks('${entity}', { listFilters: { ${filter}: (value, { eb, table, today }) => … } })`;

/**
 * The reading half of an entity's service: lists (keyset pages, cached totals, whole answers kept
 * by write version), option pickers and single rows, each under the reader's `scope` and with the
 * `expand` hooks' computed fields. `EntityService` (writer.ts) adds the writes on top of it.
 */
export class EntityReader {
  readonly repo: EntityRepository;

  constructor(
    readonly entity: Entity<Fields>,
    protected readonly deps: EngineDeps,
    protected readonly registry: HookRegistry = new HookRegistry(),
  ) {
    this.repo = new EntityRepository(entity, deps.dialect);
  }

  get name(): string {
    return this.entity.name;
  }

  protected get hooks(): readonly EntityHooks[] {
    return this.registry.of(this.name);
  }

  /**
   * `GET /`: one page; the total comes from `entity_counts` when nothing narrows the list, and
   * otherwise from the list cache while no write has happened since it was counted.
   */
  async list(query: unknown, actor?: ActorContext): Promise<Page<ApiRow>> {
    return this.listParsed(this.parseList(query), actor);
  }

  /**
   * `GET /` as the bytes the route sends, `serialize`d from `list`'s page. An answer whose sources
   * are known (`answerDependsOn`) is kept with the write versions of this entity, of every entity
   * it names and of what its hooks read, read before its rows: while none of them has been
   * written, on any instance, the same query is answered with the same bytes.
   */
  async listJson(
    query: unknown,
    actor: ActorContext | undefined,
    serialize: (page: Page<ApiRow>) => string,
  ): Promise<string | Buffer> {
    const { parsed, text } = this.parseQueryString(query);
    const { answers, db } = this.deps;
    const depends = answers ? this.answerDependsOn(parsed) : null;
    if (!depends) return serialize(await this.listParsed(parsed, actor));
    const read = actor?.versions
      ? stampOf(actor.versions, depends.entities)
      : await readStamp(db, depends.entities);
    if (read.stamp === null) return serialize(await this.listParsed(parsed, actor, read));
    const stamp = read.stamp;
    const reader = depends.perUser ? (actor?.user?.id ?? 0) : '';
    const key = `${this.name}\n${reader}\n${text}`;
    const kept = answers!.get(key, stamp);
    if (kept) return kept;
    // Requests for an answer being read wait for that one read (fifty people opening one list).
    const flight = `${key}\n${stamp}`;
    let reading = this.reading.get(flight);
    if (!reading) {
      reading = this.listParsed(parsed, actor, read).then((page) =>
        answers!.set(key, stamp, unchanging(Buffer.from(serialize(page)))),
      );
      this.reading.set(flight, reading);
      const done = () => void this.reading.delete(flight);
      reading.then(done, done);
    }
    return reading;
  }

  /** List answers being read, by query and stamp (see `listJson`). */
  private readonly reading = new Map<string, Promise<Buffer>>();

  /**
   * What a list answer is read from and whose it is, when it can be kept: the entities of the rows,
   * of the titles and links it names and of what hooks declare they read (`reads`), and the reader
   * when a hook answers per user. Null when it cannot: a hook that reads what it does not declare,
   * a declared filter (its conditions may read the day), files (their table has no write version).
   */
  private answerDependsOn(parsed: ParsedList): AnswerSources | null {
    if (Object.keys(this.entity.listFilters ?? {}).some((key) => parsed[key] !== undefined)) return null;
    // Worked out again only when hooks were added or removed (the registry gives a new array then).
    const hooks = this.hooks;
    if (this.sources?.hooks !== hooks) this.sources = { hooks, of: this.answerSources(hooks) };
    return this.sources.of;
  }

  private sources?: { hooks: readonly EntityHooks[]; of: AnswerSources | null };

  private answerSources(all: readonly EntityHooks[]): AnswerSources | null {
    const hooks = all.filter((h) => h.scope || h.expand);
    if (hooks.some((h) => !h.reads)) return null;
    const fields = Object.values(this.entity.fields);
    if (fields.some((field) => field.type === 'files')) return null;
    const perUser = hooks.some((h) => h.reads!.perUser);
    const entities = new Set([
      this.name,
      ...fields.flatMap((field) => (field.type === 'ref' || field.type === 'refs' ? [field.entity] : [])),
      ...hooks.flatMap((h) => h.reads!.entities),
      // An answer per user holds what the account allowed when it was read.
      ...(perUser ? ACCOUNT_ENTITIES : []),
    ]);
    return { entities: [...entities], perUser };
  }

  /**
   * A query string's list query checked, with its text (the kept answer's key): people ask the
   * same few queries again and again, and checking one costs more than answering it from a kept
   * answer. Only for queries as the HTTP route parses them (strings and arrays of strings), whose
   * JSON text says all of them.
   */
  private parseQueryString(query: unknown): { parsed: ParsedList; text: string } {
    const raw = JSON.stringify(query ?? {});
    const kept = this.checkedQueries.get(raw, '');
    if (kept) return kept;
    const parsed = Object.freeze(this.parseList(query));
    return this.checkedQueries.set(raw, '', { parsed, text: JSON.stringify(parsed) });
  }

  private readonly checkedQueries = new StampedCache<string, { parsed: ParsedList; text: string }>({
    maxEntries: 500,
  });

  private parseList(query: unknown): ParsedList {
    return parseOrThrow(listQuerySchema(this.entity), query ?? {}, this.name) as ParsedList;
  }

  /**
   * One page of a checked list query. `stamped`: the write versions read for it already (a superset
   * of `dependsOn`'s), otherwise read here.
   */
  private async listParsed(
    parsed: ParsedList,
    actor: ActorContext | undefined,
    stamped?: Awaited<ReturnType<typeof readStamp>>,
  ): Promise<Page<ApiRow>> {
    const { page, pageSize, q, sort, ...filters } = parsed;
    const db = this.deps.db;
    const read = this.readContext(db, actor);
    const declared = this.entity.listFilters ?? {};
    const fieldFilters = Object.fromEntries(Object.entries(filters).filter(([key]) => !(key in declared)));
    const params: ListParams = {
      page,
      pageSize,
      q: q || undefined,
      sort,
      filters: this.checkFilters(fieldFilters),
      where: [...this.scopeOf(read), ...(await this.listFilterConditions(filters))],
    };
    // Read before the rows: totals and page boundaries learnt at this stamp stay exact while it holds.
    const { stamp, totals } = stamped ?? (await readStamp(db, this.repo.dependsOn(params)));
    const [rows, total] = await Promise.all([
      this.repo.page(db, params, stamp),
      this.repo.isFiltered(params)
        ? this.repo.count(db, params, stamp)
        : (totals.get(this.name) ?? this.repo.count(db, { page: 1, pageSize: 1, filters: {} })),
    ]);
    const items = await this.present(read, await this.repo.expand(db, rows, actor?.versions));
    return { items, total, page, pageSize };
  }

  /**
   * Declared list filters in the query (`?expiresWithin=30`), as conditions from the module's
   * `listFilters` hooks; page and total use the same ones.
   */
  private async listFilterConditions(query: Record<string, unknown>): Promise<ScopeWhere[]> {
    const keys = Object.keys(this.entity.listFilters ?? {}).filter((key) => query[key] !== undefined);
    if (!keys.length) return [];
    // The office's day, read per request: a saved time zone applies at once, on every instance.
    const timeZone = (await this.deps.timeZone?.()) ?? DEFAULT_TIME_ZONE;
    const { today, daysFromToday } = officeToday(timeZone, this.deps.clock?.() ?? new Date());
    return keys.flatMap((key) => {
      const value = query[key];
      const condition = this.registry.listFilter(this.name, key);
      if (!condition) throw new Error(missingListFilter(this.name, key));
      return [(eb, table) => condition(value as ListFilterValue, { eb, table, today, daysFromToday })];
    });
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

  /**
   * What a reference picker offers from this entity (api/options.ts): with `ids`, those rows
   * (labels of values already chosen); otherwise the first `OPTIONS_LIMIT` rows matching `q`
   * and `where`, only active and unbanned ones where the entity has those toggles, in the list's own order. Always
   * within the reader's scope; each as an id, a title and the `optionDetail` line.
   */
  async options(
    query: {
      q?: string;
      ids?: readonly number[];
      where?: readonly ScopeWhere[];
      /** Equality on this entity's `filter: true` fields, as the query string gives them. */
      filters?: Record<string, unknown>;
    },
    actor?: ActorContext,
  ): Promise<RefOption[]> {
    const db = this.deps.db;
    const filters = this.optionFilters(query.filters ?? {});
    const scope = this.scopeOf(this.readContext(db, actor));
    const raw = query.ids
      ? await this.repo.findMany(db, query.ids, scope)
      : await this.repo.page(db, {
          page: 1,
          pageSize: OPTIONS_LIMIT,
          q: query.q || undefined,
          filters: {
            ...filters,
            ...(this.entity.status ? { status: true } : {}),
            ...(this.entity.baned ? { baned: false } : {}),
          },
          where: [...scope, ...(query.where ?? [])],
        });
    const rows = await this.repo.expand(db, raw, actor?.versions);
    const titleField = this.entity.fields[this.entity.titleField];
    const text = (row: ApiRow, key: string): string | null => {
      const field = this.entity.fields[key];
      const value =
        field?.type === 'ref' ? (row[displayKey(key, field)] as { name?: unknown } | null)?.name : row[key];
      return present(value) ? String(value) : null;
    };
    return rows.map((row) => ({
      id: row.id,
      title: (titleField ? text(row, this.entity.titleField) : null) ?? String(row.id),
      detail:
        (this.entity.optionDetail ?? [])
          .map((key) => text(row, key))
          .filter((v): v is string => v !== null)
          .join(' · ') || null,
    }));
  }

  /** A picker's equality filters, checked by the list query's own schema (422 on a bad value). */
  private optionFilters(query: Record<string, unknown>): Record<string, unknown> {
    // The field filters its list takes (not `status`/`baned`: a picker offers active rows).
    const filterable = new Set(filterableFields(this.entity).filter((key) => key in this.entity.fields));
    const keys = Object.keys(query).filter((key) => filterable.has(key));
    if (!keys.length) return {};
    const parsed = this.parseList(Object.fromEntries(keys.map((key) => [key, query[key]])));
    return this.checkFilters(Object.fromEntries(keys.map((key) => [key, parsed[key]])));
  }

  /** `GET /:id`: 404 when the row does not exist or lies outside the actor's scope. */
  async get(id: number, actor?: ActorContext): Promise<ApiRow> {
    const read = this.readContext(this.deps.db, actor);
    const row = await this.repo.findRaw(this.deps.db, id, this.scopeOf(read));
    if (!row) throw new AppError('notFound');
    const [api] = await this.present(read, await this.repo.expand(this.deps.db, [row]));
    return api!;
  }

  /**
   * The rows of `ids` as `GET /:id` answers each one (scoped, computed fields included), in id
   * order; ids that do not exist or lie outside the actor's scope are left out. For routes that
   * answer several rows they found themselves (a hearing's postponement chain).
   */
  async getMany(ids: readonly number[], actor?: ActorContext): Promise<ApiRow[]> {
    if (!ids.length) return [];
    const read = this.readContext(this.deps.db, actor);
    const raw = await this.repo.findMany(this.deps.db, ids, this.scopeOf(read));
    return this.present(read, await this.repo.expand(this.deps.db, raw));
  }

  /** Loads one row inside a transaction (hooks, other modules), unscoped and without computed fields. */
  async getIn(ctx: WriteContext, id: number): Promise<ApiRow | null> {
    const row = await this.repo.findRaw(ctx.trx, id);
    return row ? (await this.repo.expand(ctx.trx, [row]))[0]! : null;
  }

  protected readContext(db: ReadContext['db'], actor: ActorContext | undefined): ReadContext {
    return { db, entity: this.entity, user: actor?.user ?? null, request: actor?.request };
  }

  /** The `scope` conditions for the reader; none for system work (no user). */
  protected scopeOf(read: ReadContext): ScopeWhere[] {
    const user = read.user;
    if (!user) return [];
    return this.hooks.flatMap((h) => {
      const where = h.scope?.(read, user);
      return where ? [where] : [];
    });
  }

  /** The rows as the API answers them: stored rows plus every `expand` hook's computed fields. */
  protected async present(read: ReadContext, rows: ApiRow[]): Promise<ApiRow[]> {
    let out = rows;
    if (!out.length) return out;
    for (const hooks of this.hooks) if (hooks.expand) out = await hooks.expand(read, out);
    return out;
  }
}
