import type { InjectOptions } from 'fastify';
import { insertEmployee, signIn, headers as withToken } from '../auth/testing/fixtures';
import { createTestApp, splitDialects, type TestApp } from '../test/harness';

/**
 * Tests generated from the route table (the OpenAPI document every route is in): who may call
 * each route, and that nothing typed makes any of them answer 5xx.
 */

/** The routes anyone may call (`config: { public: true }`); every other one needs a token. */
const PUBLIC_ROUTES = [
  'GET /api/health',
  'GET /api/messages/whatsapp/webhook',
  'GET /api/ready',
  'GET /api/calendar/{token}.ics',
  'POST /api/auth/2fa/setup',
  'POST /api/auth/2fa/enable',
  'POST /api/auth/2fa/verify',
  'POST /api/auth/login',
  'POST /api/auth/check',
  'POST /api/auth/logout',
  'GET /api/auth/systemSettings',
  'GET /api/auth/systemSettings/logo',
  'GET /api/auth/systemSettings/favicon',
  'POST /api/auth/forgotPassword',
  'GET /api/auth/verifyResetToken',
  'POST /api/auth/verifyResetCode',
  'POST /api/messages/whatsapp/webhook',
  'PUT /api/auth/resetPassword',
].sort();

/** What a hostile client types: controls, broken UTF-16, huge text and the FTS5 query grammar. */
const FUZZ = [
  '\u0000',
  'ab\u0000cd',
  '\u0001\u0008\u001b\u007f\u0085',
  '\ud800',
  'x\udc00y',
  'ع'.repeat(10_000),
  '"',
  '"abc',
  'abc"',
  '*',
  'abc*',
  'NEAR',
  'NEAR(abc def, 2)',
  'abc OR def',
  'OR',
  '^abc',
  '-abc',
  'title:abc',
  'a"b OR c* NEAR(d) ^e -f g:h AND NOT (x',
];

interface Operation {
  method: string;
  path: string;
  permission: string | string[] | null | undefined;
  public: boolean;
  bodyFields: string[];
  /** The route reads a `q` (search) parameter. */
  searches: boolean;
  /** The route reads a `sort` parameter. */
  sorts: boolean;
}

type Schema = { properties?: Record<string, unknown> };
type OpenApiOperation = {
  security?: unknown[];
  'x-permission'?: string | string[] | null;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  parameters?: { name: string; in: string }[];
};

async function operations(t: TestApp): Promise<Operation[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const content = op.requestBody?.content ?? {};
      const schema = content['application/json']?.schema ?? content['multipart/form-data']?.schema;
      return {
        method: method.toUpperCase(),
        path,
        permission: op['x-permission'],
        public: !op.security?.length,
        bodyFields: Object.keys(schema?.properties ?? {}),
        searches: (op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'q'),
        sorts: (op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'sort'),
      };
    }),
  );
}

const url = (path: string, id: string) => path.replace(/\{[^}]+\}/g, id);
/** Percent-encoding that also carries a lone surrogate (as the bytes a careless client sends). */
const encode = (value: string) =>
  [...value]
    .map((c) => {
      try {
        return encodeURIComponent(c);
      } catch {
        return '%ED%A0%80';
      }
    })
    .join('');

/**
 * The seed of this run's fuzz sample: `MIZAN_FUZZ_SEED` to replay a run, a new one otherwise. It
 * is printed with any failure.
 */
const SEED = Number(process.env.MIZAN_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** A small seeded generator (mulberry32): the same seed gives the same sample. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * What a hostile client sends, route by route. Each kind of harm in `HARSH` (controls, broken
 * UTF-16, huge text, the search grammar) reaches every route that reads text from the request:
 * a `q` or `sort` parameter, or a body. A search route also gets every value of `FUZZ`. A route
 * that reads none of them (a GET of a template, a DELETE by id) never sees the value, so one
 * drawn from the seed says what four would: such routes are most of the table's cost (a template
 * is built per request) and none of its findings.
 */
const HARSH = ['ab\u0000cd\u0001\u001b\u007f', 'x\udc00y\ud800', FUZZ[5]!, FUZZ.at(-1)!];

function fuzzCases(ops: Operation[], seed: number): { op: Operation; value: string }[] {
  const random = seeded(seed);
  return ops
    .filter((op) => op.path !== '/api/auth/logout')
    .flatMap((op) => {
      const readsText =
        op.searches || op.sorts || op.bodyFields.length > 0 || !['GET', 'DELETE'].includes(op.method);
      const values = op.searches ? FUZZ : readsText ? HARSH : [HARSH[Math.floor(random() * HARSH.length)]!];
      return values.map((value) => ({ op, value }));
    });
}

/** Runs `cases` a few at a time: concurrent requests, as a probe sends them. */
async function inParallel<T>(cases: readonly T[], run: (c: T) => Promise<void>, width = 12): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < cases.length) await run(cases[next++]!);
    }),
  );
}

describe.each(splitDialects())('the route table on %s', (dialect) => {
  let t: TestApp;
  let ops: Operation[];
  let admin: Record<string, string>;
  let nobody: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ops = (await operations(t)).filter((op) => op.method !== 'HEAD');
    admin = (await t.login()).headers;
    await insertEmployee(t.app.db, { email: 'norole@law.test', username: 'norole', roles: [] });
    nobody = withToken(await signIn(t.app, 'norole@law.test'));
  }, 180_000);
  afterAll(() => t.close());

  it('lists as public exactly the routes meant to be', () => {
    expect(ops.length).toBeGreaterThan(250);
    const open = ops.filter((op) => op.public).map((op) => `${op.method} ${op.path}`);
    expect(open.sort()).toEqual(PUBLIC_ROUTES);
    // Every other route names who may call it (a permission key, or `null`: any employee).
    expect(ops.filter((op) => !op.public && op.permission === undefined)).toEqual([]);
  });

  it('answers 401 to every other route called without a token, whatever the body', async () => {
    const wrong: string[] = [];
    await inParallel(
      ops.filter((op) => !op.public),
      async (op) => {
        for (const payload of [undefined, { updatedAt: 1, text: '\u0000', id: 'x' }, '{"broken']) {
          const res = await t.app.inject({
            method: op.method as InjectOptions['method'],
            url: url(op.path, '1'),
            headers: { 'content-type': 'application/json', 'x-fingerprint-session': 'probe' },
            ...(op.method === 'GET' || op.method === 'DELETE' || payload === undefined
              ? {}
              : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
          });
          if (res.statusCode !== 401) wrong.push(`${op.method} ${op.path}: ${res.statusCode}`);
        }
      },
    );
    expect(wrong).toEqual([]);
  });

  it('answers 403 to an employee without the route’s permission, before looking at the input', async () => {
    const wrong: string[] = [];
    await inParallel(
      ops.filter((op) => !op.public && op.permission !== null),
      async (op) => {
        const res = await t.app.inject({
          method: op.method as InjectOptions['method'],
          url: `${url(op.path, 'x')}?page=-1&q=%00`,
          headers: { ...nobody, 'content-type': 'application/json' },
          ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: '{"id":"\\u0000"}' }),
        });
        if (res.statusCode !== 403) wrong.push(`${op.method} ${op.path}: ${res.statusCode}`);
      },
    );
    expect(wrong).toEqual([]);
  });

  it('answers no 5xx to hostile text in any `q`, `sort` or body field', async () => {
    const cases = fuzzCases(ops, SEED);
    expect(ops.filter((op) => op.searches).length).toBeGreaterThan(30);
    const failures: string[] = [];
    await inParallel(cases, async ({ op, value }) => {
      const read = op.method === 'GET' || op.method === 'DELETE';
      const body = Object.fromEntries(
        (op.bodyFields.length ? op.bodyFields : ['q', 'text', 'name']).map((field) => [field, value]),
      );
      const res = await t.app.inject({
        method: op.method as InjectOptions['method'],
        url: `${url(op.path, '999999')}?q=${encode(value)}&sort=${encode(value)}`,
        headers: { ...admin, ...(read ? {} : { 'content-type': 'application/json' }) },
        ...(read ? {} : { payload: JSON.stringify(body) }),
      });
      if (res.statusCode >= 500)
        failures.push(
          `${op.method} ${op.path} ${JSON.stringify(value.slice(0, 40))}: ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
    });
    // The seed is in the answer, so that a failure names the run to replay (MIZAN_FUZZ_SEED).
    expect({ seed: SEED, failures }).toEqual({ seed: SEED, failures: [] });
  }, 480_000);
});
