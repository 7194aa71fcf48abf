import {
  createSchema,
  getEntity,
  parseDuration,
  parseMoney,
  type DuplicateRow,
  type Entity,
  type FieldDefinition,
  type Fields,
  type ImportPreview,
  type ImportResult,
  type ImportRowError,
} from '@mizan/contracts';
import type { Db } from '../db';
import { cols } from '../engine/rows';
import type { ActorContext, Trx, WriteContext } from '../engine/context';
import { chunks, uniqueGroups, uniqueKey, type EntityRepository } from '../engine/repository';
import type { EntityService, EntityServices } from '../engine/service';
import { refDisplayName, refsDisplayName } from '../engine/serialize';
import { AppError } from '../http/errors';
import { fieldLabel, translate, type Lang } from '../http/messages';
import { zodFieldErrors } from '../http/validation';
import {
  importableFields,
  listSeparator,
  mapHeaders,
  splitList,
  toBoolean,
  toEnum,
  toNumber,
} from './mapping';
import type { ParsedSheet } from './parse';

type Executor = Db | Trx;

// The answers' shapes are the contracts' (`api/import.ts`), shared with the import screen.
export type { DuplicateRow, ImportPreview, ImportResult, ImportRowError } from '@mizan/contracts';

export interface PreparedRow {
  row: number;
  /** Validated field values (camelCase), defaults filled in, references as ids. */
  values: Record<string, unknown>;
}

export interface PreparedImport {
  total: number;
  rows: PreparedRow[];
  duplicates: DuplicateRow[];
  errors: ImportRowError[];
  /** Headers that match no field (their columns are not read). */
  ignoredColumns: string[];
  /** Field of each recognised column, in file order. */
  columns: { header: string; field: string }[];
  /** Referenced rows' titles by field and id, for the preview's display. */
  titles: Map<string, Map<number, string>>;
}

const SAMPLE_SIZE = 20;
/** Ids and titles looked up per query. */
const LOOKUP = 500;

/** `M/D/YYYY` (the product's date format) or `YYYY-MM-DD`, as `YYYY-MM-DD`; anything else unchanged. */
function toIsoDate(text: string): string {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (us) return `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}`;
  return text.trim().slice(0, 10).length === 10 && /^\d{4}-\d{2}-\d{2}/.test(text.trim())
    ? text.trim().slice(0, 10)
    : text;
}

/** A reference cell token: an id or a title, resolved later in bulk. */
type RefToken = string;

interface RefLookup {
  byId: Set<number>;
  /** Title → ids (more than one: ambiguous). */
  byTitle: Map<string, number[]>;
}

/** Finds the referenced rows named in the file, by id and by title, a few hundred per query. */
async function lookupRefs(db: Executor, target: Entity<Fields>, tokens: Set<RefToken>): Promise<RefLookup> {
  const ids = [...tokens]
    .map((t) => toNumber(t))
    .filter((n): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0);
  const titles = [...tokens];
  const titleColumn = cols(target)[target.titleField];
  const byId = new Set<number>();
  const byTitle = new Map<string, number[]>();
  for (const part of chunks(ids, LOOKUP)) {
    const rows = await db.selectFrom(target.table).select('id').where('id', 'in', part).execute();
    for (const r of rows) byId.add(Number(r.id));
  }
  for (const part of chunks(titles, LOOKUP)) {
    const rows = await db
      .selectFrom(target.table)
      .select(['id', titleColumn])
      .where(titleColumn, 'in', part)
      .execute();
    for (const r of rows) {
      const key = String(r[titleColumn]);
      byTitle.set(key, [...(byTitle.get(key) ?? []), Number(r.id)]);
    }
  }
  return { byId, byTitle };
}

/** The id a token names: an existing id first, else a unique title. */
function resolveToken(lookup: RefLookup, token: string): number | 'missing' | 'ambiguous' {
  const asNumber = toNumber(token);
  if (typeof asNumber === 'number' && lookup.byId.has(asNumber)) return asNumber;
  const ids = lookup.byTitle.get(token.trim()) ?? [];
  if (ids.length === 1) return ids[0]!;
  return ids.length > 1 ? 'ambiguous' : 'missing';
}

/** A cell as the value the create schema expects, or the text itself so validation reports it. */
function cellValue(
  entity: Entity<Fields>,
  key: string,
  field: FieldDefinition | undefined,
  text: string,
): unknown {
  if (!field) return toBoolean(text); // status
  switch (field.type) {
    case 'integer':
    case 'number':
      return toNumber(text);
    case 'money':
      // Major units as a spreadsheet shows them ("1,234.50"), converted exactly to minor units.
      return parseMoney(text) ?? text;
    case 'duration':
      // `h:mm` or decimal hours as a time sheet shows them, converted to minutes.
      return parseDuration(text) ?? text;
    case 'boolean':
      return toBoolean(text);
    case 'enum':
      return toEnum(entity, key, field.values, text);
    case 'date':
      return toIsoDate(text);
    default:
      return text;
  }
}

const groupLabel = (lang: Lang, entity: Entity<Fields>, fields: readonly string[]) =>
  fields.map((f) => fieldLabel(lang, entity.name, f)).join(' + ');

/**
 * Reads a parsed sheet against a definition: maps the headers, coerces each cell, resolves
 * references by id or title, validates with the entity's create schema and sorts rows into
 * valid, duplicate (of the database or of an earlier row) and invalid. Writes nothing.
 * Throws 422 when the file as a whole cannot be used (no recognised header, required columns missing).
 */
export async function prepareImport(
  db: Executor,
  repo: EntityRepository,
  sheet: ParsedSheet,
  lang: Lang,
): Promise<PreparedImport> {
  const entity = repo.entity;
  const map = mapHeaders(entity, sheet.headers);
  const columns = map.columns.flatMap((field, i) =>
    field ? [{ header: sheet.headers[i]!, field, index: i }] : [],
  );
  const fieldDefs = new Map<string, FieldDefinition | undefined>([
    ...importableFields(entity),
    ['status', undefined],
  ]);
  if (!columns.length) {
    const expected = importableFields(entity)
      .map(([k]) => fieldLabel(lang, entity.name, k))
      .join(listSeparator(lang));
    const message = translate(lang, 'import.headerless', { columns: expected });
    throw new AppError('validation', {
      messageKey: 'import.headerless',
      params: { columns: expected },
      errors: { file: [message] },
    });
  }
  if (map.missing.length) {
    const missing = map.missing.map((k) => fieldLabel(lang, entity.name, k)).join(listSeparator(lang));
    const message = translate(lang, 'import.missingColumns', { columns: missing });
    throw new AppError('validation', {
      messageKey: 'import.missingColumns',
      params: { columns: missing },
      errors: { file: [message] },
    });
  }

  // Pass 1: cells → raw values; reference tokens collected for one lookup per field.
  const refTokens = new Map<string, Set<string>>();
  const raws = sheet.rows.map(({ row, cells }) => {
    const raw: Record<string, unknown> = {};
    const refs: Record<string, string[]> = {};
    for (const { field: key, index } of columns) {
      const text = (cells[index] ?? '').trim();
      if (text === '') continue;
      const field = fieldDefs.get(key);
      if (field?.type === 'ref' || field?.type === 'refs') {
        const tokens = field.type === 'ref' ? [text] : splitList(text);
        refs[key] = tokens;
        const set = refTokens.get(key) ?? new Set<string>();
        for (const token of tokens) set.add(token);
        refTokens.set(key, set);
      } else {
        raw[key] = cellValue(entity, key, field, text);
      }
    }
    return { row, raw, refs };
  });

  const lookups = new Map<string, RefLookup>();
  for (const [key, tokens] of refTokens) {
    const field = fieldDefs.get(key) as { entity: string };
    lookups.set(key, await lookupRefs(db, getEntity(field.entity), tokens));
  }

  // Pass 2: resolve references, validate, fill defaults.
  const schema = createSchema(entity);
  const errors: ImportRowError[] = [];
  const valid: PreparedRow[] = [];
  for (const { row, raw, refs } of raws) {
    const rowErrors: ImportRowError[] = [];
    for (const [key, tokens] of Object.entries(refs)) {
      const lookup = lookups.get(key)!;
      const ids: number[] = [];
      for (const token of tokens) {
        const id = resolveToken(lookup, token);
        if (typeof id === 'number') ids.push(id);
        else {
          const label = fieldLabel(lang, entity.name, key);
          rowErrors.push({
            row,
            field: key,
            message: translate(lang, id === 'missing' ? 'import.refNotFound' : 'import.refAmbiguous', {
              label,
              value: token,
            }),
          });
        }
      }
      raw[key] = fieldDefs.get(key)?.type === 'ref' ? ids[0] : ids;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      for (const [key, messages] of Object.entries(zodFieldErrors(parsed.error))) {
        // A reference already reported as unresolved needs no second message.
        if (rowErrors.some((e) => e.field === key)) continue;
        for (const m of messages) {
          const message =
            typeof m === 'string'
              ? m
              : translate(lang, m.key, { label: fieldLabel(lang, entity.name, key), ...m.params });
          rowErrors.push({ row, field: key === '_' ? null : key, message });
        }
      }
    }
    if (rowErrors.length || !parsed.success) {
      errors.push(...rowErrors);
      continue;
    }
    const values = parsed.data as Record<string, unknown>;
    for (const [key, field] of Object.entries(entity.fields)) {
      if (values[key] === undefined && field.default !== undefined) values[key] = field.default;
    }
    valid.push({ row, values });
  }

  // Pass 3: duplicates of existing rows, then of earlier rows of the file; the first one wins.
  const duplicates: DuplicateRow[] = [];
  const groups = uniqueGroups(entity);
  const existing = new Map<string, Set<string>>();
  for (const group of groups)
    existing.set(
      group.join('+'),
      await repo.existingKeys(
        db,
        group,
        valid.map((v) => v.values),
      ),
    );
  const seen = new Map<string, Map<string, number>>(groups.map((g) => [g.join('+'), new Map()]));
  const rows: PreparedRow[] = [];
  for (const candidate of valid) {
    let duplicate: DuplicateRow | null = null;
    for (const group of groups) {
      const key = uniqueKey(candidate.values, group);
      if (key === null) continue;
      const label = groupLabel(lang, entity, group);
      if (existing.get(group.join('+'))!.has(key)) {
        duplicate = {
          row: candidate.row,
          field: group[0]!,
          message: translate(lang, 'import.duplicateExisting', { label }),
        };
        break;
      }
      const earlier = seen.get(group.join('+'))!.get(key);
      if (earlier !== undefined) {
        duplicate = {
          row: candidate.row,
          field: group[0]!,
          message: translate(lang, 'import.duplicateInFile', { label, row: earlier }),
        };
        break;
      }
    }
    if (duplicate) {
      duplicates.push(duplicate);
      continue;
    }
    for (const group of groups) {
      const key = uniqueKey(candidate.values, group);
      if (key !== null) seen.get(group.join('+'))!.set(key, candidate.row);
    }
    rows.push(candidate);
  }

  const titles = new Map<string, Map<number, string>>();
  for (const [key, lookup] of lookups) {
    const names = new Map<number, string>();
    for (const [title, ids] of lookup.byTitle) for (const id of ids) names.set(id, title);
    titles.set(key, names);
  }

  return {
    total: sheet.rows.length,
    rows,
    duplicates,
    errors,
    ignoredColumns: map.ignored,
    columns: columns.map(({ header, field }) => ({ header, field })),
    titles,
  };
}

/** A row for the preview: values plus `{ id, name }` beside references, as lists show them. */
function displayRow(
  entity: Entity<Fields>,
  prepared: PreparedImport,
  row: PreparedRow,
): Record<string, unknown> {
  const out: Record<string, unknown> = { row: row.row, ...row.values };
  // Shown as the commit stores it: a row without a status column is saved active.
  if (entity.status && typeof out.status !== 'boolean') out.status = true;
  if (entity.baned && typeof out.baned !== 'boolean') out.baned = false;
  for (const [key, field] of Object.entries(entity.fields)) {
    const names = prepared.titles.get(key);
    const value = row.values[key];
    if (field.type === 'ref' && typeof value === 'number') {
      out[refDisplayName(key)] = { id: value, name: names?.get(value) ?? null };
    } else if (field.type === 'refs' && Array.isArray(value)) {
      out[refsDisplayName(key)] = (value as number[]).map((id) => ({ id, name: names?.get(id) ?? null }));
    }
  }
  return out;
}

export function toPreview(entity: Entity<Fields>, prepared: PreparedImport): ImportPreview {
  return {
    total: prepared.total,
    valid: prepared.rows.length,
    duplicates: prepared.duplicates.length,
    invalid: new Set(prepared.errors.map((e) => e.row)).size,
    errors: prepared.errors,
    duplicateRows: prepared.duplicates,
    ignoredColumns: prepared.ignoredColumns,
    columns: prepared.columns,
    sample: prepared.rows.slice(0, SAMPLE_SIZE).map((row) => displayRow(entity, prepared, row)),
  };
}

/** Thrown inside the commit's transaction when any row is invalid, so that nothing is written. */
export class ImportRejected extends Error {
  constructor(readonly prepared: PreparedImport) {
    super('import rejected');
  }
}

/** The rows' errors grouped per row, as `rejected` lists them. */
export function rejectedRows(
  errors: readonly ImportRowError[],
  entity: Entity<Fields>,
  lang: Lang,
): { row: number; reasons: string[] }[] {
  const byRow = new Map<number, string[]>();
  for (const e of errors) {
    const reason = e.field ? `${fieldLabel(lang, entity.name, e.field)}: ${e.message}` : e.message;
    byRow.set(e.row, [...(byRow.get(e.row) ?? []), reason]);
  }
  return [...byRow.entries()].sort(([a], [b]) => a - b).map(([row, reasons]) => ({ row, reasons }));
}

/**
 * The import inside the caller's transaction, the same for the preview and the commit so that the
 * two cannot disagree: re-reads the file against the database as the transaction sees it, then
 * creates the valid rows through the engine's one write path (`createMany`: the entity's hooks,
 * references, uniqueness, links, one `import` audit entry per row, the maintained count, one
 * `create` event for the list screens). A row createMany refuses (a module's rule between fields,
 * such as a company's registration) joins the file's own problems by spreadsheet row, and the rest
 * are written again without it, so that every check after it runs too. The caller decides: the
 * commit refuses (ImportRejected) when any row is invalid, the preview rolls everything back.
 */
async function runImport(
  ctx: WriteContext,
  service: EntityService,
  sheet: ParsedSheet,
  lang: Lang,
): Promise<PreparedImport> {
  const prepared = await prepareImport(ctx.trx, service.repo, sheet, lang);
  for (;;) {
    try {
      await service.createMany(
        ctx,
        prepared.rows.map((r) => r.values),
        { auditAction: 'import', events: 'summary' },
      );
      return prepared;
    } catch (error) {
      // createMany refuses before it inserts anything, so the transaction can go on.
      if (!(error instanceof AppError) || !error.options.rows?.length) throw error;
      const refused = new Set<number>();
      for (const { index, errors } of error.options.rows) {
        refused.add(index);
        for (const [key, messages] of Object.entries(errors))
          for (const m of messages)
            prepared.errors.push({
              row: prepared.rows[index]!.row,
              field: key === '_' ? null : key,
              message:
                typeof m === 'string'
                  ? m
                  : translate(lang, m.key, {
                      label: fieldLabel(lang, service.entity.name, key),
                      ...m.params,
                    }),
            });
      }
      prepared.rows = prepared.rows.filter((_, index) => !refused.has(index));
      prepared.errors.sort((a, b) => a.row - b.row);
    }
  }
}

/**
 * Writes every valid row inside the caller's transaction (all or nothing); refuses
 * (ImportRejected, thrown so that the transaction rolls back) when any row is invalid.
 */
export async function commitImport(
  ctx: WriteContext,
  service: EntityService,
  sheet: ParsedSheet,
  lang: Lang,
): Promise<ImportResult> {
  const prepared = await runImport(ctx, service, sheet, lang);
  if (prepared.errors.length) throw new ImportRejected(prepared);
  return {
    created: prepared.rows.length,
    skipped: prepared.duplicates.length,
    rejected: [],
    duplicateRows: prepared.duplicates,
  };
}

/** Thrown to roll the preview's transaction back once it has run. */
class PreviewDone extends Error {
  constructor(readonly prepared: PreparedImport) {
    super('import preview rolled back');
  }
}

/**
 * The preview (`?dryRun=1`): the commit's own run (`runImport`: every check, the hooks' too) in a
 * transaction that is always rolled back, so nothing stays: no row, link, audit entry, count or
 * event (events are published only after a commit). On PostgreSQL the rows' ids are drawn from
 * the sequence and not given back, as after any refused write.
 */
export async function previewImport(
  entities: EntityServices,
  actor: ActorContext,
  service: EntityService,
  sheet: ParsedSheet,
  lang: Lang,
): Promise<ImportPreview> {
  const done = await entities
    .transaction(actor, async (ctx) => {
      throw new PreviewDone(await runImport(ctx, service, sheet, lang));
    })
    .catch((error: unknown) => {
      if (error instanceof PreviewDone) return error;
      throw error;
    });
  return toPreview(service.entity, done.prepared);
}
