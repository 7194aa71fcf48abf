import { holidays, payments, registry, type Entity, type Fields } from '@mizan/contracts';
import { sql } from 'kysely';
import { columnName } from '../db/migrations';
import { createRow } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { cols, readRow, selectFields } from './rows';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

describe('cols', () => {
  it("names every stored field's column as the tables are made, and leaves out refs and files", () => {
    for (const entity of registry as readonly Entity<Fields>[]) {
      const map = cols(entity);
      expect(cols(entity)).toBe(map);
      for (const [key, field] of Object.entries(entity.fields))
        expect([key, map[key]]).toEqual([
          key,
          field.type === 'refs' || field.type === 'files' ? undefined : columnName(key),
        ]);
      expect([map.id, map.createdAt, map.updatedAt]).toEqual(['id', 'created_at', 'updated_at']);
      expect([map.status, map.baned]).toEqual([
        entity.status ? 'status' : undefined,
        entity.baned ? 'baned' : undefined,
      ]);
    }
  });
});

describe('readRow, as the database answers', () => {
  it('reads numbers from text, booleans from 0/1, instants from dates, and null as null', () => {
    const stamp = new Date('2026-03-01T08:30:00.000Z');
    expect(
      readRow(payments, { id: '7', amount: '123456789012', to_retainer: 1, notes: null, created_at: stamp }, [
        'id',
        'amount',
        'toRetainer',
        'notes',
        'createdAt',
      ]),
    ).toEqual({
      id: 7,
      amount: 123_456_789_012,
      toRetainer: true,
      notes: null,
      createdAt: stamp.toISOString(),
    });
    expect(readRow(holidays, { status: 0, month: null, days: 3 }, ['status', 'month', 'days'])).toEqual({
      status: false,
      month: null,
      days: 3,
    });
  });
});

describe.each(dialects())('typed rows on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('reads a row as the engine answers it', async () => {
    const made = await createRow(t.app, admin.headers, payments.name, {
      amount: 9_007_199_254_740,
      notes: null,
      reference: null,
    });
    const keys = [
      'customerId',
      'lawsuitId',
      'date',
      'amount',
      'method',
      'reference',
      'toRetainer',
      'retained',
      'ledgerEntryId',
      'notes',
      'createdAt',
      'updatedAt',
    ] as const;
    const raw = await selectFields(t.app.db, payments, keys)
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    // What the drivers answer differs: SQLite's 0/1 for booleans, PostgreSQL's own booleans.
    expect(raw[cols(payments).toRetainer]).toBe(dialect === 'sqlite' ? 0 : false);
    const row = readRow(payments, raw);
    const api = await t.app.entities.get(payments.name).get(made.id);
    expect(row).toEqual(Object.fromEntries(['id', ...keys].map((key) => [key, api[key]])));
    expect(row).toMatchObject({ id: made.id, amount: 9_007_199_254_740, toRetainer: false });
    expect([row.notes, row.reference, row.ledgerEntryId]).toEqual([null, null, null]);
  });

  it('reads a true boolean stored as 1 on SQLite as true', async () => {
    const made = await createRow(t.app, admin.headers, holidays.name);
    const raw = await selectFields(t.app.db, holidays, ['status', 'days'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(raw[cols(holidays).status]).toBe(dialect === 'sqlite' ? 1 : true);
    expect(readRow(holidays, raw)).toEqual({ id: made.id, status: true, days: made.days });
  });

  it('reads a bigint and a numeric computed by the database as numbers', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select cast(${'9007199254740'} as bigint) as amount, cast(${'42'} as numeric) as ledger_entry_id,
        ${dialect === 'postgres' ? sql`true` : sql`1`} as to_retainer, null as notes`.execute(t.app.db);
    expect(readRow(payments, rows[0]!, ['amount', 'ledgerEntryId', 'toRetainer', 'notes'])).toEqual({
      amount: 9_007_199_254_740,
      ledgerEntryId: 42,
      toRetainer: true,
      notes: null,
    });
  });
});
