import type { Migration } from '../db/migrations';
import { joinStoredCompounds } from '../db/migrations';
import { idColumn, instantType } from '../db/migrations/entityTables';

/** Tables of the chat (group `chat` in app.ts). Append only. */
export const chatMigrations: Migration[] = [
  {
    name: 'chat_001_tables',
    async up(db, dialect) {
      await idColumn(db.schema.createTable('chats'), dialect)
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)')
        // `<smaller id>:<larger id>` of a one-to-one chat: the pair opens one chat only, even when both
        // open it at the same moment.
        .addColumn('direct_key', 'varchar(50)', (c) => c.unique())
        .addColumn('created_by', 'integer', (c) => c.notNull().references('employees.id'))
        .addColumn('created_at', instantType(dialect), (c) => c.notNull())
        .addColumn('last_activity_at', instantType(dialect), (c) => c.notNull())
        // Bumped by every send in its transaction: senders to one chat queue on this row, so message
        // ids grow in commit order within a chat and an after-cursor never skips a late commit.
        .addColumn('last_message_id', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('chat_members')
        .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
        .addColumn('employee_id', 'integer', (c) =>
          c.notNull().references('employees.id').onDelete('cascade'),
        )
        .addColumn('admin', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
        // Message ids: everything up to them received by the member's client / read by the member.
        .addColumn('last_delivered_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_read_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('joined_at', instantType(dialect), (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_members_pk', ['chat_id', 'employee_id'])
        .execute();
      await db.schema
        .createIndex('chat_members_employee_idx')
        .on('chat_members')
        .columns(['employee_id', 'chat_id'])
        .execute();

      await idColumn(db.schema.createTable('chat_messages'), dialect)
        .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
        .addColumn('sender_id', 'integer', (c) => c.notNull().references('employees.id'))
        .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        // The folded text (`foldArabic`), searched with LIKE: a chat's messages are few enough.
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('reply_to_id', 'integer')
        // The mentioned employees' ids, as JSON.
        .addColumn('mentions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', instantType(dialect), (c) => c.notNull())
        .addColumn('edited_at', instantType(dialect))
        .addColumn('deleted_at', instantType(dialect))
        .execute();
      // Pages by cursor within a chat.
      await db.schema
        .createIndex('chat_messages_chat_idx')
        .on('chat_messages')
        .columns(['chat_id', 'id'])
        .execute();
      // The idempotency key: a retried send finds the stored message.
      await db.schema
        .createIndex('chat_messages_client_uq')
        .unique()
        .on('chat_messages')
        .columns(['sender_id', 'client_id'])
        .execute();
    },
  },
  {
    // Folding joins compound names (`عبد الله` → `عبدالله`): messages folded before are refolded,
    // so a search folded the new way finds them.
    name: 'chat_002_compound_names_folded',
    async up(db) {
      await joinStoredCompounds(db, 'chat_messages');
    },
  },
];
