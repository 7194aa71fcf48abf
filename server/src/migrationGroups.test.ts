import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATION_GROUPS, MODULES } from './app';
import { createDatabase } from './db';
import { runMigrations } from './db/migrate';

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
