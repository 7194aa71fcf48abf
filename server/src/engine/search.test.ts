import crypto from 'node:crypto';
import { getEntity } from '@mizan/contracts';
import { sql } from 'kysely';
import pg from 'pg';
import { MIGRATION_GROUPS } from '../app';
import { createDatabase, type Database, type Dialect } from '../db';
import { runMigrations } from '../db/migrate';
import { addEntityFields } from '../db/migrations';
import { SEARCH_COLUMN, foldRows, searchIndexTable } from '../db/migrations/searchColumn';
import { entityUrl } from '../test/fixtures';
import { createTestApp, dialects, freshDatabase, type Session, type TestApp } from '../test/harness';
import { searchColumns, searchCondition, searchTokens } from './search';

type Row = Record<string, unknown> & { id: number; name: string };
const courts = getEntity('courts');

describe('search tokens and columns', () => {
  it('folds q and splits it into distinct tokens', () => {
    expect(searchTokens('  أحمدُ   إبراهيمـ ٢٩ أحمد ')).toEqual(['احمد', 'ابراهيم', '29']);
    expect(searchTokens(' \u200F ')).toEqual([]);
  });

  it('reads control characters and lone surrogates as separators, so none reaches the index query', () => {
    expect(searchTokens('محكمة\u0000النقض')).toEqual(['محكمه', 'النقض']);
    expect(searchTokens('\u0000\u0001\u001b\u007f\u0085')).toEqual([]);
    expect(searchTokens('ab\ud800cd\udc00')).toEqual(['ab', 'cd']);
    // A pair stays a character.
    expect(searchTokens('x\ud83d\ude00')).toEqual(['x\ud83d\ude00']);
  });

  it('writes the folded text of the search fields, and on update only when one of them changes', () => {
    expect(searchColumns(courts, { name: 'محكمة', address: 'شارع ٢٩', phone: '0100' })).toEqual({
      [SEARCH_COLUMN]: 'محكمه\nشارع 29',
    });
    expect(searchColumns(courts, { name: 'X' })).toEqual({ [SEARCH_COLUMN]: 'x' });
    const before = { id: 1, name: 'محكمة', address: 'شارع', phone: null };
    expect(searchColumns(courts, { phone: '0100' }, before)).toEqual({});
    expect(searchColumns(courts, { address: null }, before)).toEqual({ [SEARCH_COLUMN]: 'محكمه' });
    expect(searchColumns(getEntity('sessionAttendances'), { name: 'ا' })).toEqual({ [SEARCH_COLUMN]: 'ا' });
  });
});

describe.each(dialects())('Arabic-folded search on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const url = entityUrl('courts');

  const search = async (q: string, base = url): Promise<{ names: string[]; total: number }> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${base}?pageSize=100&q=${encodeURIComponent(q)}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { items: Row[]; total: number };
    expect(data.total).toBe(data.items.length);
    return { names: data.items.map((r) => r.name).sort(), total: data.total };
  };
  const names = async (q: string) => (await search(q)).names;
  const create = async (body: Record<string, unknown>): Promise<Row> => {
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: body });
    expect(res.statusCode).toBe(201);
    return res.json().data as Row;
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    await create({ name: 'محكمة أحمد إبراهيم', address: 'شارع ٢٩٨٠١' });
    await create({ name: 'مُصْطَفَى الجِيزة', address: 'ميدان المسؤول' });
    await create({ name: 'دائرة عليّ', address: 'Cairo DOWNTOWN 12' });
    await create({ name: 'محكـــمة هيئة', address: '29801 طريق' });
  });
  afterAll(() => t.close());

  it.each([
    ['احمد ابراهيم', ['محكمة أحمد إبراهيم']],
    ['ابراهيم احمد', ['محكمة أحمد إبراهيم']],
    ['أحمدَ', ['محكمة أحمد إبراهيم']],
    ['محكمه', ['محكمة أحمد إبراهيم', 'محكـــمة هيئة']],
    ['مصطفي الجيزه', ['مُصْطَفَى الجِيزة']],
    ['مسوول', ['مُصْطَفَى الجِيزة']],
    ['هيئه', ['محكـــمة هيئة']],
    ['علي', ['دائرة عليّ']],
    ['٢٩٨٠١', ['محكمة أحمد إبراهيم', 'محكـــمة هيئة']],
    ['29801 شارع', ['محكمة أحمد إبراهيم']],
    ['cairo downtown', ['دائرة عليّ']],
    ['CAIRO', ['دائرة عليّ']],
    // Short tokens (under three characters) are matched too.
    ['12', ['دائرة عليّ']],
    ['مص جي', ['مُصْطَفَى الجِيزة']],
    // Every token must match.
    ['احمد زكي', []],
  ])('q=%j finds %j', async (q, expected) => {
    expect(await names(q)).toEqual([...expected].sort());
  });

  it('takes whatever is typed as text: control characters split words, FTS5 operators are literal', async () => {
    await create({ name: 'محكمة النقض العليا' });
    expect(await names('النقض\u0000العليا')).toEqual(['محكمة النقض العليا']);
    expect(await names('\u0000')).toContain('محكمة النقض العليا');
    for (const q of [
      '"النقض',
      'النقض"',
      'النقض*',
      'NEAR(النقض العليا)',
      'النقض OR زيد',
      '^النقض',
      '-النقض',
      'name:النقض',
    ])
      expect([q, await names(q)]).toEqual([q, []]);
  });
  it('finds a row by its new values once updated, and no longer by the old ones', async () => {
    const row = await create({ name: 'محكمة قديمة', address: 'عنوان' });
    expect(await names('قديمه')).toEqual(['محكمة قديمة']);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${row.id}`,
      headers: admin.headers,
      payload: { name: 'محكمة جديدة' },
    });
    expect(res.statusCode).toBe(200);
    expect(await names('قديمه')).toEqual([]);
    expect(await names('جديده عنوان')).toEqual(['محكمة جديدة']);
    // A write that leaves the search fields alone keeps the row findable.
    const phone = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${row.id}`,
      headers: admin.headers,
      payload: { phone: '01001234567' },
    });
    expect(phone.statusCode).toBe(200);
    expect(await names('جديده')).toEqual(['محكمة جديدة']);
    const gone = await t.app.inject({ method: 'DELETE', url: `${url}/${row.id}`, headers: admin.headers });
    expect(gone.statusCode).toBe(200);
    expect(await names('جديده')).toEqual([]);
  });

  it('finds rows created in one batch (createMany, as imports write them)', async () => {
    await t.app.entities
      .get('courts')
      .createMany({ user: null }, [
        { name: 'محكمة الإسكندرية الكلية' },
        { name: 'محكمة أسوان', address: 'كورنيش ٣' },
      ]);
    expect(await names('الاسكندريه')).toEqual(['محكمة الإسكندرية الكلية']);
    expect(await names('اسوان 3')).toEqual(['محكمة أسوان']);
  });

  it('takes LIKE wildcards and the escape character literally', async () => {
    for (const name of ['رمز a%b', 'رمز a_b', 'رمز a\\b', 'رمز axb']) await create({ name });
    expect(await names('a%b')).toEqual(['رمز a%b']);
    expect(await names('a_b')).toEqual(['رمز a_b']);
    expect(await names('a\\b')).toEqual(['رمز a\\b']);
    expect(await names('%')).toEqual(['رمز a%b']);
    expect(await names('_')).toEqual(['رمز a_b']);
    expect(await names('"a')).toEqual([]);
    expect((await names('رمز')).length).toBe(4);
  });

  it('finds rows written outside the engine at start (the seeded first administrator)', async () => {
    const { names: found } = await search('مدير النظام', entityUrl('employees'));
    expect(found).toEqual(['مدير النظام']);
  });

  it('matches any token in `any` mode and every token in `all` mode', async () => {
    const run = (q: string, mode: 'all' | 'any') =>
      t.app.db
        .selectFrom('courts')
        .select('name')
        .where((eb) => searchCondition(eb, courts, 'courts', dialect, q, mode)!)
        .orderBy('name')
        .execute();
    expect((await run('ابراهيم الجيزه', 'all')).map((r) => r.name)).toEqual([]);
    expect((await run('ابراهيم الجيزه', 'any')).map((r) => r.name).sort()).toEqual(
      ['محكمة أحمد إبراهيم', 'مُصْطَفَى الجِيزة'].sort(),
    );
    expect((await run('مس zz', 'any')).map((r) => r.name)).toEqual(['مُصْطَفَى الجِيزة']);
    expect(searchCondition({} as never, courts, 'courts', dialect, ' ـ ', 'all')).toBeNull();
    expect(searchCondition({} as never, getEntity('courts'), 'c', dialect, '', 'any')).toBeNull();
  });
});

/** A database migrated as released before the search column, then migrated to now. */
describe.each(dialects())('the search-text migration on %s', (dialect: Dialect) => {
  let database: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshDatabase(dialect, 'mizan-search-');
    cleanup = fresh.drop;
    database = createDatabase(fresh.url);
  });
  afterAll(async () => {
    await database?.destroy();
    await cleanup?.();
  });

  it('adds the column to a table that has rows, folds them and indexes them', async () => {
    const { db } = database;
    const [core] = MIGRATION_GROUPS;
    await runMigrations(db, dialect, [{ group: core!.group, migrations: core!.migrations.slice(0, 3) }]);
    // The courts table as the first release created it: no search column, no index.
    if (dialect === 'sqlite') {
      for (const suffix of ['ai', 'ad', 'au'])
        await sql`drop trigger ${sql.id(`courts_search_${suffix}`)}`.execute(db);
      await sql`drop table ${sql.table(searchIndexTable(courts))}`.execute(db);
    }
    await sql`drop index if exists ${sql.id('courts_unfolded_idx')}`.execute(db);
    await db.schema.alterTable('courts').dropColumn(SEARCH_COLUMN).execute();
    const now = new Date().toISOString();
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      name: `محكمة رقم ${i}`,
      court_type: 'general',
      created_at: now,
      updated_at: now,
    }));
    rows[1234] = { ...rows[1234]!, name: 'محكمة أحمد إبراهيم' };
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('courts')
        .values(rows.slice(i, i + 500))
        .execute();

    await runMigrations(db, dialect, MIGRATION_GROUPS);
    const found = await db
      .selectFrom('courts')
      .select(['name', SEARCH_COLUMN])
      .where((eb) => searchCondition(eb, courts, 'courts', dialect, 'ابراهيم احمد', 'all')!)
      .execute();
    expect(found).toEqual([{ name: 'محكمة أحمد إبراهيم', [SEARCH_COLUMN]: 'محكمه احمد ابراهيم' }]);
    const unfolded = await db
      .selectFrom('courts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(SEARCH_COLUMN, 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(unfolded.n)).toBe(0);
    // Later writes keep the index in step (SQLite: the triggers the migration created).
    await db
      .updateTable('courts')
      .set({ [SEARCH_COLUMN]: 'محكمه جديده' })
      .where('name', '=', 'محكمة رقم 7')
      .execute();
    const renamed = await db
      .selectFrom('courts')
      .select('name')
      .where((eb) => searchCondition(eb, courts, 'courts', dialect, 'جديده', 'all')!)
      .execute();
    expect(renamed).toEqual([{ name: 'محكمة رقم 7' }]);
  });

  it('gives a table its search column when a later migration adds its first search field', async () => {
    const { db } = database;
    if (dialect === 'sqlite') {
      for (const suffix of ['ai', 'ad', 'au'])
        await sql`drop trigger ${sql.id(`courts_search_${suffix}`)}`.execute(db);
      await sql`drop table ${sql.table(searchIndexTable(courts))}`.execute(db);
    }
    await sql`drop index if exists ${sql.id('courts_unfolded_idx')}`.execute(db);
    await db.schema.alterTable('courts').dropColumn(SEARCH_COLUMN).execute();
    await addEntityFields(db, dialect, 'courts', ['address']);
    const found = await db
      .selectFrom('courts')
      .select('name')
      .where((eb) => searchCondition(eb, courts, 'courts', dialect, 'ابراهيم', 'all')!)
      .execute();
    expect(found).toEqual([{ name: 'محكمة أحمد إبراهيم' }]);
  });
});

const pgOnly = dialects().includes('postgres') ? describe : describe.skip;

pgOnly('search on PostgreSQL without pg_trgm', () => {
  const base = process.env.MIZAN_TEST_PG_URL!;
  const suffix = crypto.randomBytes(6).toString('hex');
  const name = `mizan_notrgm_${suffix}`;
  const role = `mizan_notrgm_${suffix}`;
  const admin = async (url: string, statements: string[]) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const statement of statements) await client.query(statement);
    await client.end();
  };
  const inDatabase = () => {
    const url = new URL(base);
    url.pathname = `/${name}`;
    return url;
  };
  let database: Database;

  beforeAll(async () => {
    await admin(base, [`create role ${role} login`, `create database ${name}`]);
    // May use the database but not create extensions in it (pg_trgm is trusted: CREATE would do).
    await admin(inDatabase().toString(), [
      `revoke create on database ${name} from public`,
      `grant create, usage on schema public to ${role}`,
    ]);
    const url = inDatabase();
    url.username = role;
    database = createDatabase(url.toString());
  });
  afterAll(async () => {
    await database?.destroy();
    await admin(base, [`drop database if exists ${name} with (force)`, `drop role if exists ${role}`]);
  });

  it('starts with a warning and no trigram index, and still finds folded rows', async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      await runMigrations(database.db, 'postgres', MIGRATION_GROUPS);
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/pg_trgm cannot be created/),
        'MizanSearchWarning',
      );
    } finally {
      warn.mockRestore();
    }
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_indexes where indexdef like '%gin_trgm_ops%'`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
    const now = new Date().toISOString();
    await database.db
      .insertInto('courts')
      .values({ name: 'محكمة أحمد إبراهيم', court_type: 'general', created_at: now, updated_at: now })
      .execute();
    await foldRows(database.db, courts, { onlyUnfolded: true });
    const found = await database.db
      .selectFrom('courts')
      .select('name')
      .where((eb) => searchCondition(eb, courts, 'courts', 'postgres', 'ابراهيم احمد', 'all')!)
      .execute();
    expect(found).toEqual([{ name: 'محكمة أحمد إبراهيم' }]);
  });
});
