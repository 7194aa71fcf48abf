import {
  CLIENT_ROUTES,
  CONFLICT_ENTITIES,
  CONFLICT_LIMIT,
  lawsuits,
  permissionKey,
  type ConflictEntity,
  type ConflictResult,
  foldArabic,
  getEntity,
  type ConflictMatch,
  type ConflictReason,
  type CustomerKind,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db, Dialect } from '../db';
import { joinTableName } from '../db/migrations';
import { searchCondition } from '../engine/search';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';

/**
 * The conflict-of-interest check: parties the office already knows under a name or an ID.
 *
 * Names are compared as sets of words, after `foldArabic` and a few rules that make two spellings
 * of one Arabic name the same words:
 * - connectors of a lineage (`بن`, `بنت`, `ابن`, `bin`, `ibn`, `bint`) and a bare article (`ال`,
 *   `al`, `el`) are dropped: "محمد بن علي" and "محمد علي" name the same man;
 * - the article is taken off the front of a word (`المنصور` → `منصور`) when three letters or more
 *   remain, since family names are written with and without it;
 * - compound names are one word whether written joined or apart (`عبد الله`, `عبدالله`): folding
 *   joins them (`foldArabic`), and the cases of `أبو` are one (`أبي طالب`, `أبا طالب` → `ابوطالب`);
 * - one-letter words (initials) are dropped.
 *
 * A stored party matches when its words equal the given ones in any order (`sameName`, score 1),
 * hold them all or its folded name holds the given text (`contains`: what a partly typed name
 * finds), or share at least two words with a Dice overlap of one half or more (`tokens`). The
 * score is the Dice coefficient 2·|A∩B| / (|A|+|B|); the same ID scores 1.
 *
 * Candidates come from the engine's folded search (`searchCondition`): first rows holding every
 * word, then rows holding any, so a common first name cannot crowd out the strong matches.
 */

const PARTICLES = new Set(['بن', 'بنت', 'ابن', 'ال', 'bin', 'ibn', 'bint', 'al', 'el']);
/** `أبي` and `أبا`, joined to the next word by folding, are the genitive and accusative of `أبو`. */
const ABU_CASES = /^اب[يا](?=\p{L}{2})/u;
const ARTICLE = 'ال';
/** Rows scored per lookup; scoring is in memory, the search index narrows them first. */
const CANDIDATES = 500;
/** Least Dice overlap for a match on shared words alone. */
const MIN_OVERLAP = 0.5;

/** The folded words of a name (what the search index is asked for). */
function words(name: string): string[] {
  return foldArabic(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => [...word].length > 1 && !PARTICLES.has(word))
    .map((word) =>
      word.startsWith(ARTICLE) && [...word].length - ARTICLE.length >= 3 ? word.slice(ARTICLE.length) : word,
    );
}

/**
 * The comparable words of a name (see the module comment).
 *
 * @example nameTokens('عبد الله بن أحمد المنصور') // ['عبدالله', 'احمد', 'منصور']
 */
export function nameTokens(name: string): string[] {
  return [...new Set(words(name).map((word) => word.replace(ABU_CASES, 'ابو')))];
}

/** How a stored name compares with the given one: its score and reasons, or null when it does not match. */
export function compareNames(
  given: readonly string[],
  stored: string,
): { score: number; reason: ConflictReason } | null {
  if (!given.length) return null;
  const tokens = nameTokens(stored);
  if (!tokens.length) return null;
  const mine = new Set(tokens);
  const shared = given.filter((t) => mine.has(t)).length;
  const score = (2 * shared) / (given.length + tokens.length);
  if (shared === given.length && shared === tokens.length) return { score: 1, reason: 'sameName' };
  if (shared === given.length || tokens.join(' ').includes(given.join(' ')))
    return { score, reason: 'contains' };
  if (shared >= 2 && score >= MIN_OVERLAP) return { score, reason: 'tokens' };
  return null;
}

interface CandidateRow {
  id: number | string;
  name: string;
  name_en: string | null;
  kind: CustomerKind;
  national_id: string | null;
  commercial_register: string | null;
}

const COLUMNS = ['id', 'name', 'name_en', 'kind', 'national_id', 'commercial_register'] as const;

/** What the check is asked: a name and/or an ID, the party being edited and its form's entity. */
export interface ConflictSearch {
  name?: string;
  nationalId?: string;
  exceptId?: number;
  /** The entity of the party being entered (whose row `exceptId` is); default customers. */
  for?: ConflictEntity;
}

/**
 * The rows of one party entity (clients or opponents: the same identity columns) whose name or
 * ID matches, scored. Candidates come from the engine's folded search (`searchCondition`).
 */
async function matchesIn(
  db: Db,
  dialect: Dialect,
  name: ConflictEntity,
  query: ConflictSearch,
): Promise<ConflictMatch[]> {
  const entity = getEntity(name);
  const table = entity.table;
  const exceptId = (query.for ?? 'customers') === name ? query.exceptId : undefined;
  const found = new Map<number, CandidateRow>();
  const add = (rows: CandidateRow[]) => rows.forEach((row) => found.set(Number(row.id), row));
  const base = () => {
    let q = db.selectFrom(table).select([...COLUMNS]);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return q;
  };

  if (query.nationalId) {
    const id = query.nationalId;
    add(
      (await base()
        .where((eb) => eb.or([eb('national_id', '=', id), eb('commercial_register', '=', id)]))
        .execute()) as CandidateRow[],
    );
  }
  const given = query.name ? nameTokens(query.name) : [];
  const text = query.name ? words(query.name).join(' ') : '';
  for (const mode of ['all', 'any'] as const) {
    if (!text || found.size >= CANDIDATES) break;
    const rows = await base()
      .where((eb) => searchCondition(eb, entity, table, dialect, text, mode) ?? eb.lit(false))
      .orderBy('id')
      .limit(CANDIDATES)
      .execute();
    add(rows as CandidateRow[]);
  }

  const matches: ConflictMatch[] = [];
  for (const row of found.values()) {
    const idNumber = row.kind === 'company' ? row.commercial_register : row.national_id;
    const reasons: ConflictReason[] = [];
    let score = 0;
    if (
      query.nationalId &&
      (row.national_id === query.nationalId || row.commercial_register === query.nationalId)
    ) {
      reasons.push('id');
      score = 1;
    }
    const byName = [compareNames(given, row.name), row.name_en ? compareNames(given, row.name_en) : null]
      .filter((m) => m !== null)
      .sort((a, b) => b.score - a.score)[0];
    if (byName) {
      reasons.push(byName.reason);
      score = Math.max(score, byName.score);
    }
    if (!reasons.length) continue;
    matches.push({
      entity: name,
      id: Number(row.id),
      name: row.name,
      nameEn: row.name_en,
      kind: row.kind,
      idNumber,
      score: Math.round(score * 1000) / 1000,
      reasons,
    });
  }
  return matches;
}

/** The lawsuits each opponent match is an opponent in (`opponentIn`), one query for all of them. */
async function withLawsuits(db: Db, matches: ConflictMatch[]): Promise<ConflictMatch[]> {
  const ids = matches.filter((m) => m.entity === 'opponents').map((m) => m.id);
  if (!ids.length) return matches;
  const suits = getEntity(lawsuits.name);
  const links = joinTableName(suits, 'opponentIds');
  const rows = await db
    .selectFrom(links)
    .innerJoin(suits.table, `${suits.table}.id`, `${links}.owner_id`)
    .select([
      `${links}.ref_id as opponentId`,
      `${suits.table}.id as id`,
      `${suits.table}.file_number as fileNumber`,
    ])
    .where(`${links}.ref_id`, 'in', ids)
    .orderBy(`${suits.table}.id`)
    .execute();
  const byOpponent = new Map<number, { id: number; fileNumber: string | null }[]>();
  for (const row of rows as {
    opponentId: number | string;
    id: number | string;
    fileNumber: string | null;
  }[]) {
    const list = byOpponent.get(Number(row.opponentId)) ?? [];
    list.push({ id: Number(row.id), fileNumber: row.fileNumber });
    byOpponent.set(Number(row.opponentId), list);
  }
  return matches.map((m) =>
    m.entity === 'opponents' ? { ...m, opponentIn: byOpponent.get(m.id) ?? [] } : m,
  );
}

/**
 * Clients and opponents (`entities`, default both) whose name matches `name` or whose national ID
 * or commercial registration is `nationalId`, best first (score, then more reasons, then clients
 * before opponents, then the older row), at most `CONFLICT_LIMIT`; `exceptId` (the party being
 * edited, of the `for` entity) is left out. Opponent matches list the lawsuits they are opponents
 * in (`opponentIn`).
 *
 * @example await findConflicts(db, 'sqlite', { name: 'حسن محمد علي' }) // [{ entity: 'customers', id: 7, reasons: ['sameName'], … }]
 */
export async function findConflicts(
  db: Db,
  dialect: Dialect,
  query: ConflictSearch,
  entities: readonly ConflictEntity[] = CONFLICT_ENTITIES,
): Promise<ConflictMatch[]> {
  const all = (await Promise.all(entities.map((name) => matchesIn(db, dialect, name, query)))).flat();
  const order = (m: ConflictMatch) => CONFLICT_ENTITIES.indexOf(m.entity);
  const best = all
    .sort(
      (a, b) =>
        b.score - a.score || b.reasons.length - a.reasons.length || order(a) - order(b) || a.id - b.id,
    )
    .slice(0, CONFLICT_LIMIT);
  return withLawsuits(db, best);
}

/**
 * `GET /api/admin/customers/conflicts`: the check as a route, from the client form (`for=customers`,
 * needs `customers.view`) or the opponent form (`for=opponents`, needs `opponents.view`); matches
 * of an entity the user may not view are left out. Saving is never blocked by its answer.
 */
export function installConflictCheck(app: FastifyInstance): void {
  defineRoute(app, CLIENT_ROUTES.conflicts, {
    tags: ['customers', 'opponents'],
    labels: 'entities.customers.fields',
    handler: async (request, { query }) => {
      const may = (entity: ConflictEntity) =>
        request.user?.permissions.has(permissionKey(entity, 'view')) ?? false;
      if (!may(query.for)) throw new AppError('forbidden');
      const visible = CONFLICT_ENTITIES.filter(may);
      return {
        data: { matches: await findConflicts(app.db, app.dialect, query, visible) } satisfies ConflictResult,
      };
    },
  });
}
