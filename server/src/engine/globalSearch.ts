import type { FastifyInstance } from 'fastify';
import {
  GLOBAL_SEARCH_LIMIT,
  SEARCH_ROUTES,
  permissionKey,
  type GlobalSearchGroup,
  type GlobalSearchHit,
  type GlobalSearchKind,
  type GlobalSearchResult,
} from '@mizan/contracts';
import type { Db } from '../db';
import { defineRoute } from '../http/route';
import { present } from '../http/values';
import { actorOf, type ActorContext } from './context';
import type { ApiRow } from './serialize';
import type { EntityServices } from './service';

/**
 * The header's global search (contracts api/search.ts): each kind's own list with its folded `q`
 * (trigram index, cached total, the reader's scope), so the box finds what each list would.
 */

type Display = { name?: string | null } | null | undefined;
const nameOf = (value: unknown) => (value as Display)?.name ?? null;
const joined = (...parts: unknown[]) => parts.filter(present).join(' · ') || null;

/** Title and detail of one row of each kind. */
const HIT: Record<Exclude<GlobalSearchKind, 'sessions' | 'files'>, (row: ApiRow) => GlobalSearchHit> = {
  customers: (row) => ({
    id: row.id,
    title: String(row.name),
    detail: joined(row.mobile ?? row.phone, row.nationalId),
  }),
  opponents: (row) => ({ id: row.id, title: String(row.name), detail: joined(row.nationalId) }),
  lawsuits: (row) => ({
    id: row.id,
    title: String(row.fileNumber ?? row.id),
    detail: joined(
      row.caseNumber && row.caseYear ? `${String(row.caseNumber)}/${String(row.caseYear)}` : row.caseNumber,
      nameOf(row.court),
    ),
  }),
};

const canView = (actor: ActorContext, kind: GlobalSearchKind) =>
  Boolean(actor.user?.permissions.has(permissionKey(kind, 'view')));

/** A hearing: its day and time, its lawsuit's file number and its court. */
const hearingHit = (row: ApiRow): GlobalSearchHit => ({
  id: row.id,
  title: [row.date, row.time].filter(Boolean).join(' '),
  detail: joined(nameOf(row.lawsuit), nameOf(row.court)),
});

/**
 * The hearings of the lawsuits found (the first `GLOBAL_SEARCH_LIMIT`), latest first, as the
 * reader may see them; `total` counts every hearing of those lawsuits.
 */
async function hearingsOf(
  db: Db,
  entities: EntityServices,
  actor: ActorContext,
  lawsuitIds: readonly number[],
): Promise<GlobalSearchGroup | null> {
  if (!lawsuitIds.length) return null;
  const sessions = entities.get('sessions');
  const table = sessions.entity.table;
  const of = db.selectFrom(table).where('lawsuit_id', 'in', lawsuitIds);
  const [{ n }, latest] = await Promise.all([
    of.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    of.select('id').orderBy('date', 'desc').orderBy('id', 'desc').limit(GLOBAL_SEARCH_LIMIT).execute(),
  ]);
  const ids = latest.map((r) => Number(r.id));
  const rows = new Map((await sessions.getMany(ids, actor)).map((row) => [row.id, row]));
  const items = ids.flatMap((id) => (rows.has(id) ? [hearingHit(rows.get(id)!)] : []));
  return items.length ? { kind: 'sessions', total: Number(n), items } : null;
}

/**
 * A group the global search adds after the entity lists' (the files found by their content): a
 * module's own search, for the reader, within the reader's rights; null when it found nothing.
 */
export type GlobalSearchSource = (actor: ActorContext, q: string) => Promise<GlobalSearchGroup | null>;

const sources = new WeakMap<FastifyInstance, GlobalSearchSource[]>();

/**
 * Adds a module's group to `GET /api/search` (call while registering).
 *
 * @example addGlobalSearchSource(app, async (actor, q) => ({ kind: 'files', total, items }));
 */
export function addGlobalSearchSource(app: FastifyInstance, source: GlobalSearchSource): void {
  sources.set(app, [...(sources.get(app) ?? []), source]);
}

export async function globalSearch(
  db: Db,
  entities: EntityServices,
  actor: ActorContext,
  q: string,
  extra: readonly GlobalSearchSource[] = [],
): Promise<GlobalSearchResult> {
  const groups: GlobalSearchGroup[] = [];
  let lawsuitIds: number[] = [];
  for (const kind of ['customers', 'opponents', 'lawsuits'] as const) {
    if (!canView(actor, kind)) continue;
    const page = await entities.get(kind).list({ q, pageSize: GLOBAL_SEARCH_LIMIT }, actor);
    if (kind === 'lawsuits') lawsuitIds = page.items.map((row) => row.id);
    if (page.total) groups.push({ kind, total: page.total, items: page.items.map(HIT[kind]) });
  }
  if (canView(actor, 'sessions')) {
    const hearings = await hearingsOf(db, entities, actor, lawsuitIds);
    if (hearings) groups.push(hearings);
  }
  for (const source of extra) {
    const group = await source(actor, q);
    if (group) groups.push(group);
  }
  return { groups };
}

export function registerGlobalSearch(app: FastifyInstance): void {
  defineRoute(app, SEARCH_ROUTES.global, {
    tags: ['search'],
    handler: async (request, { query }) => ({
      data: await globalSearch(app.db, app.entities, actorOf(request), query.q, sources.get(app) ?? []),
    }),
  });
}
