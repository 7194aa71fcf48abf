import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { onPostgres, type Db } from '../db';
import { addEntityFields } from '../db/migrations';
import { reapplySeededRules } from './seed';

/** A migration as the migrations runner (db/migrate) takes it; it runs on SQLite and PostgreSQL alike. */
export interface AuthMigration {
  name: string;
  up(db: Kysely<unknown>): Promise<void>;
}

/** Times: TIMESTAMPTZ in PostgreSQL, ISO 8601 TEXT in SQLite (see types.ts). */
function timeType(db: Kysely<unknown>) {
  return onPostgres(db) ? sql`timestamptz` : sql`text`;
}

function withId<T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>) {
  return onPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export const authMigrations: AuthMigration[] = [
  {
    name: 'auth_001_sessions',
    async up(db) {
      const time = timeType(db);
      await withId(db, db.schema.createTable('sessions').ifNotExists())
        .addColumn('employee_id', 'integer', (c) =>
          c.notNull().references('employees.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('fingerprint_session', 'varchar(200)')
        .addColumn('ip', 'varchar(64)')
        .addColumn('user_agent', 'varchar(500)')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_seen_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('revoked_at', time)
        .execute();
      await db.schema
        .createIndex('sessions_employee_id_idx')
        .ifNotExists()
        .on('sessions')
        .column('employee_id')
        .execute();
    },
  },
  {
    name: 'auth_002_login_history',
    async up(db) {
      await withId(db, db.schema.createTable('login_history').ifNotExists())
        // Kept when the employee is deleted: the history of attempts outlives the account.
        .addColumn('employee_id', 'integer', (c) => c.references('employees.id').onDelete('set null'))
        .addColumn('identifier', 'varchar(150)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)')
        .addColumn('user_agent', 'varchar(500)')
        .addColumn('success', 'boolean', (c) => c.notNull())
        .addColumn('reason', 'varchar(50)')
        .addColumn('created_at', timeType(db), (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_history_employee_idx')
        .ifNotExists()
        .on('login_history')
        .columns(['employee_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('login_history_created_idx')
        .ifNotExists()
        .on('login_history')
        .column('created_at')
        .execute();
    },
  },
  {
    name: 'auth_003_password_resets',
    async up(db) {
      const time = timeType(db);
      await withId(db, db.schema.createTable('password_resets').ifNotExists())
        .addColumn('employee_id', 'integer', (c) =>
          c.notNull().references('employees.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('password_resets_employee_idx')
        .ifNotExists()
        .on('password_resets')
        .column('employee_id')
        .execute();
    },
  },
  {
    name: 'auth_004_outbox',
    async up(db) {
      const time = timeType(db);
      await withId(db, db.schema.createTable('outbox').ifNotExists())
        .addColumn('to', 'varchar(320)', (c) => c.notNull())
        .addColumn('subject', 'varchar(300)', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('html', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('sent_at', time)
        .addColumn('error', 'text')
        .execute();
    },
  },
  {
    name: 'auth_005_employee_login_columns',
    async up(db) {
      await db.schema
        .alterTable('employees')
        .addColumn('password_change_required', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
      await db.schema.alterTable('employees').addColumn('last_login_at', timeType(db)).execute();
    },
  },
  {
    // Roles say whether their members are lawyers (what lawyer pickers offer), and the seeded
    // roles follow an office's day: the lawyer records the payments of lawsuits, the secretary
    // neither reads nor records fees.
    name: 'auth_006_role_lawyers_and_fees',
    async up(db) {
      const database = db as unknown as Db;
      await addEntityFields(database, onPostgres(db) ? 'postgres' : 'sqlite', 'roles', ['lawyers']);
      await database.updateTable('roles').set({ lawyers: false }).where('lawyers', 'is', null).execute();
      await reapplySeededRules(database, (key) => key.startsWith('lawsuitPayments.'));
    },
  },
  {
    name: 'auth_007_two_factor',
    async up(db) {
      const time = timeType(db);
      // One row per employee who began enrolling; `enabled_at` set once the first code proved it.
      await db.schema
        .createTable('two_factor')
        .ifNotExists()
        .addColumn('employee_id', 'integer', (c) =>
          c.primaryKey().references('employees.id').onDelete('cascade'),
        )
        .addColumn('secret', 'varchar(64)', (c) => c.notNull())
        .addColumn('enabled_at', time)
        // The last time step a code was accepted for: a code is accepted once, never replayed.
        .addColumn('last_step', 'bigint')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await withId(db, db.schema.createTable('two_factor_recovery_codes').ifNotExists())
        .addColumn('employee_id', 'integer', (c) =>
          c.notNull().references('employees.id').onDelete('cascade'),
        )
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('two_factor_recovery_employee_idx')
        .ifNotExists()
        .on('two_factor_recovery_codes')
        .column('employee_id')
        .execute();
      // The second step of a sign-in (or an enrolment required at sign-in): single use, 5 minutes.
      await withId(db, db.schema.createTable('two_factor_challenges').ifNotExists())
        .addColumn('employee_id', 'integer', (c) =>
          c.notNull().references('employees.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('purpose', 'varchar(10)', (c) => c.notNull())
        .addColumn('identifier', 'varchar(150)', (c) => c.notNull())
        .addColumn('fingerprint_session', 'varchar(200)')
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      // The roles whose members must sign in with two factors (a system setting).
      await db.schema
        .createTable('two_factor_required_roles')
        .ifNotExists()
        .addColumn('role_id', 'integer', (c) => c.primaryKey().references('roles.id').onDelete('cascade'))
        .execute();
    },
  },
  {
    // The first answer to a create sent with an `Idempotency-Key`, per employee (http/idempotency.ts).
    name: 'auth_008_idempotency_keys',
    async up(db) {
      await db.schema
        .createTable('idempotency_keys')
        .ifNotExists()
        .addColumn('employee_id', 'integer', (c) => c.notNull())
        .addColumn('key', 'varchar(255)', (c) => c.notNull())
        .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('body', 'text')
        .addColumn('created_at', timeType(db), (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['employee_id', 'key'])
        .execute();
      await db.schema
        .createIndex('idempotency_keys_created_at')
        .ifNotExists()
        .on('idempotency_keys')
        .column('created_at')
        .execute();
    },
  },
  {
    // Texts about what an employee did agree with their gender (`employees.gender`, optional).
    name: 'auth_009_employee_gender',
    async up(db) {
      await addEntityFields(db as unknown as Db, onPostgres(db) ? 'postgres' : 'sqlite', 'employees', [
        'gender',
      ]);
    },
  },
];
