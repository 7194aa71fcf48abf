import { sql } from 'kysely';
import type { Migration } from '../db/migrations';
import { idColumn, instantType } from '../db/migrations/entityTables';

/** Tables of the notification centre (group `notifications` in app.ts). Append only. */
export const notificationsMigrations: Migration[] = [
  {
    name: 'notifications_001_tables',
    async up(db, dialect) {
      await idColumn(db.schema.createTable('notifications'), dialect)
        .addColumn('employee_id', 'integer', (c) =>
          c.notNull().references('employees.id').onDelete('cascade'),
        )
        .addColumn('kind', 'varchar(50)', (c) => c.notNull())
        // The texts' values, as JSON: the texts themselves are the reader's language's.
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('link', 'varchar(500)')
        // Set by the sender to make a notification once only per employee (a reminder per hearing and day).
        .addColumn('key', 'varchar(200)')
        .addColumn('read_at', instantType(dialect))
        .addColumn('created_at', instantType(dialect), (c) => c.notNull())
        .execute();
      // Newest first per employee; ids grow with time, so the id orders them.
      await db.schema
        .createIndex('notifications_employee_idx')
        .on('notifications')
        .columns(['employee_id', 'id'])
        .execute();
      // Unique where set: NULL keys never collide on either database.
      await db.schema
        .createIndex('notifications_employee_key_uq')
        .unique()
        .on('notifications')
        .columns(['employee_id', 'key'])
        .execute();
      // The bell's count reads only the unread ones.
      await db.schema
        .createIndex('notifications_unread_idx')
        .on('notifications')
        .column('employee_id')
        .where(sql.ref('read_at'), 'is', null)
        .execute();

      // One row per employee who changed a choice or whose language is known; absent means defaults.
      await db.schema
        .createTable('notification_preferences')
        .addColumn('employee_id', 'integer', (c) =>
          c.primaryKey().references('employees.id').onDelete('cascade'),
        )
        // { kind: channel } for the kinds the employee chose; the others are 'app'.
        .addColumn('channels', 'text', (c) => c.notNull())
        // The language the employee last used the app in: the language of their notification mail.
        .addColumn('lang', 'varchar(2)')
        .addColumn('updated_at', instantType(dialect), (c) => c.notNull())
        .execute();
    },
  },
];
