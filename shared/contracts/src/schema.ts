import { z } from 'zod';
import {
  textMaxLength,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type Entity,
  type FieldDefinition,
  type Fields,
  type ListFilterDefinition,
} from './entity';
import { MINUTES_PER_DAY, parseDuration } from './duration';
import { MONEY_MAX } from './money';
import { MAX_REFS } from './relations';
import { hasBidiControls, hasControlCharacters, isWellFormed, normalizeDigits, parseDigits } from './text';

/**
 * Zod schemas derived from a definition. The same schema validates the server's input and the
 * client's form; issue messages are i18n keys (`validation.*`, see `issueMessage`) that each side
 * translates with the field's label.
 */

const typeError = (kind: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? 'validation.required' : `validation.types.${kind}`;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A string that is safe to store and show: well-formed UTF-16 (a lone surrogate would be stored as
 * U+FFFD), no control characters but tab and newline, no bidi overrides or isolates on one line
 * (`\u202Egnp.exe` reads "exe.png"), trimmed and NFC-normalised (passwords are kept as typed: the
 * hash must see what the user types at sign-in).
 */
function safeString(kind: string, multiline: boolean, normalize = true) {
  let s = z
    .string({ error: typeError(kind) })
    .refine(isWellFormed, { error: 'validation.text.malformed', abort: true })
    .refine((v) => !hasControlCharacters(v), { error: 'validation.text.control', abort: true });
  if (!multiline) s = s.refine((v) => !hasBidiControls(v), { error: 'validation.text.bidi', abort: true });
  s = s.trim();
  return normalize ? s.normalize('NFC') : s;
}

/**
 * A one-line text of a route's own body (not an entity field) with the same safety checks: what a
 * database would refuse (PostgreSQL takes no NUL) is a 422 with a field message, never a 500.
 *
 * @example z.object({ email: lineText().pipe(z.string().min(1).max(150)) })
 */
export const lineText = () => safeString('string', false);

/** Digits typed on an Arabic or Persian keyboard become ASCII before the field's own rules. */
const asciiDigits = (schema: z.ZodType) =>
  z.preprocess((v) => (typeof v === 'string' ? normalizeDigits(v) : v), schema);
/**
 * A calendar day `YYYY-MM-DD` (Eastern digits read as ASCII) that exists: `2026-02-30` is refused
 * (`Date.parse` would roll it over to March), as is any other shape.
 */
const calendarDay = asciiDigits(
  z
    .string({ error: typeError('date') })
    // A wrong shape is one message, not also "not a valid date".
    .regex(ISO_DATE, { error: 'validation.date.format', abort: true })
    .refine(
      (v) => {
        const day = new Date(`${v}T00:00:00Z`);
        return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(v);
      },
      { error: 'validation.date.invalid' },
    ),
);
/** A numeric string from a form (`'12'`, `'١٢'`) becomes a number before the field's own rules. */
const numeric = (schema: z.ZodType) => z.preprocess(parseDigits, schema);

function fieldSchema(field: FieldDefinition): z.ZodType {
  switch (field.type) {
    case 'string':
    case 'text':
    case 'password':
    case 'phone':
    case 'color': {
      const max = textMaxLength(field);
      let s = safeString('string', field.type === 'text', field.type !== 'password');
      if (field.required) s = s.min(1, { error: 'validation.whitespace' });
      if (field.min) s = s.min(field.min, { error: 'validation.string.min' });
      s = s.max(max, { error: 'validation.string.max' });
      if (field.type === 'phone')
        s = s.regex(/^$|^\+?[0-9 ()-]{5,20}$/, { error: 'validation.pattern.mismatch' });
      if (field.type === 'color') s = s.regex(/^$|^#[0-9a-fA-F]{6}$/, { error: 'validation.types.hex' });
      return field.type === 'phone' || field.code ? asciiDigits(s) : s;
    }
    case 'email':
      return safeString('email', false)
        .max(textMaxLength(field), { error: 'validation.string.max' })
        .pipe(
          field.required
            ? z.email({ error: 'validation.types.email' })
            : z.union([z.literal(''), z.email({ error: 'validation.types.email' })]),
        );
    case 'url':
      return safeString('url', false)
        .max(textMaxLength(field), { error: 'validation.string.max' })
        .pipe(
          field.required
            ? z.url({ error: 'validation.types.url' })
            : z.union([z.literal(''), z.url({ error: 'validation.types.url' })]),
        );
    case 'integer':
    case 'number': {
      let n =
        field.type === 'integer'
          ? z.int({ error: typeError('integer') })
          : z.number({ error: typeError('number') });
      if (field.min !== undefined) n = n.min(field.min, { error: 'validation.number.min' });
      if (field.max !== undefined) n = n.max(field.max, { error: 'validation.number.max' });
      return numeric(n);
    }
    case 'money':
      // Minor units (see money.ts): a whole number, so a fraction of the smallest unit is refused.
      return numeric(
        z
          .int({ error: typeError('money') })
          .min(field.min ?? 0, { error: 'validation.number.min' })
          .max(field.max ?? MONEY_MAX, { error: 'validation.number.max' }),
      );
    case 'duration':
      // Minutes; `h:mm` or decimal hours as text are read into minutes (duration.ts).
      return z.preprocess(
        (v) => (typeof v === 'string' ? (parseDuration(v) ?? v) : v),
        z
          .int({ error: typeError('duration') })
          .min(field.min ?? 0, { error: 'validation.number.min' })
          .max(field.max ?? MINUTES_PER_DAY, { error: 'validation.number.max' }),
      );
    case 'boolean':
      return z.boolean({ error: typeError('boolean') });
    case 'date':
      return calendarDay;
    case 'datetime':
      return z.iso.datetime({ offset: true, error: 'validation.date.format' });
    case 'enum':
      return z.enum(field.values as [string, ...string[]], {
        error: (issue) => (issue.input === undefined ? 'validation.required' : 'validation.enum'),
      });
    case 'ref':
      return numeric(z.int({ error: typeError('integer') }).positive({ error: 'validation.types.integer' }));
    case 'refs': {
      // Capped so a huge list is a 422, not a database error (SQLite allows 32,766 variables).
      const ids = z
        .array(z.int({ error: typeError('integer') }).positive(), { error: typeError('array') })
        .max(field.max ?? MAX_REFS, { error: 'validation.array.max' });
      // A required list needs one id at least (the clients of a power of attorney).
      return field.required ? ids.min(1, { error: 'validation.required' }) : ids;
    }
    case 'files':
      // Files travel as multipart parts, never inside the JSON body.
      return z.never();
  }
}

function withPresence(field: FieldDefinition, schema: z.ZodType): z.ZodType {
  // A required field with a default may be left out: the server fills the default in.
  if (field.required && field.default !== undefined) return schema.optional();
  if (field.required) return schema;
  if (field.type === 'refs') return schema.optional();
  return schema.nullable().optional();
}

/**
 * A schema built from a definition once per definition object: definitions are constants, and an
 * app (or a test starting several) asks for the same entity's schemas again and again. Zod schemas
 * are immutable, so sharing one is safe.
 */
function perEntity<S>(build: (entity: Entity<Fields>) => S): (entity: Entity<Fields>) => S {
  const built = new WeakMap<Entity<Fields>, S>();
  return (entity) => {
    let schema = built.get(entity);
    if (schema === undefined) built.set(entity, (schema = build(entity)));
    return schema;
  };
}

/** The JSON body schema for create (`POST /`). Files fields are excluded (multipart parts). */
export const createSchema = perEntity((entity) => {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(entity.fields)) {
    if (field.type === 'files') continue;
    shape[key] = withPresence(field, fieldSchema(field));
  }
  if (entity.status) shape.status = z.boolean({ error: typeError('boolean') }).optional();
  return z.object(shape).strip();
});

/**
 * `updatedAt` as read, sent back with a write so that a stale one is refused (409, see
 * `VERSION_FIELD` in conflict.ts); optional everywhere.
 */
export const versionSchema = z.iso.datetime({ offset: true, error: 'validation.date.format' }).optional();

/** The fields of an update or patch body: each optional (left out keeps its value), none cleared unless optional. */
function changeShape(entity: Entity<Fields>): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(entity.fields)) {
    if (field.type === 'files' || field.createOnly) continue;
    // Required fields may be left out (they keep the stored value) but not cleared: no `null`.
    shape[key] = field.required ? fieldSchema(field).optional() : withPresence(field, fieldSchema(field));
  }
  if (entity.status) shape.status = z.boolean({ error: typeError('boolean') }).optional();
  shape.updatedAt = versionSchema;
  return shape;
}

/**
 * The JSON body schema for update (`PUT /`, the id in the body). A field left out keeps its stored
 * value; create-only fields are ignored; `updatedAt` is the version the form was read at.
 */
export const updateSchema = perEntity((entity) =>
  z.object({ id: z.int({ error: typeError('integer') }).positive(), ...changeShape(entity) }).strip(),
);

/** The JSON body schema of `PATCH /:id`: only the given fields change (the id is in the path). */
export const patchSchema = perEntity((entity) => z.object(changeShape(entity)).strip());

/** Field names that the list query accepts as `sort`. */
export function sortableFields(entity: Entity<Fields>): string[] {
  const keys = Object.entries(entity.fields)
    .filter(([, f]) => f.sort || f.unique || f.type === 'ref' || f.type === 'enum')
    .map(([k]) => k);
  return ['id', 'createdAt', 'updatedAt', ...(entity.status ? ['status'] : []), ...keys];
}

/** Field names that the list query accepts as filters. */
export function filterableFields(entity: Entity<Fields>): string[] {
  const keys = Object.entries(entity.fields)
    .filter(([, f]) => f.filter || f.type === 'ref' || f.type === 'enum' || f.type === 'boolean')
    .map(([k]) => k);
  return [...(entity.status ? ['status'] : []), ...(entity.baned ? ['baned'] : []), ...keys];
}

/**
 * The query value of a declared list filter (`?expiresWithin=٣٠`, `?expired=true`,
 * `?filedFrom=2026-01-31`): an integer within the filter's bounds (Arabic-Indic and Persian digits
 * read as ASCII), `true`/`false`, or a calendar day `YYYY-MM-DD` (kept as that text).
 */
function listFilterSchema(filter: ListFilterDefinition): z.ZodType {
  if (filter.type === 'date') return calendarDay;
  if (filter.type === 'boolean')
    return z.enum(['true', 'false'], { error: 'validation.types.boolean' }).transform((v) => v === 'true');
  let n = z.number({ error: 'validation.types.integer' }).int({ error: 'validation.types.integer' });
  if (filter.min !== undefined) n = n.min(filter.min, { error: 'validation.number.min' });
  if (filter.max !== undefined) n = n.max(filter.max, { error: 'validation.number.max' });
  return numeric(n);
}

/**
 * Query string of `GET /`: `page`, `pageSize` (≤ 100), `sort=field:asc|desc`, `q`, per-field
 * filters and the definition's declared `listFilters`.
 */
export const listQuerySchema = perEntity((entity) => {
  const sortable = sortableFields(entity);
  const filters: Record<string, z.ZodType> = {};
  for (const key of filterableFields(entity)) {
    const field = entity.fields[key];
    filters[key] =
      !field || field.type === 'boolean'
        ? z
            .enum(['true', 'false'], { error: 'validation.types.boolean' })
            .transform((v) => v === 'true')
            .optional()
        : field.type === 'ref' ||
            field.type === 'integer' ||
            field.type === 'number' ||
            field.type === 'money' ||
            field.type === 'duration'
          ? numeric(z.coerce.number({ error: 'validation.types.number' })).optional()
          : z.string().max(255).optional();
  }
  for (const [key, filter] of Object.entries(entity.listFilters ?? {}))
    filters[key] = listFilterSchema(filter).optional();
  return z
    .object({
      // Numbers typed or pasted in Arabic-Indic or Persian digits count as the same numbers.
      page: numeric(z.coerce.number({ error: 'validation.types.integer' }).int().min(1)).default(1),
      pageSize: numeric(
        z.coerce
          .number({ error: 'validation.types.integer' })
          .int()
          .min(1)
          .max(MAX_PAGE_SIZE, { error: 'validation.number.max' }),
      ).default(DEFAULT_PAGE_SIZE),
      q: z.string().trim().max(200, { error: 'validation.string.max' }).optional(),
      sort: z
        .string()
        .regex(/^[A-Za-z]+:(asc|desc)$/, { error: 'validation.pattern.mismatch' })
        .refine((v) => sortable.includes(v.split(':')[0] ?? ''), { error: 'validation.enum' })
        .optional(),
      ...filters,
    })
    .strip();
});

/** `count`: the one bound of the message, which its noun agrees with where a language needs it. */
export type ValidationParams = {
  min?: number;
  max?: number;
  count?: number;
  values?: string;
  /** The end of a range a start is after (`validation.date.afterEnd`). */
  to?: string;
};

/**
 * The i18n key and parameters for one zod issue, as `validation.*` keys of `@mizan/i18n`.
 * Both the server (422 bodies) and the client (form errors) translate with it.
 */
export function issueMessage(issue: z.core.$ZodIssue): { key: string; params: ValidationParams } {
  const key = issue.message.startsWith('validation.') ? issue.message : `validation.${issue.code}`;
  const params: ValidationParams = {};
  if ('minimum' in issue) params.min = Number(issue.minimum);
  if ('maximum' in issue) params.max = Number(issue.maximum);
  if ('values' in issue && Array.isArray(issue.values)) params.values = issue.values.join(', ');
  if (issue.code === 'custom' && typeof issue.params?.to === 'string') params.to = issue.params.to;
  const count = params.min ?? params.max;
  if (count !== undefined && (params.min === undefined || params.max === undefined)) params.count = count;
  return { key: key === 'validation.string.min' && params.min === 1 ? 'validation.whitespace' : key, params };
}

/**
 * A day range's query (`from`, `to`, both optional ISO days) that refuses a start after its end:
 * the issue is on `from` (`validation.date.afterEnd`, naming the end).
 *
 * @example const q = orderedRange(z.object({ from: day, to: day }).partial()); // {from:'2026-02-01', to:'2026-01-01'} fails on from
 */
export function orderedRange<S extends z.ZodType<{ from?: string; to?: string }>>(schema: S): S {
  return schema.superRefine((value, ctx) => {
    if (value.from && value.to && value.from > value.to)
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: 'validation.date.afterEnd',
        params: { to: value.to },
      });
  }) as unknown as S;
}
