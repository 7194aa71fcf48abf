import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../test/harness';
import { pruneAuthTables } from './prune';
import { insertEmployee } from './testing/fixtures';
import type { AuthDatabase } from './types';

describe.each(dialects())('pruneAuthTables (%s)', (dialect) => {
  let t: TestApp;
  let db: FastifyInstance['db'];
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    db = t.app.db;
  });
  afterAll(() => t.close());

  it('deletes only rows finished past their retention', async () => {
    const employeeId = await insertEmployee(db, { email: 'old@law.test', username: 'old' });
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const session = (token: string, expires: string, revoked: string | null) => ({
      employee_id: employeeId,
      token_hash: token,
      fingerprint_session: null,
      ip: null,
      user_agent: null,
      created_at: ago(60),
      last_seen_at: ago(60),
      expires_at: expires,
      revoked_at: revoked,
    });
    await db.deleteFrom('sessions').execute();
    await db
      .insertInto('sessions')
      .values([
        session('a'.repeat(64), ago(31), null),
        session('b'.repeat(64), ago(-1), ago(31)),
        session('c'.repeat(64), ago(29), null),
        session('d'.repeat(64), ago(-1), null),
      ])
      .execute();
    await db
      .insertInto('login_history')
      .values([
        {
          employee_id: employeeId,
          identifier: 'old',
          ip: null,
          user_agent: null,
          success: true,
          reason: null,
          created_at: ago(400),
        },
        {
          employee_id: employeeId,
          identifier: 'old',
          ip: null,
          user_agent: null,
          success: true,
          reason: null,
          created_at: ago(10),
        },
      ])
      .execute();
    const result = await pruneAuthTables(db as Kysely<AuthDatabase>);
    expect(result.sessions).toBe(2);
    expect(result.loginHistory).toBeGreaterThanOrEqual(1);
    const left = (await db.selectFrom('sessions').select('token_hash').orderBy('token_hash').execute()).map(
      (r) => r.token_hash[0],
    );
    expect(left).toEqual(['c', 'd']);
    const history = await db
      .selectFrom('login_history')
      .select('created_at')
      .where('identifier', '=', 'old')
      .execute();
    expect(history).toHaveLength(1);
  });
});
