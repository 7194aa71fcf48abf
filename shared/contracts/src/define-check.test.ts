import { DefinitionError } from './define-check';
import { defineEntity, type EntityDefinition, type Fields } from './entity';
import { checkRegistry } from './registry';

const base = {
  name: 'gadgets',
  path: '/admin/settings/gadgets',
  remote: 'settings',
  fields: { name: { type: 'string', required: true } },
} as const satisfies EntityDefinition<Fields>;

/** The message `defineEntity` fails with for `change` applied to a valid definition. */
function failure(change: Record<string, unknown>): string {
  try {
    defineEntity({ ...base, ...change } as unknown as EntityDefinition<Fields>);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error('defineEntity accepted the definition');
}

const scans = { type: 'files', accept: ['application/pdf'], maxSize: 10, maxCount: 1 } as const;

describe('defineEntity checks its definition', () => {
  it('accepts a valid definition', () => {
    expect(defineEntity(base).table).toBe('gadgets');
  });

  it('accepts a field the create form sets and only an action changes afterwards, in the forms', () => {
    const fields = { ...base.fields, dueOn: { type: 'date', setBy: 'create' } } as const;
    expect(defineEntity({ ...base, fields }).fields.dueOn.setBy).toBe('create');
  });

  it('accepts a fileDeletePath with or without the owner, and declared list filters', () => {
    for (const fileDeletePath of ['/delete/file/:ownerId/:fileId', '/files/:fileId'])
      expect(
        defineEntity({ ...base, fields: { ...base.fields, scans }, fileDeletePath }).fileDeletePath,
      ).toBe(fileDeletePath);
    const listFilters = {
      dueWithin: { type: 'integer', min: 0, max: 365 },
      overdue: { type: 'boolean' },
    } as const;
    expect(defineEntity({ ...base, listFilters }).listFilters).toEqual(listFilters);
  });

  it('accepts composite indexes over fields and the system columns lists sort by', () => {
    const fields = { ...base.fields, ownerId: { type: 'ref', entity: 'employees' } } as const;
    const indexes = [['ownerId', 'name'], ['status', 'createdAt'], ['updatedAt']] as const;
    expect(defineEntity({ ...base, fields, indexes }).indexes).toEqual(indexes);
  });

  it('accepts kept filter counts over ref and enum fields', () => {
    const fields = {
      ...base.fields,
      ownerId: { type: 'ref', entity: 'employees' },
      kind: { type: 'enum', values: ['a', 'b'] },
    } as const;
    const counts = [['ownerId', 'kind'], ['kind']] as const;
    expect(defineEntity({ ...base, fields, counts }).counts).toEqual(counts);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a name that is not camelCase', { name: 'Gadgets' }, /"Gadgets".*name must be camelCase/s],
    ['a snake_case name', { name: 'gadget_types' }, /name must be camelCase/],
    ['a path without a leading slash', { path: 'admin/gadgets' }, /path must start with "\/"/],
    ['a path with a space', { path: '/admin/my gadgets' }, /path must start with "\/"/],
    ['an unknown remote', { remote: 'billing' }, /remote must be one of/],
    ['a table that is not snake_case', { table: 'Gadgets' }, /table must be snake_case/],
    ['no fields', { fields: {} }, /at least one field/],
    [
      'a field name that is not camelCase',
      { fields: { name: { type: 'string' }, 'serial-no': { type: 'string' } } },
      /field "serial-no": name must be camelCase/,
    ],
    [
      'a field shadowing a system column',
      { fields: { name: { type: 'string' }, createdAt: { type: 'date' } } },
      /field "createdAt": "createdAt" is a system column/,
    ],
    [
      'an unknown field type',
      { fields: { name: { type: 'string' }, size: { type: 'bigint' } } },
      /field "size": unknown type "bigint"/,
    ],
    [
      'min above max',
      { fields: { name: { type: 'string', min: 10, max: 5 } } },
      /field "name": min \(10\) is greater than max \(5\)/,
    ],
    [
      'a field set by the server that a form would show',
      { fields: { name: { type: 'string' }, ownerId: { type: 'string', setBy: 'server' } } },
      /field "ownerId": a field set by server needs form: false/,
    ],
    [
      'a create-only field the server would refuse on update',
      { fields: { name: { type: 'string' }, dueOn: { type: 'date', createOnly: true, setBy: 'create' } } },
      /field "dueOn": a create-only field is never updated: setBy create does not apply/,
    ],
    [
      'files set by an action',
      { fields: { name: { type: 'string' }, scans: { ...scans, form: false, setBy: 'action' } } },
      /field "scans": files are uploaded: they cannot be set by the server/,
    ],
    [
      'an enum without values',
      { fields: { name: { type: 'string' }, kind: { type: 'enum', values: [] } } },
      /field "kind": an enum needs at least one value/,
    ],
    [
      'an enum default outside its values',
      { fields: { name: { type: 'string' }, kind: { type: 'enum', values: ['a'], default: 'b' } } },
      /field "kind": default "b" is not one of its values/,
    ],
    [
      'a ref without a target',
      { fields: { name: { type: 'string' }, ownerId: { type: 'ref' } } },
      /field "ownerId": "entity" must name an entity/,
    ],
    [
      'a ref whose labels would overwrite another field',
      {
        fields: {
          name: { type: 'string' },
          court: { type: 'string' },
          courtId: { type: 'ref', entity: 'courts' },
        },
      },
      /field "courtId": its labels go under "court", which is already a field/,
    ],
    [
      'a files field without accept',
      { fields: { name: { type: 'string' }, scans: { type: 'files', maxSize: 10, maxCount: 1 } } },
      /field "scans": a files field needs "accept"/,
    ],
    [
      'a files field whose own bound is not a byte count',
      {
        fields: {
          name: { type: 'string' },
          scans: { type: 'files', accept: ['application/pdf'], maxSize: 1.5, maxCount: 1 },
        },
      },
      /field "scans": "maxSize" of a files field is a bound in bytes/,
    ],
    [
      'a files field without maxCount',
      {
        fields: {
          name: { type: 'string' },
          scans: { type: 'files', accept: ['application/pdf'], maxSize: 9 },
        },
      },
      /field "scans": a files field needs "maxCount"/,
    ],
    ['a titleField that is no field', { titleField: 'title' }, /titleField "title" is not a field/],
    [
      'the default titleField missing',
      { fields: { label: { type: 'string' } } },
      /titleField "name" is not a field \(the default is "name"\)/,
    ],
    [
      'a write-only titleField',
      {
        titleField: 'secret',
        fields: { name: { type: 'string' }, secret: { type: 'password', writeOnly: true } },
      },
      /titleField "secret" must be a stored, readable field/,
    ],
    ['a malformed defaultSort', { defaultSort: 'name' }, /defaultSort must read "field:asc"/],
    ['a defaultSort on no field', { defaultSort: 'rank:asc' }, /defaultSort names "rank"/],
    ['uniqueTogether naming no field', { uniqueTogether: [['name', 'code']] }, /uniqueTogether names "code"/],
    [
      'uniqueTogether of one field',
      { uniqueTogether: [['name']] },
      /uniqueTogether \[name\] needs two fields/,
    ],
    ['an index naming no field', { indexes: [['name', 'rank']] }, /indexes \[name, rank\] names "rank"/],
    ['an empty index', { indexes: [[]] }, /indexes \[\]: an index needs at least one field/],
    ['an index naming a field twice', { indexes: [['name', 'name']] }, /a field appears twice/],
    [
      'an index on a refs list',
      {
        fields: { name: { type: 'string' }, tagIds: { type: 'refs', entity: 'tags' } },
        indexes: [['tagIds']],
      },
      /names "tagIds", which is not a stored field/,
    ],
    [
      'counts over a text field',
      { counts: [['name']] },
      /counts \[name\] names "name", which is not a ref or enum/,
    ],
    ['counts of no field', { counts: [[]] }, /counts \[\]: a group names one to three fields/],
    ['an index on status without the toggle', { status: false, indexes: [['status']] }, /names "status"/],
    ['a fileDeletePath without files', { fileDeletePath: '/delete/file/:ownerId/:fileId' }, /no files field/],
    ...(
      [
        ['without :fileId', '/files/:ownerId'],
        ['with another parameter', '/files/:id'],
        ['without a leading slash', 'files/:fileId'],
        ['with a parameter twice', '/files/:fileId/:fileId'],
      ] as const
    ).map(([what, path]): [string, Record<string, unknown>, RegExp] => [
      `a fileDeletePath ${what}`,
      { fields: { name: { type: 'string' }, scans }, fileDeletePath: path },
      /fileDeletePath must start with "\/" and hold :fileId/,
    ]),
    [
      'a list filter named like a field',
      { listFilters: { name: { type: 'boolean' } } },
      /listFilters "name": "name" is already a field or a list query parameter/,
    ],
    [
      'a list filter named like a query parameter',
      { listFilters: { pageSize: { type: 'integer' } } },
      /listFilters "pageSize": "pageSize" is already a field or a list query parameter/,
    ],
    [
      'a list filter named like a system column',
      { listFilters: { status: { type: 'boolean' } } },
      /listFilters "status": "status" is already a field/,
    ],
    [
      'a list filter of an unknown type',
      { listFilters: { soon: { type: 'week' } } },
      /type must be "integer", "boolean" or "date"/,
    ],
    [
      'a date list filter with bounds',
      { listFilters: { since: { type: 'date', min: 1 } } },
      /listFilters "since": a date filter has no min or max/,
    ],
    [
      'a list filter with min above max',
      { listFilters: { soon: { type: 'integer', min: 5, max: 1 } } },
      /listFilters "soon": min \(5\) is greater than max \(1\)/,
    ],
    [
      'a boolean list filter with bounds',
      { listFilters: { late: { type: 'boolean', max: 1 } } },
      /listFilters "late": a boolean filter has no min or max/,
    ],
    [
      'a list filter that is not camelCase',
      { listFilters: { 'expires-within': { type: 'integer' } } },
      /listFilters "expires-within": name must be camelCase/,
    ],
    [
      'a required field kept out of forms without a default',
      { fields: { ...base.fields, state: { type: 'enum', values: ['open'], required: true, form: false } } },
      /field "state": a required field kept out of forms \(form: false\) needs a default/,
    ],
  ])('refuses %s, naming the entity and field', (_, change, message) => {
    expect(failure(change)).toMatch(message);
  });

  it('lists every problem at once', () => {
    const message = failure({ name: 'Bad', path: 'bad', titleField: 'title' });
    expect(message.split('\n  - ')).toHaveLength(4);
  });
});

describe('checkRegistry', () => {
  const make = (name: string, refs: Record<string, string> = {}, kind: 'ref' | 'refs' = 'ref') =>
    defineEntity({
      name,
      path: `/${name}`,
      remote: 'settings',
      fields: {
        name: { type: 'string' },
        ...Object.fromEntries(Object.entries(refs).map(([k, entity]) => [k, { type: kind, entity }])),
      },
    });

  it('orders definitions after what they reference, keeping the written order where it holds', () => {
    const a = make('alphas');
    const b = make('betas', { alphaId: 'alphas' });
    const c = make('gammas', { betaIds: 'betas' }, 'refs');
    const d = make('deltas');
    // A definition's references are pulled in just before it.
    expect(checkRegistry([c, d, b, a]).map((e) => e.name)).toEqual(['alphas', 'betas', 'gammas', 'deltas']);
    expect(checkRegistry([d, c, a, b]).map((e) => e.name)).toEqual(['deltas', 'alphas', 'betas', 'gammas']);
    expect(checkRegistry([a, b, c, d]).map((e) => e.name)).toEqual(['alphas', 'betas', 'gammas', 'deltas']);
  });

  it('allows an entity to reference itself', () => {
    expect(checkRegistry([make('units', { parentId: 'units' })]).map((e) => e.name)).toEqual(['units']);
  });

  it('fails on a reference to an entity not in the registry, naming entity and field', () => {
    expect(() => checkRegistry([make('betas', { alphaId: 'alphas' })])).toThrow(
      /"betas", field "alphaId": references "alphas", which is not in the registry/,
    );
  });

  it('fails on a cycle, naming it', () => {
    const a = make('alphas', { gammaId: 'gammas' });
    const b = make('betas', { alphaId: 'alphas' });
    const c = make('gammas', { betaId: 'betas' });
    expect(() => checkRegistry([a, b, c])).toThrow(/cycle \(alphas → gammas → betas → alphas\)/);
  });

  it('fails on a repeated name, path or table', () => {
    const a = make('alphas');
    expect(() => checkRegistry([a, { ...a }])).toThrow(/"alphas" and "alphas" have the same name/);
    expect(() => checkRegistry([a, { ...make('betas'), path: '/alphas' }])).toThrow(/same path "\/alphas"/);
    expect(() => checkRegistry([a, { ...make('betas'), table: 'alphas' }])).toThrow(/same table "alphas"/);
  });
});
