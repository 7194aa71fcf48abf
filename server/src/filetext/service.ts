import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  FILE_SEARCH_COUNT_BOUND,
  foldArabic,
  type FileTextResult,
  type FileTextState,
  type FileTextStatus,
  type GlobalSearchHit,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from '../auth/types';
import type { Db } from '../db';
import { ftsDrives, searchTokens, textCondition } from '../engine/search';
import { mayReadFile, type FileRow } from '../files/access';
import type { JobContext } from '../jobs';
import { ToolMissingError } from '../tools';
import {
  OcrUnavailableError,
  UnreadableFileError,
  extractText,
  hasText,
  type ExtractLimits,
} from './extract';
import { PAGES_FTS, PAGES_TABLE, TEXTS_TABLE } from './migrations';
import { readFileTextLimits } from './settings';

/** The job kind that reads one file's text. */
export const EXTRACT_KIND = 'filetext.extract';

/** Old versions of a file are `files` rows of this owner (`owner_id`: the file's id); never read for text. */
export const VERSION_OWNER = 'fileVersions';

export interface ExtractPayload {
  fileId: number;
  storedName: string;
}

interface TextRow {
  file_id: number | string;
  stored_name: string;
  state: FileTextState;
  confidence: number | string | null;
  error: string | null;
  pages_done: number | string;
  pages_total: number | string;
}

const jobKey = (fileId: number, storedName: string) => `filetext:${fileId}:${storedName}`;

/**
 * Marks `fileId`'s current version as waiting for its text (earlier pages dropped: search reads
 * the current version only) and enqueues the job that reads it. Idempotent.
 */
export async function queueText(app: FastifyInstance, fileId: number, storedName: string): Promise<void> {
  const at = app.clock().toISOString();
  const values = {
    stored_name: storedName,
    state: 'queued',
    confidence: null,
    error: null,
    pages_done: 0,
    pages_total: 0,
    updated_at: at,
  };
  const changed = await app.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom(TEXTS_TABLE)
      .select('stored_name')
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    if (before?.stored_name === storedName) return false;
    await trx.deleteFrom(PAGES_TABLE).where('file_id', '=', fileId).execute();
    if (before) await trx.updateTable(TEXTS_TABLE).set(values).where('file_id', '=', fileId).execute();
    else
      await trx
        .insertInto(TEXTS_TABLE)
        .values({ file_id: fileId, ...values })
        .onConflict((oc) => oc.column('file_id').doUpdateSet(values))
        .execute();
    return true;
  });
  if (changed)
    await app.jobs.enqueue(EXTRACT_KIND, { fileId, storedName } satisfies ExtractPayload, {
      key: jobKey(fileId, storedName),
      requeue: true,
    });
}

/** How often the feeder looks at every file (files added out of id order, deleted files' text). */
const FULL_SCAN_MS = 5 * 60 * 1000;

/**
 * Finds the files whose text was never asked for and queues it: at each poll the files added
 * since the last one seen (by id), and every few minutes all of them (a row committed out of id
 * order, an upgrade's existing files), dropping the text of deleted files on the way.
 */
export function textFeeder(app: FastifyInstance): () => Promise<void> {
  let lastId = -1;
  let lastFull = 0;
  return async () => {
    const now = Date.now();
    const full = lastId < 0 || now - lastFull >= FULL_SCAN_MS;
    let query = app.db
      .selectFrom('files as f')
      .leftJoin(`${TEXTS_TABLE} as t`, 't.file_id', 'f.id')
      .select(['f.id', 'f.stored_name', 'f.mime_type'])
      .where('f.entity', '<>', VERSION_OWNER)
      .where('t.file_id', 'is', null)
      .orderBy('f.id')
      .limit(500);
    if (!full) query = query.where('f.id', '>', lastId);
    const rows = await query.execute();
    for (const row of rows) await queueText(app, Number(row.id), String(row.stored_name));
    const newest = await app.db
      .selectFrom('files')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    // Only past what was read: a batch cut at 500 rows is continued at the next poll.
    if (rows.length < 500) lastId = Math.max(lastId, Number(newest?.id ?? 0));
    if (full) {
      lastFull = now;
      await dropOrphans(app);
    }
  };
}

/** The text of deleted files, and the earlier versions of deleted files (rows and stored bytes). */
async function dropOrphans(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const gone = db.selectFrom('files').select('id');
  await db.deleteFrom(PAGES_TABLE).where('file_id', 'not in', gone).execute();
  await db.deleteFrom(TEXTS_TABLE).where('file_id', 'not in', gone).execute();
  const versions = await db
    .selectFrom('files')
    .select(['id', 'stored_name'])
    .where('entity', '=', VERSION_OWNER)
    .where('owner_id', 'not in', db.selectFrom('files').select('id').where('entity', '<>', VERSION_OWNER))
    .execute();
  if (!versions.length) return;
  await db
    .deleteFrom('files')
    .where(
      'id',
      'in',
      versions.map((v) => Number(v.id)),
    )
    .execute();
  for (const v of versions) await app.fileStore.remove(String(v.stored_name));
}

/**
 * The job: reads the file's current version into pages (folded for search), recording progress,
 * then its state. A file gone or replaced meanwhile is left to its own job. A file that cannot be
 * read is `failed` with the reason (the job itself succeeds: retrying would not help); a tool that
 * fails otherwise (a time limit) throws, and the queue retries later.
 */
export async function runExtract(
  app: FastifyInstance,
  payload: ExtractPayload,
  ctx: JobContext,
): Promise<void> {
  const { db } = app;
  const file = await db.selectFrom('files').selectAll().where('id', '=', payload.fileId).executeTakeFirst();
  if (!file || file.stored_name !== payload.storedName) return;
  const current = () =>
    db
      .updateTable(TEXTS_TABLE)
      .where('file_id', '=', payload.fileId)
      .where('stored_name', '=', payload.storedName);
  const finish = (state: FileTextState, extra: { confidence?: number | null; error?: string | null } = {}) =>
    current()
      .set({
        state,
        confidence: extra.confidence ?? null,
        error: extra.error ?? null,
        updated_at: app.clock().toISOString(),
      })
      .execute();
  if (!hasText(String(file.mime_type))) {
    await finish('none');
    return;
  }
  const limits: ExtractLimits = await readFileTextLimits(db);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-text-'));
  const local = path.join(work, 'file');
  const confidences: number[] = [];
  let total = 0;
  let done = 0;
  try {
    await db.deleteFrom(PAGES_TABLE).where('file_id', '=', payload.fileId).execute();
    await app.fileStore.copyTo(payload.storedName, local);
    await extractText(local, String(file.mime_type), work, limits, {
      signal: ctx.signal,
      total: async (pages) => {
        total = pages;
        await current().set({ pages_total: pages, pages_done: 0 }).execute();
        await ctx.progress(0, pages);
      },
      page: async (page) => {
        if (page.confidence !== null) confidences.push(page.confidence);
        await db
          .insertInto(PAGES_TABLE)
          .values({
            file_id: payload.fileId,
            page: page.page,
            text: page.text,
            search_text: foldArabic(page.text),
          })
          .onConflict((oc) => oc.columns(['file_id', 'page']).doNothing())
          .execute();
        done += 1;
        await current().set({ pages_done: done }).execute();
        await ctx.progress(done, total);
      },
    });
    const mean = confidences.length
      ? Math.round((confidences.reduce((a, b) => a + b, 0) / confidences.length) * 10) / 10
      : null;
    await finish(confidences.length ? 'ocr' : 'extracted', { confidence: mean });
  } catch (error) {
    if (error instanceof UnreadableFileError) await finish('failed', { error: error.message });
    else if (error instanceof OcrUnavailableError || error instanceof ToolMissingError)
      // poppler or tesseract not installed here: said so, not retried.
      await finish('unavailable', { error: error.message });
    else throw error;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function toStatus(row: TextRow | undefined, fileId: number): FileTextStatus {
  return {
    fileId,
    state: row?.state ?? 'queued',
    confidence: row?.confidence === null || row?.confidence === undefined ? null : Number(row.confidence),
    error: row?.error ?? null,
    progress: { done: Number(row?.pages_done ?? 0), total: Number(row?.pages_total ?? 0) },
  };
}

/** The text states of files (one state per id asked; a file not yet seen is `queued`). */
export async function textStates(db: Db, fileIds: readonly number[]): Promise<FileTextStatus[]> {
  if (!fileIds.length) return [];
  const rows = (await db
    .selectFrom(TEXTS_TABLE)
    .selectAll()
    .where('file_id', 'in', fileIds)
    .execute()) as TextRow[];
  const byId = new Map(rows.map((r) => [Number(r.file_id), r]));
  return fileIds.map((id) => toStatus(byId.get(id), id));
}

/** A file's text state and pages. */
export async function fileText(db: Db, fileId: number): Promise<FileTextResult> {
  const [status] = await textStates(db, [fileId]);
  const pages = await db
    .selectFrom(PAGES_TABLE)
    .select(['page', 'text'])
    .where('file_id', '=', fileId)
    .orderBy('page')
    .execute();
  const { state, confidence, error, progress } = status!;
  return {
    state,
    confidence,
    error,
    progress,
    pages: pages.map((p) => ({ page: Number(p.page), text: String(p.text) })),
  };
}

/** Words either side of the first word found, in a snippet. */
const SNIPPET_WORDS = 8;

/** Words folded together by `snippet` (folding a page whole costs about as much as one word alone). */
const SNIPPET_CHUNK = 32;

/**
 * A few words of `text` around the first word holding one of the folded `tokens`, as written
 * (diacritics and hamzas kept). The words are folded a few dozen at a time, up to the first
 * found; where folding joined or split words (a compound name) they no longer line up with the
 * written ones, and those are folded one by one.
 *
 * @example snippet('قدم المدعي مذكرة بالدفاع', ['مذكره']) // 'قدم المدعي مذكرة بالدفاع'
 */
export function snippet(text: string, tokens: readonly string[]): string {
  const words = text.split(/\s+/).filter(Boolean);
  const holds = (folded: string) => tokens.some((t) => folded.includes(t) || t.includes(folded));
  const oneByOne = (chunk: readonly string[]) => chunk.findIndex((word) => holds(foldArabic(word)));
  let at = -1;
  for (let start = 0; start < words.length && at < 0; start += SNIPPET_CHUNK) {
    const chunk = words.slice(start, start + SNIPPET_CHUNK);
    const folded = foldArabic(chunk.join(' ')).split(' ');
    let i = folded.length === chunk.length ? folded.findIndex(holds) : oneByOne(chunk);
    if (i >= 0 && !holds(foldArabic(chunk[i]!))) i = oneByOne(chunk);
    if (i >= 0) at = start + i;
  }
  const from = Math.max(0, (at < 0 ? 0 : at) - SNIPPET_WORDS);
  const to = Math.min(words.length, (at < 0 ? 0 : at) + SNIPPET_WORDS + 1);
  return `${from > 0 ? '… ' : ''}${words.slice(from, to).join(' ')}${to < words.length ? ' …' : ''}`;
}

/** Matching pages read at a time while the reader's access is checked file by file. */
const CANDIDATE_PAGES = 200;

interface PageHit {
  pageId: number;
  fileId: number;
  page: number;
}

interface SearchScope {
  entity?: string;
  ownerIds?: readonly number[];
}

/** Reads the pages matching a search, newest first, a batch at a time. */
interface PageReader {
  /** The next matching pages of current versions in scope (at least `n` unless the last). */
  next(n: number): Promise<PageHit[]>;
  /** Whether every matching page was read. */
  done: boolean;
}

/** Pages' ids a PostgreSQL walk reads first, to tell a common word from a rare one. */
const FIRST_WALK = 250;

/**
 * The matching pages of current versions in scope, newest pages first (their ids, descending),
 * read in the index's own order so that a common word stops early (docs/performance.md, search
 * inside files' text):
 * - SQLite: the FTS5 table read by rowid, descending, `limit n` at a time;
 * - PostgreSQL: the newest pages' ids walked backwards in windows sized by the share of pages
 *   found so far, each page's text checked (`walk`: the trigram index left out); once that share
 *   is low, the trigram index lists the older matches. The planner could not choose between the
 *   two itself: a page's text is too long for its statistics, so it takes every word for rare;
 * - a list's own rows (`ownerIds`), and on SQLite a query of short tokens only: the planner's
 *   choice, `limit n` at a time.
 */
function pageReader(app: FastifyInstance, q: string, scope: SearchScope): PageReader {
  const joined = ftsDrives(app.dialect, q) && !scope.ownerIds;
  const condition =
    (how: { joined?: boolean; walk?: boolean }) => (eb: Parameters<typeof textCondition>[0]) =>
      textCondition(eb, { table: PAGES_TABLE, fts: PAGES_FTS, ...how }, app.dialect, q, 'all')!;
  const hits = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({ pageId: Number(r.page_id), fileId: Number(r.file_id), page: Number(r.page) }));
  /** Matching pages, files and scope in one query, `limit` at a time from `before` down. */
  const filtered = (before: number | null, limit: number) => {
    let query = (
      joined
        ? app.db.selectFrom(PAGES_FTS).innerJoin(PAGES_TABLE, `${PAGES_TABLE}.id`, `${PAGES_FTS}.rowid`)
        : app.db.selectFrom(PAGES_TABLE)
    )
      .innerJoin('files', 'files.id', `${PAGES_TABLE}.file_id`)
      .innerJoin(`${TEXTS_TABLE} as t`, (join) =>
        join.onRef('t.file_id', '=', 'files.id').onRef('t.stored_name', '=', 'files.stored_name'),
      )
      .where(condition({ joined }))
      .where('files.entity', '<>', VERSION_OWNER)
      .select([`${PAGES_TABLE}.id as page_id`, `${PAGES_TABLE}.file_id`, `${PAGES_TABLE}.page`]);
    if (scope.entity) query = query.where('files.entity', '=', scope.entity);
    if (scope.ownerIds)
      query = query.where('files.owner_id', 'in', scope.ownerIds.length ? scope.ownerIds : [-1]);
    // FTS5 reads its rowids in either order, and a bound on them, from its own index.
    const id = joined ? `${PAGES_FTS}.rowid` : `${PAGES_TABLE}.id`;
    if (before !== null) query = query.where(id, '<', before);
    return query.orderBy(id, 'desc').limit(limit).execute();
  };

  if (app.dialect !== 'postgres' || scope.ownerIds) {
    let before: number | null = null;
    const reader: PageReader = {
      done: false,
      async next(n) {
        if (reader.done) return [];
        const rows = await filtered(before, n);
        if (rows.length < n) reader.done = true;
        if (rows.length) before = Number(rows[rows.length - 1]!.page_id);
        return hits(rows);
      },
    };
    return reader;
  }

  // PostgreSQL, a whole entity's files: the pages alone first (by id range or by the index),
  // then their files and scope, so that what the pages part reads is bounded.
  let top: number | null = null;
  let walked = 0;
  let found = 0;
  let walking = true;
  const inPages = (from: number, to: number | null, limit: number | null) => {
    let pages = app.db
      .selectFrom(PAGES_TABLE)
      .select(['id', 'file_id', 'page'])
      .where(condition({ walk: limit === null }))
      .where('id', '<', to ?? Number.MAX_SAFE_INTEGER)
      .where('id', '>=', from)
      .orderBy('id', 'desc');
    if (limit !== null) pages = pages.limit(limit);
    return app.db
      .selectFrom(pages.as('p'))
      .leftJoin('files', (join) => {
        let on = join.onRef('files.id', '=', 'p.file_id').on('files.entity', '<>', VERSION_OWNER);
        if (scope.entity) on = on.on('files.entity', '=', scope.entity);
        return on;
      })
      .leftJoin(`${TEXTS_TABLE} as t`, (join) =>
        join.onRef('t.file_id', '=', 'files.id').onRef('t.stored_name', '=', 'files.stored_name'),
      )
      .select(['p.id as page_id', 'p.file_id', 'p.page', 't.file_id as current'])
      .orderBy('p.id', 'desc')
      .execute();
  };
  const reader: PageReader = {
    done: false,
    async next(n) {
      const out: PageHit[] = [];
      if (top === null) {
        const newest = await app.db
          .selectFrom(PAGES_TABLE)
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst();
        top = Number(newest?.id ?? 0) + 1;
      }
      while (!reader.done && out.length < n) {
        const share = walked ? found / walked : 1;
        // Walking on costs about (n - found) / share pages checked; the index, share × the pages left.
        if (walking && walked && share * share * top < n - out.length) walking = false;
        let rows: Record<string, unknown>[];
        if (walking) {
          const size = walked ? Math.ceil(((n - out.length) / Math.max(share, 0.01)) * 1.2) : FIRST_WALK;
          const from = Math.max(0, top - size);
          rows = await inPages(from, top, null);
          walked += top - from;
          top = from;
          if (from === 0) reader.done = true;
        } else {
          const limit = Math.max(n - out.length, CANDIDATE_PAGES);
          rows = await inPages(0, top, limit);
          if (rows.length < limit) reader.done = true;
          if (rows.length) top = Number(rows[rows.length - 1]!.page_id);
        }
        found += rows.length;
        out.push(...hits(rows.filter((r) => r.current !== null && r.current !== undefined)));
      }
      return out;
    },
  };
  return reader;
}

/**
 * Files whose current text matches `q` (every token, folded, on one page), that `user` may read:
 * newest pages first, each file once (the lowest of its pages read), at most `limit`; `total`
 * counts the files found up to `FILE_SEARCH_COUNT_BOUND` (`totalCapped` past it), those found
 * refused left out. Matching pages are read in the index's order, a batch at a time, until
 * `limit` readable files or the last match: a reader refused the newest files still gets the
 * older ones. `entity` (and `ownerIds`) narrow it to one list.
 */
export async function searchFiles(
  app: FastifyInstance,
  user: AuthUser,
  q: string,
  options: { limit: number } & SearchScope,
): Promise<{ total: number; totalCapped: boolean; items: GlobalSearchHit[] }> {
  const tokens = searchTokens(q);
  if (!tokens.length) return { total: 0, totalCapped: false, items: [] };
  const bound = FILE_SEARCH_COUNT_BOUND;
  const reader = pageReader(app, q, options);
  const files = new Map<number, PageHit>();
  /** Reads the next batch of matching pages; false when there were no more. */
  const more = async (n: number) => {
    if (reader.done) return false;
    for (const hit of await reader.next(n)) {
      const seen = files.get(hit.fileId);
      if (!seen || hit.page < seen.page) files.set(hit.fileId, hit);
    }
    return true;
  };
  let read = 0;
  // The count: pages until more than `bound` files, or the last one (a file's pages one after the other).
  for (let n = bound + 1; !reader.done && files.size <= bound; n = Math.max(n, read)) {
    await more(n);
    read += n;
  }

  const items: GlobalSearchHit[] = [];
  const pageOf = new Map<GlobalSearchHit, number>();
  const checked = new Set<number>();
  let refused = 0;
  for (;;) {
    const waiting = [...files.keys()].filter((id) => !checked.has(id));
    for (let at = 0; at < waiting.length && items.length < options.limit; at += CANDIDATE_PAGES) {
      const ids = waiting.slice(at, at + CANDIDATE_PAGES);
      const rows = new Map(
        ((await app.db.selectFrom('files').selectAll().where('id', 'in', ids).execute()) as FileRow[]).map(
          (r) => [Number(r.id), r],
        ),
      );
      for (const id of ids) {
        if (items.length >= options.limit) break;
        checked.add(id);
        const row = rows.get(id);
        if (!row) continue;
        const file: FileRow = { ...row, id, owner_id: Number(row.owner_id), size: Number(row.size) };
        if (!(await mayReadFile(app.fileAccess, user, file))) {
          refused += 1;
          continue;
        }
        const hit = files.get(id)!;
        const item: GlobalSearchHit = {
          id,
          title: String(file.original_name),
          detail: null,
          file: {
            page: hit.page,
            snippet: '',
            mimeType: String(file.mime_type),
            entity: String(file.entity),
            ownerId: file.owner_id,
          },
        };
        items.push(item);
        pageOf.set(item, hit.pageId);
      }
    }
    // Every file read so far checked and too few readable: the older matches.
    if (items.length >= options.limit || !(await more(CANDIDATE_PAGES * 4))) break;
  }
  if (items.length) {
    const texts = new Map(
      (
        await app.db
          .selectFrom(PAGES_TABLE)
          .select(['id', 'text'])
          .where('id', 'in', [...pageOf.values()])
          .execute()
      ).map((r) => [Number(r.id), String(r.text)]),
    );
    for (const item of items) item.file!.snippet = snippet(texts.get(pageOf.get(item)!) ?? '', tokens);
  }
  const found = Math.max(items.length, files.size - refused);
  const totalCapped = !reader.done || found > bound;
  return { total: totalCapped ? bound : found, totalCapped, items };
}
