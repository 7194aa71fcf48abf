import {
  createSchema,
  issueMessage,
  listQuerySchema,
  registry,
  updateSchema,
  type Entity,
  type Fields,
} from '@mizan/contracts';
import { resources } from '@mizan/i18n';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Tree = { [key: string]: string | Tree };

function lookup(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

const missingIn = (keys: Iterable<string>) =>
  (['ar', 'en'] as const).flatMap((lng) =>
    [...keys]
      .filter((key) => !lookup(resources[lng].validation as Tree, key.replace(/^validation\./, '')))
      .map((key) => `${lng}: ${key}`),
  );

describe('validation namespace covers contracts', () => {
  it('has every key written in the schema source', () => {
    const source = readFileSync(join(__dirname, '../../contracts/src/schema.ts'), 'utf8');
    const keys = new Set([...source.matchAll(/'(validation\.[\w.]+)'/g)].map((m) => m[1]!));
    expect(keys.size).toBeGreaterThan(10);
    expect(missingIn(keys)).toEqual([]);
  });

  it('has every key issueMessage produces for bad input to every entity of the registry', () => {
    const produced = new Set<string>();
    const bad: unknown[] = [
      undefined,
      null,
      '',
      '   ',
      'x'.repeat(6000),
      -5,
      1.5,
      'not-a-date',
      ['a'],
      { a: 1 },
      true,
    ];
    for (const entity of registry as readonly Entity<Fields>[]) {
      for (const value of bad) {
        const body = Object.fromEntries(Object.keys(entity.fields).map((key) => [key, value]));
        for (const schema of [createSchema(entity), updateSchema(entity)]) {
          const result = schema.safeParse({ ...body, id: value });
          if (!result.success) for (const issue of result.error.issues) produced.add(issueMessage(issue).key);
        }
        const query = listQuerySchema(entity).safeParse({
          page: value,
          pageSize: 1000,
          sort: 'nope',
          q: value,
        });
        if (!query.success) for (const issue of query.error.issues) produced.add(issueMessage(issue).key);
      }
    }
    expect(produced.size).toBeGreaterThan(5);
    expect(missingIn(produced)).toEqual([]);
  });
});
