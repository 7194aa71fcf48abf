import {
  DATE_FORMAT,
  DOCUMENT_RECORDS,
  MONEY_SCALE,
  CURRENCIES,
  currencyOfCountry,
  type CurrencyCode,
  displayKey,
  formatHijri,
  getEntity,
  localizeDigits,
  moneyInWords,
  moneyToMajor,
  referencesIn,
  registry,
  type DocumentField,
  type DocumentRecordKind,
  type Entity,
  type FieldDefinition,
  type Fields,
  type SystemSettings,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { joinTableName } from '../db/migrations';
import type { ActorContext } from '../engine/context';
import { cols } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';
import { translate, type Lang } from '../http/messages';
import { present } from '../http/values';
import { invoiceQrPng } from '../finance/qr';
import { documentImage, type DocumentImage } from './images';

/**
 * Merge fields, derived from the entity definitions: what a template may name (the catalogue)
 * and the values one record gives them (the data), by the same walk so that the two never
 * disagree. A record kind offers
 * - its own fields (`lawsuit.fileNumber`), each formatted by its type (`formatField`);
 * - the fields of the rows it references, two steps deep (`lawsuit.court.name`,
 *   `session.lawsuit.customer.name`); a `refs` field as a loop (`lawsuit.customers`), its
 *   titles joined (`lawsuit.customersText`) and its first row (`lawsuit.customer`);
 * - loops over the rows that reference it, by a `ref` field (`{#sessions}{date}{/sessions}` in a
 *   lawsuit) or among a `refs` field's rows (`{#lawsuits}{fileNumber}{/lawsuits}` in a client: the
 *   lawsuits naming the client), and the next of them by date (`next.sessions.date`) when they
 *   have a `date` field;
 * - the images of its kind (`RECORD_IMAGES`: an issued invoice's Saudi QR code, `{%invoice.qr}`);
 * - the office (`office.name`, `office.address`, `office.vatNumber`…, its logo as an image `{%office.logo}`) and
 *   today (`today`, `todayHijri`…).
 * A field added to a definition is offered at once, no code.
 */

/** How deep references are followed from the record (the record's lawsuit's client). */
const REF_DEPTH = 2;
/** Most rows of a loop a document lists. */
export const LOOP_ROWS = 500;

/** How values read: the template's language, the office's calendar, currency and time zone. */
export interface FormatStyle {
  lng: Lang;
  calendar: 'hijri' | 'gregorian';
  country: string;
  timeZone: string;
}

const usable = (field: FieldDefinition) =>
  field.type !== 'files' && !field.writeOnly && field.type !== 'password';
const entityOf = (name: string) => getEntity(name) as Entity<Fields>;

/** The variants of a field in a document: a date in each calendar, an amount in words. */
function variants(key: string, field: FieldDefinition): { tag: string; suffix: string }[] {
  if (field.type === 'date' || field.type === 'datetime')
    return [
      { tag: key, suffix: '' },
      { tag: `${key}Hijri`, suffix: 'hijri' },
      { tag: `${key}Gregorian`, suffix: 'gregorian' },
    ];
  if (field.type === 'money')
    return [
      { tag: key, suffix: '' },
      { tag: `${key}Words`, suffix: 'words' },
    ];
  return [{ tag: key, suffix: '' }];
}

/** The singular of a refs field's first row: `customerIds` → `customer`. */
const firstKey = (key: string) => (/.Ids$/.test(key) ? key.slice(0, -3) : `${key}First`);

function gregorianText(value: string, type: 'date' | 'datetime', style: FormatStyle): string {
  const day = value.slice(0, 10);
  const [y, m, d] = day.split('-');
  let text = DATE_FORMAT.replace('YYYY', y!)
    .replace('M', String(Number(m)))
    .replace('D', String(Number(d)));
  if (type === 'datetime') {
    const time = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      timeZone: style.timeZone,
    }).format(new Date(value));
    text += ` ${time}`;
  }
  return localizeDigits(text, style.lng);
}

/** A date's day as an instant at noon UTC (a `YYYY-MM-DD` is a calendar day, no zone). */
const dayInstant = (value: string, type: 'date' | 'datetime') =>
  type === 'date' ? new Date(`${value.slice(0, 10)}T12:00:00Z`) : new Date(value);

/** The three texts of a date: the office's first calendar (the other in brackets), Hijri, Gregorian. */
export function dateTexts(
  value: string,
  type: 'date' | 'datetime',
  style: FormatStyle,
): { both: string; hijri: string; gregorian: string } {
  const hijri = formatHijri(dayInstant(value, type), style.lng, type === 'date' ? 'UTC' : style.timeZone);
  const gregorian = gregorianText(value, type, style);
  const both = style.calendar === 'hijri' ? `${hijri} (${gregorian})` : `${gregorian} (${hijri})`;
  return { both, hijri, gregorian };
}

/**
 * An amount (minor units) with its currency's name: `١٬٢٠٠٫٠٠ جنيه`; in `code` when given (an
 * issued invoice's own currency), else the office country's.
 */
export function moneyText(amount: number, style: FormatStyle, code?: string): string {
  const currency: { code: string; ar: { major: { one: string } } } =
    (code ? (CURRENCIES as Record<string, (typeof CURRENCIES)[CurrencyCode]>)[code] : undefined) ??
    (code ? { code, ar: { major: { one: code } } } : currencyOfCountry(style.country));
  const number = new Intl.NumberFormat(style.lng === 'ar' ? 'ar-EG' : 'en-GB', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Number(moneyToMajor(amount)));
  return style.lng === 'ar' ? `${number} ${currency.ar.major.one}` : `${number} ${currency.code}`;
}

/**
 * One field's value as the document shows it, each variant by its tag (see `variants`). Empty
 * values are left out (the generation lists them as missing).
 */
export function formatField(
  entity: string,
  key: string,
  field: FieldDefinition,
  value: unknown,
  style: FormatStyle,
): Record<string, string> {
  if (!present(value)) return {};
  switch (field.type) {
    case 'date':
    case 'datetime': {
      const texts = dateTexts(String(value), field.type, style);
      return { [key]: texts.both, [`${key}Hijri`]: texts.hijri, [`${key}Gregorian`]: texts.gregorian };
    }
    case 'money': {
      const amount = Number(value);
      return {
        [key]: moneyText(amount, style),
        [`${key}Words`]: moneyInWords(
          Math.abs(amount),
          currencyOfCountry(style.country),
          MONEY_SCALE,
          style.lng,
        ),
      };
    }
    case 'integer':
    case 'number':
      return {
        [key]: field.code
          ? localizeDigits(String(value), style.lng)
          : new Intl.NumberFormat(style.lng === 'ar' ? 'ar-EG' : 'en-GB').format(Number(value)),
      };
    case 'boolean':
      return { [key]: translate(style.lng, value ? 'common.yes' : 'common.no') };
    case 'enum':
      return { [key]: translate(style.lng, `entities.${entity}.values.${key}.${String(value)}`) };
    default:
      return { [key]: field.code ? localizeDigits(String(value), style.lng) : String(value) };
  }
}

/** A field's label in both languages, with its variant's mark ("(Hijri)", "in words"). */
function labelOf(entity: string, key: string, suffix: string): { ar: string; en: string } {
  const one = (lng: Lang) => {
    const base = translate(lng, `entities.${entity}.fields.${key}`);
    return suffix ? translate(lng, `documents.variant.${suffix}`, { label: base }) : base;
  };
  return { ar: one('ar'), en: one('en') };
}

const entityLabel = (entity: string) => ({
  ar: translate('ar', `entities.${entity}.title`),
  en: translate('en', `entities.${entity}.title`),
});

/** A made-up value of a field's type, as a document in each language would show it. */
function exampleOf(
  entity: string,
  key: string,
  field: FieldDefinition,
  tag: string,
): { ar: string; en: string } {
  const one = (lng: Lang): string => {
    const style: FormatStyle = { lng, calendar: 'hijri', country: 'EG', timeZone: 'Africa/Cairo' };
    const sample: unknown =
      field.type === 'date'
        ? '2026-03-15'
        : field.type === 'datetime'
          ? '2026-03-15T08:30:00.000Z'
          : field.type === 'money'
            ? 120000
            : field.type === 'integer' || field.type === 'number'
              ? 1447
              : field.type === 'boolean'
                ? true
                : field.type === 'enum'
                  ? field.values[0]
                  : field.type === 'ref' || field.type === 'refs'
                    ? translate(lng, `entities.${field.entity}.singular`)
                    : translate(lng, `entities.${entity}.fields.${key}`);
    const texts = formatField(
      entity,
      key,
      field.type === 'ref' || field.type === 'refs' ? { type: 'string' } : field,
      sample,
      style,
    );
    const leaf = tag.slice(tag.lastIndexOf('.') + 1);
    return texts[leaf] ?? Object.values(texts)[0] ?? '';
  };
  return { ar: one('ar'), en: one('en') };
}

/** Walks an entity's fields for the catalogue: values and nested references under `prefix`. */
function catalogueOf(
  entity: Entity<Fields>,
  prefix: string,
  depth: number,
  loop: string | null,
  out: DocumentField[],
): void {
  const at = (key: string) => (prefix ? `${prefix}.${key}` : key);
  for (const [key, field] of Object.entries(entity.fields)) {
    if (!usable(field)) continue;
    if (field.type === 'ref' || field.type === 'refs') {
      const target = entityOf(field.entity);
      const shown = displayKey(key, field);
      if (field.type === 'refs') {
        out.push({
          tag: at(`${shown}Text`),
          kind: 'value',
          loop,
          label: labelOf(entity.name, key, ''),
          example: exampleOf(entity.name, key, field, at(`${shown}Text`)),
        });
      }
      if (depth >= REF_DEPTH || loop) {
        if (field.type === 'ref')
          out.push({
            tag: at(shown),
            kind: 'value',
            loop,
            label: labelOf(entity.name, key, ''),
            example: exampleOf(entity.name, key, field, at(shown)),
          });
        continue;
      }
      const nested = field.type === 'ref' ? at(shown) : at(firstKey(key));
      catalogueOf(target, nested, depth + 1, loop, out);
      continue;
    }
    for (const { tag, suffix } of variants(key, field))
      out.push({
        tag: at(tag),
        kind: 'value',
        loop,
        label: labelOf(entity.name, key, suffix),
        example: exampleOf(entity.name, key, field, tag),
      });
  }
}

/**
 * Rows of other entities that reference `entity` by a `ref` or a `refs` field: the record's
 * loops, one per entity (named after it; its first such field when it has several).
 */
function loopsOf(entity: Entity<Fields>) {
  const seen = new Set<string>();
  return referencesIn(entity.name, registry as readonly Entity<Fields>[]).filter((r) => {
    if (r.entity.name === entity.name || r.entity.name === 'documentTemplates' || seen.has(r.entity.name))
      return false;
    seen.add(r.entity.name);
    return true;
  });
}

const OFFICE_FIELDS = ['name', 'address', 'phone', 'email', 'vatNumber'] as const;
const TODAY_TAGS = [
  ['today', ''],
  ['todayHijri', 'hijri'],
  ['todayGregorian', 'gregorian'],
] as const;

/**
 * Images a record kind offers under its name beside its fields (labels and examples:
 * `documents.images.<kind>.<key>` and `…Example`), each read from the record's row and the office's
 * settings; none (the tag left empty, listed as missing) when the record has no such image.
 */
const RECORD_IMAGES: Partial<
  Record<
    DocumentRecordKind,
    readonly {
      key: string;
      read: (settings: SystemSettings, row: ApiRow) => Promise<DocumentImage | undefined>;
    }[]
  >
> = {
  // An issued invoice's Saudi QR code (ZATCA phase 1): the PNG of the QR route, none for a draft,
  // a void invoice never issued, or an office outside Saudi Arabia or without a VAT number.
  invoice: [
    {
      key: 'qr',
      read: async (settings, row) => {
        const png = await invoiceQrPng(settings, row);
        return (png && documentImage(png)) ?? undefined;
      },
    },
  ],
};

/** Every merge field a template of `kind` may use, in the order a person reads them. */
export function catalogue(kind: DocumentRecordKind): readonly DocumentField[] {
  let fields = catalogues.get(kind);
  if (!fields) catalogues.set(kind, (fields = Object.freeze(buildCatalogue(kind))));
  return fields;
}

/** Each record kind's catalogue, built once: it depends only on the definitions and the translations. */
const catalogues = new Map<DocumentRecordKind, readonly DocumentField[]>();

function buildCatalogue(kind: DocumentRecordKind): DocumentField[] {
  const entity = entityOf(DOCUMENT_RECORDS[kind]);
  const out: DocumentField[] = [];
  catalogueOf(entity, kind, 1, null, out);
  for (const { key } of RECORD_IMAGES[kind] ?? []) {
    const text = (lng: Lang, suffix = '') => translate(lng, `documents.images.${kind}.${key}${suffix}`);
    out.push({
      tag: `${kind}.${key}`,
      kind: 'image',
      loop: null,
      label: { ar: text('ar'), en: text('en') },
      example: { ar: text('ar', 'Example'), en: text('en', 'Example') },
    });
  }
  for (const ref of loopsOf(entity)) {
    const label = entityLabel(ref.entity.name);
    out.push({ tag: ref.entity.name, kind: 'loop', loop: null, label, example: label });
    catalogueOf(ref.entity, '', REF_DEPTH, ref.entity.name, out);
    if (ref.entity.fields.date?.type === 'date')
      catalogueOf(ref.entity, `next.${ref.entity.name}`, REF_DEPTH, null, out);
  }
  for (const key of OFFICE_FIELDS) {
    const label = {
      ar: translate('ar', `documents.office.${key}`),
      en: translate('en', `documents.office.${key}`),
    };
    out.push({ tag: `office.${key}`, kind: 'value', loop: null, label, example: label });
  }
  out.push({
    tag: 'office.logo',
    kind: 'image',
    loop: null,
    label: { ar: translate('ar', 'documents.office.logo'), en: translate('en', 'documents.office.logo') },
    example: { ar: translate('ar', 'documents.imageExample'), en: translate('en', 'documents.imageExample') },
  });
  for (const [tag, suffix] of TODAY_TAGS) {
    const label = (lng: Lang) => {
      const base = translate(lng, 'documents.today');
      return suffix ? translate(lng, `documents.variant.${suffix}`, { label: base }) : base;
    };
    out.push({
      tag,
      kind: 'value',
      loop: null,
      label: { ar: label('ar'), en: label('en') },
      example: exampleOf('', tag, { type: 'date' }, tag),
    });
  }
  return out;
}

/**
 * The office's logo as a document image, or undefined (no logo, its file gone, or a kind Word
 * does not draw from a plain picture part: an SVG or WebP logo is left out, listed as missing).
 */
async function officeLogo(app: FastifyInstance, fileId: number | null): Promise<DocumentImage | undefined> {
  if (fileId === null) return undefined;
  const row = await app.db
    .selectFrom('files')
    .select('stored_name')
    .where('id', '=', fileId)
    .executeTakeFirst();
  if (!row) return undefined;
  const found = await app.fileStore.stat(String(row.stored_name));
  if (!found) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of (await app.fileStore.read(
    String(row.stored_name),
    found,
  )) as AsyncIterable<Buffer>)
    chunks.push(chunk);
  return documentImage(Buffer.concat(chunks)) ?? undefined;
}

/** Reads rows for the data, as the actor may see them. */
interface Loader {
  app: FastifyInstance;
  actor: ActorContext;
  style: FormatStyle;
}

async function rowsOf(loader: Loader, entity: string, ids: readonly number[]): Promise<ApiRow[]> {
  if (!ids.length) return [];
  return loader.app.entities.get(entity).getMany(ids, loader.actor);
}

/** One row's values for the document, following references `depth` steps further. */
async function dataOf(
  loader: Loader,
  entity: Entity<Fields>,
  row: ApiRow,
  depth: number,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(entity.fields)) {
    if (!usable(field)) continue;
    if (field.type === 'ref' || field.type === 'refs') {
      const shown = displayKey(key, field);
      const labels = (
        field.type === 'ref' ? [row[shown]].filter(Boolean) : ((row[shown] as unknown[]) ?? [])
      ) as { id: number; name: string | null }[];
      if (field.type === 'refs') out[`${shown}Text`] = labels.map((l) => l.name ?? '').join(style(loader));
      if (depth >= REF_DEPTH) {
        if (field.type === 'ref' && labels[0]) out[shown] = labels[0].name ?? '';
        continue;
      }
      const target = entityOf(field.entity);
      const ids = field.type === 'ref' ? labels.slice(0, 1).map((l) => l.id) : labels.map((l) => l.id);
      const rows = await rowsOf(loader, field.entity, ids);
      const nested = await Promise.all(rows.map((r) => dataOf(loader, target, r, depth + 1)));
      if (field.type === 'ref') {
        if (nested[0]) out[shown] = nested[0];
      } else {
        out[shown] = nested;
        if (nested[0]) out[firstKey(key)] = nested[0];
      }
      continue;
    }
    Object.assign(out, formatField(entity.name, key, field, row[key], loader.style));
  }
  return out;
}

const style = (loader: Loader) => (loader.style.lng === 'ar' ? '، ' : ', ');

/**
 * The values a record gives its template: the record under its kind's name, its loops, the next
 * of each dated loop, the office (its logo unless `images` is false) and today.
 */
export async function recordData(
  app: FastifyInstance,
  actor: ActorContext,
  kind: DocumentRecordKind,
  id: number,
  settings: SystemSettings,
  lng: Lang,
  today: string,
  options: { images?: boolean } = {},
): Promise<Record<string, unknown>> {
  const loader: Loader = {
    app,
    actor,
    style: {
      lng,
      calendar: settings.calendar === 'gregorian' ? 'gregorian' : 'hijri',
      country: settings.officeCountry,
      timeZone: settings.timeZone,
    },
  };
  const entity = entityOf(DOCUMENT_RECORDS[kind]);
  const row = await app.entities.get(entity.name).get(id, actor);
  const own = await dataOf(loader, entity, row, 1);
  // Texts (client messages) draw no image: these are read for documents only.
  if (options.images !== false)
    for (const image of RECORD_IMAGES[kind] ?? []) own[image.key] = await image.read(settings, row);
  const data: Record<string, unknown> = { [kind]: own };
  const next: Record<string, unknown> = {};
  for (const ref of loopsOf(entity)) {
    const dated = ref.entity.fields.date?.type === 'date';
    const table = ref.entity.table;
    const columns = cols(ref.entity);
    const links = joinTableName(ref.entity, ref.field);
    const found = await (
      ref.type === 'ref'
        ? app.db.selectFrom(table).select(`${table}.id as id`).where(columns[ref.field], '=', id)
        : app.db
            .selectFrom(table)
            .innerJoin(links, `${links}.owner_id`, `${table}.id`)
            .select(`${table}.id as id`)
            .where(`${links}.ref_id`, '=', id)
    )
      .orderBy(`${table}.${dated ? columns.date : 'id'}`)
      .orderBy(`${table}.id`)
      .limit(LOOP_ROWS)
      .execute();
    const rows = await rowsOf(
      loader,
      ref.entity.name,
      found.map((r) => Number(r.id)),
    );
    if (dated) rows.sort((a, b) => String(a.date).localeCompare(String(b.date)) || a.id - b.id);
    const list = await Promise.all(rows.map((r) => dataOf(loader, ref.entity, r, REF_DEPTH)));
    data[ref.entity.name] = list;
    if (dated) {
      const index = rows.findIndex((r) => String(r.date) >= today);
      if (index >= 0) next[ref.entity.name] = list[index];
    }
  }
  data.next = next;
  data.office = {
    name: settings.officeName,
    address: settings.address ?? '',
    phone: settings.phone ? localizeDigits(settings.phone, lng) : '',
    email: settings.email ?? '',
    vatNumber: settings.vatNumber ? localizeDigits(settings.vatNumber, lng) : '',
    // Texts (client messages) draw no image: the logo's bytes are read for documents only.
    ...(options.images === false ? {} : { logo: await officeLogo(app, settings.logoFileId) }),
  };
  const texts = dateTexts(today, 'date', loader.style);
  data.today = texts.both;
  data.todayHijri = texts.hijri;
  data.todayGregorian = texts.gregorian;
  return data;
}
