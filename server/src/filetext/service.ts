import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  foldArabic,
  type FileTextResult,
  type FileTextState,
  type FileTextStatus,
  type GlobalSearchHit,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from '../auth/types';
import type { Db } from '../db';
import { searchTokens, textCondition } from '../engine/search';
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

/**
 * A few words of `text` around the first word holding one of the folded `tokens`, as written
 * (diacritics and hamzas kept): the words are folded one by one to find it.
 *
 * @example snippet('قدم المدعي مذكرة بالدفاع', ['مذكره']) // 'قدم المدعي مذكرة بالدفاع'
 */
export function snippet(text: string, tokens: readonly string[]): string {
  const words = text.split(/\s+/).filter(Boolean);
  const at = words.findIndex((word) => {
    const folded = foldArabic(word);
    return tokens.some((t) => folded.includes(t) || t.includes(folded));
  });
  const from = Math.max(0, (at < 0 ? 0 : at) - SNIPPET_WORDS);
  const to = Math.min(words.length, (at < 0 ? 0 : at) + SNIPPET_WORDS + 1);
  return `${from > 0 ? '… ' : ''}${words.slice(from, to).join(' ')}${to < words.length ? ' …' : ''}`;
}

/** Matching pages read per search before the reader's access is checked file by file. */
const CANDIDATE_PAGES = 200;

/**
 * Files whose current text matches `q` (every token, folded, on one page), that `user` may read:
 * the first page found of each, newest files first, at most `limit`, and how many files match in
 * all among the owners the reader may see. `entity` (and `ownerIds`) narrow it to one list.
 */
export async function searchFiles(
  app: FastifyInstance,
  user: AuthUser,
  q: string,
  options: { limit: number; entity?: string; ownerIds?: readonly number[] },
): Promise<{ total: number; items: GlobalSearchHit[] }> {
  const tokens = searchTokens(q);
  if (!tokens.length) return { total: 0, items: [] };
  const base = () => {
    let query = app.db
      .selectFrom(`${PAGES_TABLE}`)
      .innerJoin('files', 'files.id', `${PAGES_TABLE}.file_id`)
      .innerJoin(`${TEXTS_TABLE} as t`, (join) =>
        join.onRef('t.file_id', '=', 'files.id').onRef('t.stored_name', '=', 'files.stored_name'),
      )
      .where((eb) => textCondition(eb, { table: PAGES_TABLE, fts: PAGES_FTS }, app.dialect, q, 'all')!)
      .where('files.entity', '<>', VERSION_OWNER);
    if (options.entity) query = query.where('files.entity', '=', options.entity);
    if (options.ownerIds)
      query = query.where('files.owner_id', 'in', options.ownerIds.length ? options.ownerIds : [-1]);
    return query;
  };
  const [counted, rows] = await Promise.all([
    base()
      .select((eb) => eb.fn.count('files.id').distinct().as('n'))
      .executeTakeFirstOrThrow(),
    base()
      .select([
        'files.id as file_id',
        'files.entity',
        'files.owner_id',
        'files.field',
        'files.stored_name',
        'files.original_name',
        'files.mime_type',
        'files.size',
        `${PAGES_TABLE}.page`,
        // Not the text: sorting every match with its page's text costs far more than reading the
        // texts of the few shown afterwards (docs/performance.md, search inside files' text).
        `${PAGES_TABLE}.id as page_id`,
      ])
      .orderBy('files.id', 'desc')
      .orderBy(`${PAGES_TABLE}.page`)
      .limit(CANDIDATE_PAGES)
      .execute(),
  ]);
  const items: GlobalSearchHit[] = [];
  const pageOf = new Map<GlobalSearchHit, number>();
  const seen = new Set<number>();
  let refused = 0;
  for (const row of rows) {
    const id = Number(row.file_id);
    if (seen.has(id)) continue;
    seen.add(id);
    const file: FileRow = {
      id,
      entity: String(row.entity),
      owner_id: Number(row.owner_id),
      field: String(row.field),
      stored_name: String(row.stored_name),
      original_name: String(row.original_name),
      mime_type: String(row.mime_type),
      size: Number(row.size),
    };
    if (!(await mayReadFile(app.fileAccess, user, file))) {
      refused += 1;
      continue;
    }
    if (items.length >= options.limit) continue;
    const item: GlobalSearchHit = {
      id,
      title: file.original_name,
      detail: null,
      file: {
        page: Number(row.page),
        snippet: '',
        mimeType: file.mime_type,
        entity: file.entity,
        ownerId: file.owner_id,
      },
    };
    items.push(item);
    pageOf.set(item, Number(row.page_id));
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
  return { total: Math.max(items.length, Number(counted.n) - refused), items };
}
