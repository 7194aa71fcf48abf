import { FILE_TEXT_DEFAULTS } from '@mizan/contracts';
import type { Migration } from '../db/migrations';
import { idColumn, instantType } from '../db/migrations/entityTables';
import { createTrigramIndex } from '../db/migrations/searchColumn';

/** The table of files' pages and its SQLite FTS5 index (see engine/search.ts `textCondition`). */
export const PAGES_TABLE = 'file_text_pages';
export const PAGES_FTS = 'file_text_pages_search_fts';
export const TEXTS_TABLE = 'file_texts';

/** The text of stored files (group `filetext` in app.ts). Append only. */
export const fileTextMigrations: Migration[] = [
  {
    name: 'filetext_001_texts',
    async up(db, dialect) {
      // One row per stored file whose text was asked for: the version read (its stored name), how it went.
      await db.schema
        .createTable(TEXTS_TABLE)
        .addColumn('file_id', 'integer', (c) => c.primaryKey())
        .addColumn('stored_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('state', 'varchar(20)', (c) => c.notNull())
        .addColumn('confidence', 'real')
        .addColumn('error', 'text')
        .addColumn('pages_done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('pages_total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', instantType(dialect), (c) => c.notNull())
        .execute();
      // Each page's text as read (`text`) and folded for search (`search_text`, trigram-indexed).
      await idColumn(db.schema.createTable(PAGES_TABLE), dialect)
        .addColumn('file_id', 'integer', (c) => c.notNull())
        .addColumn('page', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('search_text', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('file_text_pages_file_idx')
        .on(PAGES_TABLE)
        .columns(['file_id', 'page'])
        .unique()
        .execute();
      await createTrigramIndex(db, dialect, PAGES_TABLE, PAGES_FTS);
    },
  },
  {
    // The limits of reading files' text, as system settings (the `system` group's table); offices get the defaults.
    name: 'filetext_002_limits',
    async up(db) {
      const columns: [string, number][] = [
        ['text_max_pages', FILE_TEXT_DEFAULTS.textMaxPages],
        ['text_seconds_per_page', FILE_TEXT_DEFAULTS.textSecondsPerPage],
        ['text_concurrency', FILE_TEXT_DEFAULTS.textConcurrency],
      ];
      // One column per statement: SQLite adds one at a time.
      for (const [name, value] of columns)
        await db.schema
          .alterTable('system_settings')
          .addColumn(name, 'integer', (c) => c.notNull().defaultTo(value))
          .execute();
    },
  },
];
