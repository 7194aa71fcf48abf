import type { Migration } from './types';
import { idColumn, instantType } from './entityTables';

/** Audit trail, stored files and the maintained row counts that serve unfiltered list totals. */
export const systemMigration: Migration = {
  name: '001_system',
  async up(db, dialect) {
    const text = dialect === 'postgres' ? 'varchar(255)' : 'text';
    await idColumn(db.schema.createTable('audit_log'), dialect)
      .addColumn('employee_id', 'integer')
      .addColumn('entity', 'varchar(100)', (c) => c.notNull())
      .addColumn('entity_id', 'integer')
      .addColumn('action', 'varchar(30)', (c) => c.notNull())
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .addColumn('ip', 'varchar(64)')
      .addColumn('created_at', instantType(dialect), (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('audit_log_created_at_id_idx')
      .on('audit_log')
      .columns(['created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('audit_log_entity_idx')
      .on('audit_log')
      .columns(['entity', 'entity_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('audit_log_employee_idx')
      .on('audit_log')
      .columns(['employee_id', 'created_at'])
      .execute();

    await idColumn(db.schema.createTable('files'), dialect)
      .addColumn('entity', 'varchar(100)', (c) => c.notNull())
      .addColumn('owner_id', 'integer', (c) => c.notNull())
      .addColumn('field', 'varchar(100)', (c) => c.notNull())
      .addColumn('stored_name', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('original_name', text as 'text', (c) => c.notNull())
      .addColumn('mime_type', 'varchar(150)', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addColumn('created_at', instantType(dialect), (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('files_owner_idx')
      .on('files')
      .columns(['entity', 'owner_id', 'field'])
      .execute();

    await db.schema
      .createTable('entity_counts')
      .addColumn('entity', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
