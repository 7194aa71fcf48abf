import { registry } from '@mizan/contracts';
import Sqlite from 'better-sqlite3';
import { Client } from 'pg';
import { MIGRATION_GROUPS } from '../../app';
import { dialects, freshDatabase } from '../../test/harness';
import { createDatabase, type Dialect } from '../index';
import { migrationNames, runMigrations, type MigrationGroup } from '../migrate';
import { createMissingEntityTables } from './index';

/**
 * Rolling upgrades (deploy/README.md, "Upgrades without downtime"): while the instances restart
 * one at a time, those of the previous release serve on the schema the new one migrated. So every
 * migration step expands the schema only; one that drops, renames or retypes a table or a column,
 * or makes an existing column required, must be a contract step (`contract` set on the step),
 * shipped a release after the code stopped reading what it removes.
 *
 * Checked on the statements the steps really send (every step, from an empty database, on both
 * databases), not on their source: helpers shared by many steps are covered too.
 */

/** Why a statement would break the previous release's code; null when it only adds. */
function narrowing(statement: string): string | null {
  const s = statement.replace(/\s+/g, ' ').trim().toLowerCase();
  if (/^alter table .* rename\b/.test(s)) return 'renames a table or column';
  if (/^alter table .*\bdrop column\b/.test(s)) return 'drops a column';
  if (/^alter table .*\balter column \S+ (set data )?type\b/.test(s)) return 'changes a column type';
  if (/^alter table .*\balter column \S+ set not null\b/.test(s)) return 'makes a column required';
  if (/^alter table .*\badd column\b.*\bnot null\b/.test(s) && !/\bdefault\b/.test(s))
    return 'adds a required column without a default (the previous release inserts without it)';
  if (/^drop table\b/.test(s)) return 'drops a table';
  if (/^drop view\b/.test(s)) return 'drops a view';
  return null;
}

/** `drop table [if exists] "x"` → x. */
const droppedTable = (s: string) =>
  /^\s*drop table (?:if exists )?("?)([\w.]+)\1/i.exec(s)?.[2]?.split('.').pop() ?? null;
/** Whether `statements` create table `name` (any kind: a rebuilt index table is not a removal). */
const creates = (statements: string[], name: string) =>
  statements.some((s) =>
    new RegExp(`^\\s*create (?:virtual )?table (?:if not exists )?"?(?:\\w+\\.)?${name}"?[\\s(]`, 'i').test(
      s,
    ),
  );

/**
 * Runs every group's steps on a fresh database of `dialect`, recording the statements each step
 * sends (its recorded name → statements), and then the start's own table creation.
 */
async function statementsBySteps(dialect: Dialect): Promise<Map<string, string[]>> {
  const byStep = new Map<string, string[]>();
  let current = '(none)';
  const names = migrationNames(MIGRATION_GROUPS);
  let n = 0;
  const groups: MigrationGroup[] = MIGRATION_GROUPS.map(({ group, migrations }) => ({
    group,
    migrations: migrations.map((m) => {
      const name = names[n++];
      return {
        ...m,
        up: (db, d) => {
          current = name;
          return m.up(db, d);
        },
      };
    }),
  }));
  const record = (text: unknown) => {
    if (typeof text !== 'string') return;
    byStep.set(current, [...(byStep.get(current) ?? []), text]);
  };
  // The drivers' own entry points: every statement of either database passes through one.
  const pgQuery = Client.prototype.query as (...args: unknown[]) => unknown;
  const prepare = Sqlite.prototype.prepare;
  const exec = Sqlite.prototype.exec;
  const spies = [
    jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      const [query] = args;
      record(typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text);
      return pgQuery.apply(this, args);
    } as never),
    jest.spyOn(Sqlite.prototype, 'prepare').mockImplementation(function (
      this: Sqlite.Database,
      source: string,
    ) {
      record(source);
      return prepare.call(this, source);
    } as never),
    jest.spyOn(Sqlite.prototype, 'exec').mockImplementation(function (this: Sqlite.Database, source: string) {
      record(source);
      return exec.call(this, source);
    }),
  ];
  const fresh = await freshDatabase(dialect);
  const database = createDatabase(fresh.url);
  try {
    await runMigrations(database.db, database.dialect, groups);
    current = '(start: createMissingEntityTables)';
    await createMissingEntityTables(
      database.db,
      database.dialect,
      registry.map((e) => e.name),
    );
  } finally {
    for (const spy of spies) spy.mockRestore();
    await database.destroy();
    await fresh.drop();
  }
  return byStep;
}

/**
 * Steps released before the rule was written down that this check would refuse, with what they
 * do. Frozen: a new step that narrows the schema is marked `contract` instead.
 */
const RELEASED_BEFORE_THE_RULE: Record<string, string> = {
  // Widens dashboard_stats.month from varchar(7) to varchar(10) on PostgreSQL (it also holds days):
  // the previous release's 7-character months still fit.
  '05-002-dashboard-dashboard_003_hearing_days': 'widens a text column',
};

describe.each(dialects())('migrations expand the schema only (%s)', (dialect) => {
  let byStep: Map<string, string[]>;
  const contractSteps = new Map(
    MIGRATION_GROUPS.flatMap(({ migrations }) => migrations).flatMap((m, i) =>
      m.contract ? [[migrationNames(MIGRATION_GROUPS)[i], m.contract] as const] : [],
    ),
  );

  beforeAll(async () => {
    byStep = await statementsBySteps(dialect);
  });

  it('sends statements from every step (the recording works)', () => {
    expect(byStep.size).toBeGreaterThan(10);
    expect([...byStep.values()].flat().some((s) => /create table/i.test(s))).toBe(true);
  });

  it('drops, renames, retypes or requires nothing outside a contract step', () => {
    const found: string[] = [];
    for (const [step, statements] of byStep) {
      if (contractSteps.has(step) || step in RELEASED_BEFORE_THE_RULE) continue;
      for (const statement of statements) {
        const why = narrowing(statement);
        if (!why) continue;
        // A table dropped and created again in the same step (an index table rebuilt) stays.
        const table = droppedTable(statement);
        if (why === 'drops a table' && table && creates(statements, table)) continue;
        found.push(`${step}: ${why}: ${statement.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('knows every step it exempts', () => {
    const names = new Set(migrationNames(MIGRATION_GROUPS));
    expect(Object.keys(RELEASED_BEFORE_THE_RULE).filter((n) => !names.has(n))).toEqual([]);
  });
});

describe('what counts as narrowing the schema', () => {
  it.each([
    ['alter table "clients" drop column "fax"', 'drops a column'],
    ['ALTER TABLE clients RENAME COLUMN fax TO phone2', 'renames a table or column'],
    ['alter table "clients" rename to "customers"', 'renames a table or column'],
    ['alter table "clients" alter column "fee" type bigint', 'changes a column type'],
    ['alter table "clients" alter column "fee" set data type bigint', 'changes a column type'],
    ['alter table "clients" alter column "fee" set not null', 'makes a column required'],
    ['alter table "clients" add column "fee" integer not null', expect.stringContaining('required column')],
    ['drop table "clients"', 'drops a table'],
  ])('%s', (statement, why) => {
    expect(narrowing(statement)).toEqual(why);
  });

  it.each([
    'alter table "clients" add column "fee" integer',
    'alter table "clients" add column "fee" integer default 0 not null',
    'create index "clients_fee" on "clients" ("fee")',
    'drop index if exists "clients_fee"',
    'alter table "clients" alter column "fee" drop not null',
    'alter table "clients" drop constraint "clients_fee_check"',
    'select "rename" from "drop table"',
  ])('%s adds or relaxes only', (statement) => {
    expect(narrowing(statement)).toBeNull();
  });
});
