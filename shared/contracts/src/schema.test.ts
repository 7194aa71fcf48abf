import { createSchema, issueMessage, listQuerySchema, updateSchema } from './schema';
import { registry } from './registry';
import { defineEntity } from './entity';
import { continents, countries, employees, procurations } from './entities/index';

describe('derived schemas', () => {
  it.each(registry.map((e) => [e.name, e] as const))(
    '%s: create rejects an empty body with required keys',
    (_, entity) => {
      const result = createSchema(entity).safeParse({});
      const required = Object.entries(entity.fields).filter(
        ([, f]) => f.required && f.default === undefined && f.type !== 'files',
      );
      expect(result.success).toBe(required.length === 0);
      if (!result.success) {
        const keys = result.error.issues.map((i) => issueMessage(i).key);
        expect(new Set(keys)).toEqual(new Set(['validation.required']));
      }
    },
  );

  it('reports blank, too long and wrong type with their keys and limits', () => {
    const result = createSchema(countries).safeParse({ name: '   ', code: 'ABCD', continentId: 'x' });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), issueMessage(i)]));
    expect(byField.name!.key).toBe('validation.whitespace');
    expect(byField.code).toEqual({ key: 'validation.string.max', params: { max: 3, count: 3 } });
    expect(byField.continentId!.key).toBe('validation.types.integer');
  });

  it('update needs the id and ignores create-only fields', () => {
    expect(updateSchema(employees).safeParse({ name: 'x' }).success).toBe(false);
    const ok = updateSchema(employees).parse({
      id: 3,
      name: 'Huda',
      email: 'huda@example.com',
      username: 'huda',
      password: 'p',
    });
    expect(ok).not.toHaveProperty('password');
  });

  it('list query caps pageSize and checks sort fields', () => {
    const q = listQuerySchema(countries);
    expect(q.parse({})).toMatchObject({ page: 1, pageSize: 20 });
    expect(q.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(q.safeParse({ sort: 'password:asc' }).success).toBe(false);
    expect(q.parse({ sort: 'name:desc', continentId: '4', status: 'false' })).toMatchObject({
      continentId: 4,
      status: false,
    });
  });

  // [query, what it parses to, or the field refused]
  it.each([
    [
      { page: '٢', pageSize: '٥٠' },
      { page: 2, pageSize: 50 },
    ],
    [
      { page: '۳', pageSize: '۱۰۰' },
      { page: 3, pageSize: 100 },
    ],
    [{ page: ' ١٢ ' }, { page: 12 }],
    [{ continentId: '٤' }, { continentId: 4 }],
    [{ continentId: '۴۲' }, { continentId: 42 }],
    [{ continentId: '4' }, { continentId: 4 }],
    [{ pageSize: '١٠١' }, 'pageSize'],
    [{ page: '٠' }, 'page'],
    [{ page: '١٫٥' }, 'page'],
    [{ page: '٢a' }, 'page'],
    [{ continentId: 'مصر' }, 'continentId'],
  ] as const)('list query normalises Eastern digits: %j', (query, expected) => {
    const result = listQuerySchema(countries).safeParse(query);
    if (typeof expected === 'string') {
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual([expected]);
    } else {
      expect(result.success).toBe(true);
      expect(result.data).toMatchObject(expected);
    }
  });

  it('a required refs field needs one id at least; an optional one may be empty', () => {
    const schema = createSchema(procurations);
    const base = { number: '12', year: 2025, issueDate: '2025-01-05' };
    const empty = schema.safeParse({ ...base, customerIds: [] });
    expect(empty.success).toBe(false);
    expect(empty.error!.issues.map((i) => [i.path.join('.'), issueMessage(i).key])).toEqual([
      ['customerIds', 'validation.required'],
    ]);
    expect(schema.safeParse({ ...base, customerIds: [3], lawyerIds: [] }).success).toBe(true);
  });

  // [query, what it parses to, or the filter refused]
  it.each([
    [{ dueWithin: '30' }, { dueWithin: 30 }],
    [{ dueWithin: '٣٠' }, { dueWithin: 30 }],
    [{ dueWithin: '۰' }, { dueWithin: 0 }],
    [{ dueWithin: '366' }, 'dueWithin'],
    [{ dueWithin: '-1' }, 'dueWithin'],
    [{ dueWithin: '1.5' }, 'dueWithin'],
    [{ dueWithin: 'soon' }, 'dueWithin'],
    [{ dueWithin: '' }, 'dueWithin'],
    [{ overdue: 'true' }, { overdue: true }],
    [{ overdue: 'false' }, { overdue: false }],
    [{ overdue: 'yes' }, 'overdue'],
    [{}, {}],
  ] as const)('list query parses declared list filters: %j', (query, expected) => {
    const gadgets = defineEntity({
      name: 'gadgets',
      path: '/admin/gadgets',
      remote: 'settings',
      fields: { name: { type: 'string' } },
      listFilters: { dueWithin: { type: 'integer', min: 0, max: 365 }, overdue: { type: 'boolean' } },
    });
    const result = listQuerySchema(gadgets).safeParse(query);
    if (typeof expected === 'string') {
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((i) => [i.path.join('.'), issueMessage(i).key])).toEqual([
        [expected, expect.stringMatching(/^validation\.(types\.(integer|boolean)|number\.(min|max))$/)],
      ]);
    } else {
      expect(result.success).toBe(true);
      expect(result.data).toEqual({ page: 1, pageSize: 20, ...expected });
    }
  });

  // Identifiers are codes: read left to right, ASCII digits, never grouped.
  it('marks every code-like field of the registry as a code', () => {
    const codeLike = registry.flatMap((e) =>
      Object.entries(e.fields)
        .filter(([name, f]) => /^(code|key|number)$|(Code|Number)$/.test(name) && f.type !== 'phone')
        .map(([name, f]) => [`${e.name}.${name}`, f.code === true] as const),
    );
    expect(codeLike.map(([name]) => name)).toEqual(
      expect.arrayContaining(['continents.code', 'countries.code', 'circuits.number', 'permissions.key']),
    );
    expect(codeLike.filter(([, code]) => !code).map(([name]) => name)).toEqual([]);
  });

  it.each([
    ['countries', countries, { name: 'مصر', code: '٠١٨', continentId: '١' }, { code: '018', continentId: 1 }],
    ['continents', continents, { name: 'آسيا', code: 'A۱٢' }, { code: 'A12' }],
  ] as const)('stores the digits of a code as ASCII: %s', (_, entity, body, expected) => {
    expect(createSchema(entity).parse(body)).toMatchObject(expected);
  });
});
