import { createSchema, issueMessage, listQuerySchema, updateSchema } from './schema';
import { registry } from './registry';
import { countries, employees } from './entities/index';

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
    expect(byField.code).toEqual({ key: 'validation.string.max', params: { max: 3 } });
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
});
