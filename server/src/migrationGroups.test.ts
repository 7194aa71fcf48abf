import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATION_GROUPS, MODULES } from './app';
import { createDatabase } from './db';
import { runMigrations, type MigrationGroup } from './db/migrate';
import type { Migration } from './db/migrations';
import { dialects, freshDatabase } from './test/harness';

describe('modules and their migrations', () => {
  it('lists every module once, with the migration groups in their historic order', () => {
    const names = MODULES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    // A group's position is part of its steps' recorded names: reordering would re-run them.
    expect(MIGRATION_GROUPS.map((g) => g.group)).toEqual([
      'core',
      'auth',
      'system',
      'notifications',
      'scheduler',
      'dashboard',
      'chat',
      'deadlines',
      'backups',
      'finance',
      'jobs',
      'filetext',
      'messages',
    ]);
  });

  it('records each step under the name databases already hold, and runs nothing twice', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-groups-'));
    const database = createDatabase(`sqlite:${path.join(dir, 'm.db')}`);
    try {
      const ran = await runMigrations(database.db, database.dialect, MIGRATION_GROUPS);
      expect(ran).toEqual(
        expect.arrayContaining([
          '00-000-core-001_system',
          '00-001-core-002_entities',
          '01-000-auth-auth_001_sessions',
          '02-000-system-system_001_settings',
        ]),
      );
      expect(await runMigrations(database.db, database.dialect, MIGRATION_GROUPS)).toEqual([]);
    } finally {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(dialects())('a previous release on a database a newer one migrated (%s)', (dialect) => {
  const table = (name: string): Migration => ({
    name,
    up: (db) =>
      db.schema
        .createTable(name)
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute(),
  });
  const previous: MigrationGroup[] = [{ group: 'core', migrations: [table('t_one')] }];
  const next: MigrationGroup[] = [
    { group: 'core', migrations: [table('t_one'), table('t_two')] },
    { group: 'extra', migrations: [table('t_three')] },
  ];

  it('starts, runs nothing and names the steps it does not know; the newer release runs none again', async () => {
    const fresh = await freshDatabase(dialect, 'mizan-newer-');
    const database = createDatabase(fresh.url);
    try {
      expect(await runMigrations(database.db, database.dialect, next)).toEqual([
        '00-000-core-t_one',
        '00-001-core-t_two',
        '01-000-extra-t_three',
      ]);
      const newer: string[][] = [];
      expect(
        await runMigrations(database.db, database.dialect, previous, { onNewer: (n) => newer.push(n) }),
      ).toEqual([]);
      expect(newer).toEqual([['00-001-core-t_two', '01-000-extra-t_three']]);
      expect(await runMigrations(database.db, database.dialect, next)).toEqual([]);
      // What the newer release made is still there.
      expect(
        await database.db
          .selectFrom('t_three' as never)
          .selectAll()
          .execute(),
      ).toEqual([]);
    } finally {
      await database.destroy();
      await fresh.drop();
    }
  });

  it('on a database of the previous release, the newer release runs just its new steps', async () => {
    const fresh = await freshDatabase(dialect, 'mizan-older-');
    const database = createDatabase(fresh.url);
    try {
      await runMigrations(database.db, database.dialect, previous);
      const newer: string[][] = [];
      expect(
        await runMigrations(database.db, database.dialect, next, { onNewer: (n) => newer.push(n) }),
      ).toEqual(['00-001-core-t_two', '01-000-extra-t_three']);
      expect(newer).toEqual([]);
    } finally {
      await database.destroy();
      await fresh.drop();
    }
  });
});
