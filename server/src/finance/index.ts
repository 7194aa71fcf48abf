import type { FastifyPluginAsync } from 'fastify';
import { seedExpenseCategories } from './expenses';
import { installInvoiceHooks } from './invoices';
import { installLedgerHooks, moveLedgerPayments } from './ledger';
import { backfillAllocationLawsuits, backfillPaymentLawsuits } from './paymentLawsuits';
import { installPaymentHooks } from './payments';
import { registerFinanceReports } from './reports';
import { registerReportRoutes } from './reportRows';
import { installTimeEntryHooks } from './timeEntries';
import { registerTimerRoutes } from './timer';

export { financeMigrations } from './migrations';

/**
 * The office's money on the server: time entries (own or everyone's, rate defaults, the derived
 * amount), the per-employee timer, expenses and their default categories, invoices and credit
 * notes (numbering, VAT, issue, void), payments, the clients' retainer, the statement, the aging
 * report and the Saudi invoice QR code. CRUD, audit and events are the engine's, from the
 * definitions (`timeEntries`, `expenses`, `expenseCategories`, `invoices`, `invoiceLines`,
 * `payments`, `retainerMovements`); the money rules are `money.ts` here and `invoicing.ts` in the
 * contracts.
 */
export const financePlugin: FastifyPluginAsync = async (app) => {
  installTimeEntryHooks(app);
  registerTimerRoutes(app);
  installInvoiceHooks(app);
  installPaymentHooks(app);
  installLedgerHooks(app);
  // Entries an instance of the previous release wrote to the ledger while this one was migrating.
  await moveLedgerPayments(app.db, app.dialect);
  // Payments without their invoices' lawsuit that an instance of an older release wrote meanwhile.
  await backfillPaymentLawsuits(app.db, app.dialect);
  // Allocations to invoices of a lawsuit that an instance of an older release wrote without it.
  await backfillAllocationLawsuits(app.db, app.dialect);
  registerFinanceReports(app);
  registerReportRoutes(app);
  await seedExpenseCategories(app);
};
// Hooks and routes belong to the app, not an encapsulated child context.
(financePlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
