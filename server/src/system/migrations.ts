import {
  BACKUP_DEFAULTS,
  DEFAULT_TIME_ZONE,
  PROCURATION_CHECK_DEFAULT,
  REMINDER_DEFAULTS,
  UPLOAD_DEFAULTS,
  WORKING_DAY_DEFAULTS,
} from '@mizan/contracts';
import { sql } from 'kysely';
import type { Migration } from '../db/migrations';
import { instantType } from '../db/migrations/entityTables';
import { createWriteTriggers } from '../db/migrations/writeVersions';
import { SETTINGS_VERSION } from '../settings/repository';

/**
 * Tables of the system module, appended to the migration list as their own group
 * (`{ group: 'system', migrations: systemMigrations }`). Append only.
 */
export const systemMigrations: Migration[] = [
  {
    name: 'system_001_settings',
    async up(db, dialect) {
      const pg = dialect === 'postgres';
      const bool = sql.raw(pg ? 'boolean' : 'integer');
      // One row (id 1): the office's settings. Absent until first saved; readers fall back to defaults.
      await db.schema
        .createTable('system_settings')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('office_name', 'varchar(150)', (c) => c.notNull())
        .addColumn('phone', 'varchar(20)')
        .addColumn('email', 'varchar(150)')
        .addColumn('address', 'varchar(255)')
        .addColumn('default_language', 'varchar(2)', (c) => c.notNull())
        .addColumn('default_theme', 'varchar(5)', (c) => c.notNull())
        .addColumn('calendar', 'varchar(10)', (c) => c.notNull())
        .addColumn('session_lifetime_hours', 'integer', (c) => c.notNull())
        .addColumn('password_min_length', 'integer', (c) => c.notNull())
        .addColumn('password_require_digits', bool, (c) => c.notNull())
        .addColumn('password_require_symbols', bool, (c) => c.notNull())
        .addColumn('logo_file_id', 'integer', (c) => c.references('files.id').onDelete('set null'))
        .addColumn('favicon_file_id', 'integer', (c) => c.references('files.id').onDelete('set null'))
        .addColumn('primary_color', 'varchar(7)', (c) => c.notNull())
        .addColumn('updated_by', 'integer')
        .addColumn('updated_at', instantType(dialect), (c) => c.notNull())
        .execute();
    },
  },
  {
    // The office's time zone (which calendar day "today" is); existing offices get the default.
    name: 'system_002_time_zone',
    async up(db) {
      await db.schema
        .alterTable('system_settings')
        .addColumn('time_zone', 'varchar(64)', (c) => c.notNull().defaultTo(DEFAULT_TIME_ZONE))
        .execute();
    },
  },
  {
    // When reminders go out and how long before a power of attorney's expiry; offices get the defaults.
    name: 'system_003_reminders',
    async up(db) {
      const columns: [string, string, string][] = [
        ['reminder_evening_time', 'varchar(5)', REMINDER_DEFAULTS.reminderEveningTime],
        ['reminder_morning_time', 'varchar(5)', REMINDER_DEFAULTS.reminderMorningTime],
        [
          'procuration_reminder_days',
          'varchar(100)',
          JSON.stringify(REMINDER_DEFAULTS.procurationReminderDays),
        ],
      ];
      // One column per statement: SQLite adds one at a time.
      for (const [name, type, value] of columns)
        await db.schema
          .alterTable('system_settings')
          .addColumn(name, sql.raw(type), (c) => c.notNull().defaultTo(value))
          .execute();
    },
  },
  {
    // The office's country, days off and deadline reminders; offices get the defaults.
    name: 'system_004_working_days',
    async up(db) {
      const columns: [string, string, string][] = [
        ['office_country', 'varchar(2)', WORKING_DAY_DEFAULTS.officeCountry],
        ['weekend_days', 'varchar(30)', JSON.stringify(WORKING_DAY_DEFAULTS.weekendDays)],
        ['deadline_reminder_days', 'varchar(100)', JSON.stringify(WORKING_DAY_DEFAULTS.deadlineReminderDays)],
      ];
      for (const [name, type, value] of columns)
        await db.schema
          .alterTable('system_settings')
          .addColumn(name, sql.raw(type), (c) => c.notNull().defaultTo(value))
          .execute();
    },
  },
  {
    // Whether a client without a power of attorney for litigation is warned of or refused; offices warn.
    name: 'system_005_procuration_check',
    async up(db) {
      await db.schema
        .alterTable('system_settings')
        .addColumn('procuration_check', sql.raw('varchar(10)'), (c) =>
          c.notNull().defaultTo(PROCURATION_CHECK_DEFAULT),
        )
        .execute();
    },
  },
  {
    // When the daily backup is taken and how many are kept; offices get a week of them at 02:00.
    name: 'system_006_backup_schedule',
    async up(db) {
      await db.schema
        .alterTable('system_settings')
        .addColumn('backup_time', sql.raw('varchar(5)'), (c) =>
          c.notNull().defaultTo(BACKUP_DEFAULTS.backupTime),
        )
        .execute();
      await db.schema
        .alterTable('system_settings')
        .addColumn('backup_keep', sql.raw('integer'), (c) =>
          c.notNull().defaultTo(BACKUP_DEFAULTS.backupKeep),
        )
        .execute();
    },
  },
  {
    // One upload limit for every kind of file, in megabytes; offices get the default.
    name: 'system_007_upload_limit',
    async up(db) {
      await db.schema
        .alterTable('system_settings')
        .addColumn('max_upload_mb', sql.raw('integer'), (c) =>
          c.notNull().defaultTo(UPLOAD_DEFAULTS.maxUploadMb),
        )
        .execute();
    },
  },
  {
    // The settings row's write version, read with every request's session: a write takes the
    // settings kept at that version instead of reading the row (settings/repository.ts).
    name: 'system_008_settings_version',
    async up(db, dialect) {
      await db
        .insertInto('entity_counts')
        .values({ entity: SETTINGS_VERSION, total: 0 })
        .onConflict((oc) => oc.column('entity').doNothing())
        .execute();
      await createWriteTriggers(db, dialect, SETTINGS_VERSION, ['system_settings']);
    },
  },
];
