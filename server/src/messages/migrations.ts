import { DEADLINE_NOTICE_DAYS } from '@mizan/contracts';
import type { Migration } from '../db/migrations';
import { addEntityFields } from '../db/migrations';
import { idColumn, instantType } from '../db/migrations/entityTables';

/** Tables of the messages to clients (group `messages` in app.ts). Append only. */
export const messagesMigrations: Migration[] = [
  {
    // A client's channels and consents; the outbound messages; the providers' settings.
    name: 'messages_001_client_messages',
    async up(db, dialect) {
      await addEntityFields(db, dialect, 'customers', [
        'whatsapp',
        'language',
        'emailOptIn',
        'smsOptIn',
        'whatsappOptIn',
      ]);
      await idColumn(db.schema.createTable('client_messages'), dialect)
        .addColumn('customer_id', 'integer', (c) => c.notNull())
        .addColumn('lawsuit_id', 'integer')
        .addColumn('event', 'varchar(40)')
        // What an event's run makes once, whatever repeats it: `<job key>:<client>:<channel>`.
        .addColumn('dedupe_key', 'varchar(300)', (c) => c.unique())
        .addColumn('channel', 'varchar(10)', (c) => c.notNull())
        .addColumn('recipient', 'varchar(150)', (c) => c.notNull())
        .addColumn('language', 'varchar(5)', (c) => c.notNull())
        .addColumn('subject', 'varchar(200)')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('whatsapp_template', 'varchar(100)')
        .addColumn('state', 'varchar(10)', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('provider_id', 'varchar(200)')
        .addColumn('created_by', 'integer')
        .addColumn('created_at', instantType(dialect), (c) => c.notNull())
        .addColumn('updated_at', instantType(dialect), (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('client_messages_customer_idx')
        .on('client_messages')
        .columns(['customer_id', 'id'])
        .execute();
      await db.schema
        .createIndex('client_messages_lawsuit_idx')
        .on('client_messages')
        .columns(['lawsuit_id', 'id'])
        .execute();
      await db.schema
        .createIndex('client_messages_provider_idx')
        .on('client_messages')
        .columns(['channel', 'provider_id'])
        .execute();
      // One row per provider (`sms`, `whatsapp`): its settings and, apart, its secrets (JSON).
      await db.schema
        .createTable('message_providers')
        .addColumn('channel', 'varchar(10)', (c) => c.primaryKey())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('secrets', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'integer')
        .addColumn('updated_at', instantType(dialect), (c) => c.notNull())
        .execute();
    },
  },
  {
    // The clients' "deadline approaching" lead time, apart from the lawyers' reminder days.
    name: 'messages_002_deadline_notice_days',
    async up(db) {
      await db.schema
        .alterTable('system_settings')
        .addColumn('client_deadline_notice_days', 'integer', (c) =>
          c.notNull().defaultTo(DEADLINE_NOTICE_DAYS.default),
        )
        .execute();
    },
  },
  {
    // A shared document's message: the attachment whose files it carries, and the provider's steps
    // already done (JSON, step → id) so that a retry sends nothing twice.
    name: 'messages_003_shared_documents',
    async up(db) {
      await db.schema.alterTable('client_messages').addColumn('attachment_id', 'integer').execute();
      await db.schema.alterTable('client_messages').addColumn('steps', 'text').execute();
    },
  },
];
