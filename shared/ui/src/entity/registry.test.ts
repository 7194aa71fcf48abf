import {
  createSchema,
  FIELD_TYPES,
  registry,
  updateSchema,
  type Entity,
  type FieldDefinition,
  type Fields,
} from '@mizan/contracts';
import { i18n, resources, LANGUAGES } from '@mizan/i18n';
import { deriveColumns } from './columns';
import { entityText } from './labels';
import { formFieldNames, formToBody, initialFormValues } from './formValues';
import { fieldRegistry } from '../fields/registry';

/** A valid wire value for each field type, within the field's own bounds. */
function sample(field: FieldDefinition): unknown {
  switch (field.type) {
    case 'string':
    case 'text':
      return 'ق'.repeat(Math.max(field.min ?? 1, 3));
    case 'password':
      return 'Sahm-2024-Mizan!';
    case 'email':
      return 'office@example.com';
    case 'phone':
      return '+966 500 000 000';
    case 'url':
      return 'https://example.com';
    case 'color':
      return '#1d4ed8';
    case 'integer':
    case 'number':
      return field.min ?? 1;
    case 'money':
      return Math.max(field.min ?? 0, 123_450);
    case 'duration':
      return Math.max(field.min ?? 0, 95);
    case 'boolean':
      return true;
    case 'date':
      return '2024-05-01';
    case 'datetime':
      return '2024-05-01T09:30:00.000Z';
    case 'enum':
      return field.values[field.values.length - 1];
    case 'ref':
      return 7;
    case 'refs':
      return [3, 5];
    case 'files':
      return [];
  }
}

type Tree = { [key: string]: string | Tree | undefined };
const at = (tree: unknown, ...path: string[]) =>
  path.reduce<unknown>(
    (node, key) => (node && typeof node === 'object' ? (node as Tree)[key] : undefined),
    tree,
  );

const systemFields = (entity: Entity<Fields>) => [
  'id',
  'createdAt',
  'updatedAt',
  ...(entity.status ? ['status'] : []),
  ...(entity.baned ? ['baned'] : []),
];

// The generic layer is tested once over the whole registry (STYLE, "Declare once").
describe.each(registry.map((e) => [e.name, e as Entity<Fields>] as const))('%s', (_name, entity) => {
  it.each(LANGUAGES)('has a title, a singular, every field label and enum value in %s', (lng) => {
    const entry = at(resources[lng].entities, entity.name);
    expect(typeof at(entry, 'title')).toBe('string');
    expect(typeof at(entry, 'singular')).toBe('string');
    for (const field of [...Object.keys(entity.fields), ...systemFields(entity)])
      expect([field, typeof at(entry, 'fields', field)]).toEqual([field, 'string']);
    for (const [name, field] of Object.entries(entity.fields))
      if (field.type === 'enum')
        for (const value of field.values)
          expect([value, typeof at(entry, 'values', name, value)]).toEqual([value, 'string']);
  });

  it('derives translated columns for every readable field', () => {
    const text = entityText(entity, i18n.getFixedT('ar'), 'ar');
    const columns = deriveColumns(entity, text);
    const readable = Object.entries(entity.fields).filter(([, f]) => !f.writeOnly && f.type !== 'password');
    expect(columns.map((c) => c.key)).toEqual([
      'id',
      ...readable.map(([k]) => k),
      ...systemFields(entity).slice(3),
      'createdAt',
      'updatedAt',
    ]);
    for (const column of columns)
      expect(column.title).toBe(at(resources.ar.entities, entity.name, 'fields', column.key));
  });

  it('keeps fields marked form: false out of both forms', () => {
    const hidden = Object.entries(entity.fields)
      .filter(([, f]) => f.form === false)
      .map(([k]) => k);
    for (const mode of ['create', 'update'] as const)
      expect(formFieldNames(entity, mode).filter((n) => hidden.includes(n))).toEqual([]);
  });

  it('leaves out of the edit form what an update cannot change; the create form asks for what only it sets', () => {
    const fields = Object.entries(entity.fields);
    const fixed = fields.filter(([, f]) => f.createOnly || f.setBy).map(([k]) => k);
    expect(formFieldNames(entity, 'update').filter((n) => fixed.includes(n))).toEqual([]);
    const onCreate = fields.filter(([, f]) => f.setBy === 'create' && f.form !== false).map(([k]) => k);
    expect(formFieldNames(entity, 'create')).toEqual(expect.arrayContaining(onCreate));
  });

  it('asks exactly for the required fields without a default when the create form is blank', () => {
    const text = entityText(entity, i18n.getFixedT('ar'), 'ar');
    const names = formFieldNames(entity, 'create');
    const blank = Object.fromEntries(names.map((n) => [n, undefined]));
    const { body } = formToBody(entity, text, names, blank, 'create');
    const result = createSchema(entity).safeParse(body);
    const missing = result.success
      ? []
      : [...new Set(result.error.issues.map((i) => String(i.path[0])))].sort();
    const required = Object.entries(entity.fields)
      .filter(([, f]) => f.required && f.default === undefined && f.type !== 'files')
      .map(([k]) => k)
      .sort();
    expect(missing).toEqual(required);
  });

  it('round-trips a stored row through the edit form into a body the update schema accepts', () => {
    const text = entityText(entity, i18n.getFixedT('en'), 'en');
    const row: Record<string, unknown> = {
      id: 42,
      createdAt: '2024-05-01T09:30:00.000Z',
      updatedAt: '2024-05-01T09:30:00.000Z',
      status: false,
    };
    for (const [name, field] of Object.entries(entity.fields))
      if (!field.writeOnly) row[name] = sample(field);
    const names = formFieldNames(entity, 'update');
    const values = initialFormValues(entity, text, names, row as never);
    const { body } = formToBody(entity, text, names, values, 'update');
    const parsed = updateSchema(entity).safeParse({ id: 42, ...body });
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    for (const name of names) {
      const field = entity.fields[name]!;
      if (field.writeOnly || field.type === 'files') continue;
      expect([name, body[name]]).toEqual([name, row[name]]);
    }
    if (entity.status) expect(body.status).toBe(false);
  });
});

describe('field registry', () => {
  it('maps every contracts field type to a cell, an export value, a filter and an input', () => {
    expect(Object.keys(fieldRegistry).sort()).toEqual([...FIELD_TYPES].sort());
    for (const kind of Object.values(fieldRegistry))
      for (const part of ['cell', 'text', 'filter', 'input', 'toForm', 'fromForm'] as const)
        expect(typeof kind[part]).toBe('function');
  });
});
