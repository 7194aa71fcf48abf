import { setByServer, type Entity, type FieldDefinition, type Fields } from '@mizan/contracts';
import { resources } from '@mizan/i18n/resources';

/** Fields an import file may fill: everything a person types, not uploads or passwords. */
export function importableFields(entity: Entity<Fields>): [string, FieldDefinition][] {
  return Object.entries(entity.fields).filter(
    // What only the server sets on create (`setByServer`) is no file's to fill either.
    ([, field]) =>
      field.type !== 'files' &&
      field.type !== 'password' &&
      !field.writeOnly &&
      !setByServer(field, 'create'),
  );
}

type Tree = { [key: string]: string | Tree };

function lookup(tree: unknown, path: string[]): string | undefined {
  let node: unknown = tree;
  for (const part of path) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Tree)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** A field's label in one language, from the `entities` namespace (the key itself when missing). */
export function fieldLabel(entity: Entity<Fields>, field: string, lng: 'ar' | 'en'): string {
  return lookup(resources[lng].entities, [entity.name, 'fields', field]) ?? field;
}

/** An enum value's label in one language. */
export function enumLabel(entity: Entity<Fields>, field: string, value: string, lng: 'ar' | 'en'): string {
  return lookup(resources[lng].entities, [entity.name, 'values', field, value]) ?? value;
}

/** Folds the differences people make when typing a header or a name: case, spacing, Arabic letter forms. */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u064B-\u0652\u0640]/g, '') // harakat and tatweel
    .replace(/[إأآ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/ة/g, 'ه')
    .replace(/\*+$/, '') // templates mark required columns with a star
    .replace(/[\s_-]+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Every spelling a column header may take for a field: its key and its Arabic and English labels. */
function headerAliases(entity: Entity<Fields>, key: string, field: FieldDefinition | undefined): string[] {
  const names = [key, fieldLabel(entity, key, 'ar'), fieldLabel(entity, key, 'en')];
  // `governorateId` may also be written `governorate`.
  if (field?.type === 'ref' && key.endsWith('Id')) names.push(key.slice(0, -2));
  if (field?.type === 'refs' && key.endsWith('Ids')) names.push(key.slice(0, -3));
  return names.map(normalise);
}

export interface ColumnMap {
  /** For each column, the field it fills (null: ignored). */
  columns: (string | null)[];
  /** Headers that matched no field, as written. */
  ignored: string[];
  /** Required fields (without a default) that no column fills. */
  missing: string[];
}

/** Matches headers to field names (or `status`), by key or by translated label. */
export function mapHeaders(entity: Entity<Fields>, headers: string[]): ColumnMap {
  const aliases = new Map<string, string>();
  const targets: [string, FieldDefinition | undefined][] = importableFields(entity);
  if (entity.status) targets.push(['status', undefined]);
  for (const [key, field] of targets) {
    for (const alias of headerAliases(entity, key, field)) if (!aliases.has(alias)) aliases.set(alias, key);
  }
  const used = new Set<string>();
  const ignored: string[] = [];
  const columns = headers.map((header) => {
    const key = aliases.get(normalise(header));
    // A second column for the same field is ignored rather than silently overwriting the first.
    if (!key || used.has(key)) {
      if (header.trim() !== '') ignored.push(header);
      return null;
    }
    used.add(key);
    return key;
  });
  const missing = importableFields(entity)
    .filter(([key, field]) => field.required && field.default === undefined && !used.has(key))
    .map(([key]) => key);
  return { columns, ignored, missing };
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'نعم', 'صح', 'active', 'نشط', 'مفعل', 'فعال']);
const FALSE_WORDS = new Set([
  'false',
  '0',
  'no',
  'n',
  'لا',
  'خطا',
  'inactive',
  'غير نشط',
  'معطل',
  'غير مفعل',
]);

/** A cell as a boolean, or the text itself so that validation reports the type mismatch. */
export function toBoolean(text: string): boolean | string {
  const word = normalise(text);
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return text;
}

/** A cell as a number, or the text itself so that validation reports the type mismatch. */
export function toNumber(text: string): number | string {
  // Arabic-Indic digits are common in Arabic spreadsheets.
  const western = text.replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/٫/g, '.');
  return /^-?\d+(\.\d+)?$/.test(western.trim()) ? Number(western) : text;
}

/** An enum cell given as the value itself or as its Arabic or English label. */
export function toEnum(entity: Entity<Fields>, key: string, values: readonly string[], text: string): string {
  const wanted = normalise(text);
  for (const value of values) {
    if (
      normalise(value) === wanted ||
      normalise(enumLabel(entity, key, value, 'ar')) === wanted ||
      normalise(enumLabel(entity, key, value, 'en')) === wanted
    )
      return value;
  }
  return text;
}

/** Splits a many-reference cell: `a; b`, `a|b` or `a، b`. */
export function splitList(text: string): string[] {
  return text
    .split(/[;|،]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** How a list of names is joined in a message: the Arabic comma in Arabic. */
export const listSeparator = (lang: 'ar' | 'en'): string => (lang === 'ar' ? '، ' : ', ');
