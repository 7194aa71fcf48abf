import type { Migration } from '../db/migrations';
import { feeInstalments, invoiceLines } from '@mizan/contracts';
import { addEntityFields, createEntityTables } from '../db/migrations';
import { instantType } from '../db/migrations/entityTables';
import { moveLedgerPayments } from './ledger';
import { ALLOCATIONS } from './money';
import { backfillAllocationLawsuits, backfillPaymentLawsuits } from './paymentLawsuits';
import { tableNames } from '../db';

/** Columns and tables of the office's money (group `finance` in app.ts). Append only. */
export const financeMigrations: Migration[] = [
  {
    // Hourly rates: an employee's own, and a lawsuit's override (time entries' default rate).
    name: 'finance_001_hourly_rates',
    async up(db, dialect) {
      await addEntityFields(db, dialect, 'employees', ['hourlyRate']);
      await addEntityFields(db, dialect, 'lawsuits', ['hourlyRate']);
    },
  },
  {
    // One timer per employee: the lawsuit, the seconds of earlier runs, the current run's start.
    name: 'finance_002_timers',
    async up(db, dialect) {
      await db.schema
        .createTable('finance_timers')
        .addColumn('employee_id', 'integer', (c) =>
          c.primaryKey().references('employees.id').onDelete('cascade'),
        )
        .addColumn('lawsuit_id', 'integer', (c) => c.notNull())
        .addColumn('elapsed_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('running_since', instantType(dialect))
        .addColumn('updated_at', instantType(dialect), (c) => c.notNull())
        .execute();
    },
  },
  {
    // The numbering counters of invoices and credit notes, payments' shares of invoices, and the
    // office's currency and VAT settings. (The tables of invoices, their lines, payments and the
    // retainer come from their definitions at start, after the migrations: `createMissingEntityTables`.
    // So the shares name their payment and invoice without foreign keys; the payments hooks keep them.)
    name: 'finance_003_invoices',
    async up(db, dialect) {
      await db.schema
        .createTable('finance_invoice_counters')
        .addColumn('series', 'varchar(20)', (c) => c.notNull())
        .addColumn('year', 'integer', (c) => c.notNull())
        .addColumn('last', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('finance_invoice_counters_pk', ['series', 'year'])
        .execute();
      const money = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('finance_payment_allocations')
        .addColumn('payment_id', 'integer', (c) => c.notNull())
        .addColumn('invoice_id', 'integer', (c) => c.notNull())
        .addColumn('amount', money, (c) => c.notNull())
        .addPrimaryKeyConstraint('finance_payment_allocations_pk', ['payment_id', 'invoice_id'])
        .execute();
      await db.schema
        .createIndex('finance_payment_allocations_invoice_idx')
        .on('finance_payment_allocations')
        .column('invoice_id')
        .execute();
      // One column per statement: SQLite adds one at a time.
      await db.schema.alterTable('system_settings').addColumn('currency', 'varchar(3)').execute();
      await db.schema.alterTable('system_settings').addColumn('vat_number', 'varchar(20)').execute();
      await db.schema.alterTable('system_settings').addColumn('vat_rate', 'integer').execute();
      await db.schema
        .alterTable('system_settings')
        .addColumn('vat_rounding', 'varchar(10)', (c) => c.notNull().defaultTo('line'))
        .execute();
    },
  },
  {
    // The lawsuit fees ledger onto payments: each entry becomes one payment (its id kept on it,
    // `ledgerEntryId`), once; the fees and the dashboard then read payments only. The ledger's
    // table stays (its routes still write it, and the previous release reads it).
    name: 'finance_004_ledger_payments',
    async up(db, dialect) {
      await addEntityFields(db, dialect, 'payments', ['ledgerEntryId']);
      await moveLedgerPayments(db, dialect);
    },
  },
  {
    // Agreed fee instalments as a source of invoice lines: the line names the instalment it bills.
    // A database with invoice lines gets the instalments' table now (its lines' new column refers
    // to it); a fresh one gets both from the definitions at start.
    name: 'finance_005_fee_instalments',
    async up(db, dialect) {
      const tables = await tableNames(db);
      if (!tables.has(invoiceLines.table)) return;
      if (!tables.has(feeInstalments.table)) await createEntityTables(db, dialect, [feeInstalments.name]);
      await addEntityFields(db, dialect, invoiceLines.name, ['instalmentId']);
    },
  },
  {
    // Payments recorded before a payment took its lawsuit from its invoices: one whose invoices are
    // all for one lawsuit is for that lawsuit (several lawsuits or none: it keeps none), and the
    // dashboard's aggregates follow (paymentLawsuits.ts).
    name: 'finance_006_payment_lawsuits',
    async up(db, dialect) {
      await backfillPaymentLawsuits(db, dialect);
    },
  },
  {
    // What a payment settled of each invoice counts for that invoice's lawsuit: the allocations
    // name it (`lawsuit_id`, written with them from now on), the existing ones are given it, and the
    // dashboard's aggregates follow (paymentLawsuits.ts). A payment of invoices of several lawsuits
    // is thus split by invoice.
    name: 'finance_007_allocation_lawsuits',
    async up(db, dialect) {
      await db.schema.alterTable(ALLOCATIONS).addColumn('lawsuit_id', 'integer').execute();
      await db.schema
        .createIndex('finance_payment_allocations_lawsuit_idx')
        .on(ALLOCATIONS)
        .column('lawsuit_id')
        .execute();
      await backfillAllocationLawsuits(db, dialect);
    },
  },
];
