import type { EntityDefinition, FieldDefinition, FieldType, Fields } from './entity';
import { displayKey } from './relations';

/**
 * The checks `defineEntity` runs on one definition, so a mistake fails at start-up with a message
 * naming the entity and the field instead of surfacing later as a missing column or a 500.
 * Checks that need every definition (reference targets, cycles) are the registry's (`checkRegistry`).
 */

/** Thrown at start-up for a definition that cannot work; the message names entity and field. */
export class DefinitionError extends Error {
  constructor(
    readonly entity: string,
    readonly problems: readonly string[],
  ) {
    super(`Entity "${entity}" is not a valid definition:\n  - ${problems.join('\n  - ')}`);
    this.name = 'DefinitionError';
  }
}

const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
/** `/segment/segment…` of letters, digits, `_` and `-`. */
const PATH = /^(\/[A-Za-z0-9_-]+)+$/;
const REMOTES = ['settings', 'clients', 'legal', 'tasks', 'chat'];
/** Keys every row carries: a field of that name would shadow the system column. */
const SYSTEM_KEYS = ['id', 'createdAt', 'updatedAt', 'status', 'baned'];
/** Parameters of every list query: a declared list filter may not take their names. */
const LIST_QUERY_KEYS = ['page', 'pageSize', 'q', 'sort'];
/** Every field type a definition may use, each once (the field registries of both sides cover them). */
export const FIELD_TYPES = [
  'string',
  'text',
  'email',
  'phone',
  'url',
  'color',
  'password',
  'integer',
  'number',
  'money',
  'duration',
  'boolean',
  'date',
  'datetime',
  'enum',
  'ref',
  'refs',
  'files',
] as const satisfies readonly FieldType[];
// Fails to compile when a field type is added to the definitions but not listed above.
const allListed: [Exclude<FieldType, (typeof FIELD_TYPES)[number]>] extends [never] ? true : never = true;
void allListed;
const TYPES: readonly string[] = FIELD_TYPES;

const isPositiveInt = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

function fieldProblems(key: string, field: FieldDefinition, fields: Fields): string[] {
  const out: string[] = [];
  const at = (text: string) => out.push(`field "${key}": ${text}`);
  if (!CAMEL.test(key)) at('name must be camelCase (letters and digits, starting with a lower-case letter)');
  if (SYSTEM_KEYS.includes(key)) at(`"${key}" is a system column every row has; choose another name`);
  if (!TYPES.includes(field.type)) {
    at(`unknown type "${String(field.type)}"`);
    return out;
  }
  if ('min' in field && 'max' in field && field.min !== undefined && field.max !== undefined) {
    if (field.min > field.max) at(`min (${field.min}) is greater than max (${field.max})`);
  }
  // A field the forms never show can only be required if the server fills it in.
  if (field.form === false && field.required && field.default === undefined)
    at('a required field kept out of forms (form: false) needs a default');
  // What only the server writes is no form's to send (a `create` one is the create form's).
  if (field.setBy !== undefined && field.setBy !== 'create' && field.form !== false)
    at(`a field set by ${field.setBy} needs form: false`);
  if (field.setBy !== undefined && field.type === 'files')
    at('files are uploaded: they cannot be set by the server');
  // An update leaves a create-only field out unread: no value of it would be refused.
  if (field.setBy !== undefined && field.createOnly)
    at(`a create-only field is never updated: setBy ${field.setBy} does not apply`);
  switch (field.type) {
    case 'enum':
      if (!Array.isArray(field.values) || field.values.length === 0) at('an enum needs at least one value');
      else if (new Set(field.values).size !== field.values.length) at('enum values repeat');
      if (field.default !== undefined && !field.values?.includes(field.default as string))
        at(`default "${String(field.default)}" is not one of its values`);
      break;
    case 'ref':
    case 'refs': {
      if (typeof field.entity !== 'string' || !CAMEL.test(field.entity))
        at(`"entity" must name an entity (camelCase), got ${JSON.stringify(field.entity)}`);
      const shown = displayKey(key, field);
      if (shown in fields || SYSTEM_KEYS.includes(shown))
        at(`its labels go under "${shown}", which is already a field; rename one of them`);
      break;
    }
    case 'money':
      // Bounds are minor units, like the values.
      for (const bound of ['min', 'max'] as const)
        if (field[bound] !== undefined && !Number.isSafeInteger(field[bound]))
          at(`${bound} of a money field is in minor units: an integer`);
      if (field.default !== undefined && field.default !== null && !Number.isSafeInteger(field.default))
        at('the default of a money field is in minor units: an integer');
      break;
    case 'duration':
      for (const bound of ['min', 'max'] as const)
        if (field[bound] !== undefined && !Number.isSafeInteger(field[bound]))
          at(`${bound} of a duration field is in minutes: an integer`);
      break;
    case 'files':
      if (!Array.isArray(field.accept) || field.accept.length === 0)
        at('a files field needs "accept" (the MIME types it takes)');
      if (field.maxSize !== undefined && !isPositiveInt(field.maxSize))
        at('"maxSize" of a files field is a bound in bytes (a positive integer), or left out');
      if (!isPositiveInt(field.maxCount)) at('a files field needs "maxCount" (a positive integer)');
      if (field.required) at('a files field cannot be required (files arrive as optional parts)');
      break;
  }
  return out;
}

/**
 * Every problem of one definition, or an empty list.
 *
 * @example
 * definitionProblems({ name: 'Courts', path: 'courts', remote: 'settings', fields: {} })
 * // ['name must be camelCase…', 'path must start with "/"…']
 */
export function definitionProblems(definition: EntityDefinition<Fields>): string[] {
  const out: string[] = [];
  const { name, path, remote, fields } = definition;
  if (typeof name !== 'string' || !CAMEL.test(name))
    out.push('name must be camelCase (letters and digits, starting with a lower-case letter)');
  if (typeof path !== 'string' || !PATH.test(path))
    out.push(`path must start with "/" and hold only /-separated words, got ${JSON.stringify(path)}`);
  if (!REMOTES.includes(remote)) out.push(`remote must be one of ${REMOTES.join(', ')}, got "${remote}"`);
  if (definition.table !== undefined && !/^[a-z][a-z0-9_]*$/.test(definition.table))
    out.push(`table must be snake_case, got "${definition.table}"`);
  if (!fields || typeof fields !== 'object' || Object.keys(fields).length === 0) {
    out.push('fields: a definition needs at least one field');
    return out;
  }
  for (const [key, field] of Object.entries(fields)) out.push(...fieldProblems(key, field, fields));

  const isStored = (key: string) =>
    key in fields && fields[key]!.type !== 'files' && fields[key]!.type !== 'refs';
  const titleField = definition.titleField ?? 'name';
  const title = fields[titleField];
  if (!title) out.push(`titleField "${titleField}" is not a field (the default is "name")`);
  else if (!isStored(titleField) || title.writeOnly)
    out.push(`titleField "${titleField}" must be a stored, readable field`);
  for (const key of definition.optionDetail ?? []) {
    const field = fields[key];
    if (!field || !isStored(key) || field.writeOnly || field.type === 'files' || field.type === 'refs')
      out.push(`optionDetail "${key}" must be a stored, readable field of a single value`);
  }

  if (definition.defaultSort !== undefined) {
    const match = /^([A-Za-z]+):(asc|desc)$/.exec(definition.defaultSort);
    const sortKey = match?.[1];
    if (!sortKey)
      out.push(`defaultSort must read "field:asc" or "field:desc", got "${definition.defaultSort}"`);
    else if (!['id', 'createdAt', 'updatedAt'].includes(sortKey) && !isStored(sortKey))
      out.push(`defaultSort names "${sortKey}", which is not a stored field`);
  }
  for (const group of definition.uniqueTogether ?? []) {
    if (group.length < 2) out.push(`uniqueTogether [${group.join(', ')}] needs two fields or more`);
    for (const key of group)
      if (!isStored(key)) out.push(`uniqueTogether names "${key}", which is not a stored field`);
  }
  // Composite indexes: stored fields or the system columns lists filter and sort by; `id` ends
  // every index already (the server adds it).
  const indexable = (key: string) =>
    isStored(key) ||
    key === 'createdAt' ||
    key === 'updatedAt' ||
    (key === 'status' && definition.status !== false);
  for (const group of definition.indexes ?? []) {
    const label = `indexes [${group.join(', ')}]`;
    if (group.length === 0) out.push(`${label}: an index needs at least one field`);
    if (new Set(group).size !== group.length) out.push(`${label}: a field appears twice`);
    for (const key of group)
      if (!indexable(key))
        out.push(`${label} names "${key}", which is not a stored field (nor createdAt, updatedAt or status)`);
  }
  for (const group of definition.counts ?? []) {
    const label = `counts [${group.join(', ')}]`;
    if (group.length < 1 || group.length > 3) out.push(`${label}: a group names one to three fields`);
    if (new Set(group).size !== group.length) out.push(`${label}: a field appears twice`);
    for (const key of group)
      if (fields[key]?.type !== 'ref' && fields[key]?.type !== 'enum')
        out.push(`${label} names "${key}", which is not a ref or enum field`);
  }
  if (definition.fileDeletePath !== undefined) {
    if (!Object.values(fields).some((f) => f.type === 'files'))
      out.push('fileDeletePath is set but there is no files field');
    const params: string[] = definition.fileDeletePath.match(/:[A-Za-z]+/g) ?? [];
    if (
      !PATH.test(definition.fileDeletePath.replace(/:(ownerId|fileId)\b/g, 'p')) ||
      !params.includes(':fileId') ||
      params.some((p) => p !== ':ownerId' && p !== ':fileId') ||
      new Set(params).size !== params.length
    )
      out.push(
        'fileDeletePath must start with "/" and hold :fileId (and :ownerId when the owner is in the path)',
      );
  }
  for (const [key, filter] of Object.entries(definition.listFilters ?? {})) {
    const at = (text: string) => out.push(`listFilters "${key}": ${text}`);
    if (!CAMEL.test(key))
      at('name must be camelCase (letters and digits, starting with a lower-case letter)');
    if (key in fields || SYSTEM_KEYS.includes(key) || LIST_QUERY_KEYS.includes(key))
      at(`"${key}" is already a field or a list query parameter; choose another name`);
    if (filter.type !== 'integer' && filter.type !== 'boolean' && filter.type !== 'date')
      at(`type must be "integer", "boolean" or "date", got ${JSON.stringify(filter.type)}`);
    else if (filter.type !== 'integer' && (filter.min !== undefined || filter.max !== undefined))
      at(`a ${filter.type} filter has no min or max`);
    for (const bound of ['min', 'max'] as const)
      if (filter[bound] !== undefined && !Number.isSafeInteger(filter[bound]))
        at(`${bound} must be an integer`);
    if (filter.min !== undefined && filter.max !== undefined && filter.min > filter.max)
      at(`min (${filter.min}) is greater than max (${filter.max})`);
  }
  return out;
}

/** Throws a `DefinitionError` listing every problem of `definition`; see `definitionProblems`. */
export function checkDefinition(definition: EntityDefinition<Fields>): void {
  const problems = definitionProblems(definition);
  if (problems.length) throw new DefinitionError(String(definition.name), problems);
}
