import {
  LAWSUIT_FEES_CHANGED,
  customers,
  lawsuitPayments,
  moneyToMajor,
  payments,
  retainerMovements,
  type LawsuitFeesChanged,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Dialect } from '../db';
import type { Trx, WriteContext } from '../engine/context';
import type { HookContext } from '../engine/hooks';
import type { ApiRow } from '../engine/serialize';
import { AppError } from '../http/errors';
import { repaidLawsuit } from '../dashboard/maintain';
import { lawsuitOfInvoice } from './lawsuitFees';
import { ALLOCATIONS, INVOICES, col, invalid, lockRow, retainerBalance, settleInvoice } from './money';

/** What a payment settles of one invoice, counted for the invoice's lawsuit (lawsuitFees.ts). */
interface Allocation {
  invoiceId: number;
  amount: number;
  lawsuitId: number | null;
}

/** How a payment is shared out: so much to each invoice, the rest to the retainer. */
interface Plan {
  allocations: Allocation[];
  leftover: number;
  /** The lawsuit every invoice named is for, when they all are for one; else null. */
  lawsuitId: number | null;
}

/**
 * Tells the open fees tabs of the lawsuits a write under Finance touched (`LAWSUIT_FEES_CHANGED`
 * on the ledger's channel, once the write commits). A ledger entry's payment is left out: the
 * entry's own event tells them.
 */
function feesChanged(ctx: WriteContext, lawsuitIds: Iterable<unknown>): void {
  const channel = lawsuitPayments.name;
  for (const id of new Set(lawsuitIds))
    if (typeof id === 'number') {
      const data: LawsuitFeesChanged = { lawsuitId: id };
      ctx.work.events.push({
        channel,
        message: { type: 'event', channel, action: LAWSUIT_FEES_CHANGED, data },
      });
    }
}

const notLedger = (row: ApiRow | null) => (row && typeof row.ledgerEntryId !== 'number' ? row : null);

/**
 * Payments and the retainer beyond the generic pattern (call once per app, from the finance plugin).
 * A payment's part beyond its invoices (`retained`) counts as a retainer deposit (`retainerBalance`).
 * Every write locks the client's row first (PostgreSQL `FOR UPDATE`; SQLite has one writer), so two
 * payments or movements of one client are checked one after the other: no invoice is paid beyond
 * what it owes and no retainer goes below zero, whatever runs at once.
 */
export function installPaymentHooks(app: FastifyInstance): void {
  const dialect: Dialect = app.dialect;

  const lockCustomer = (trx: Trx, id: unknown) =>
    typeof id === 'number' ? lockRow(trx, dialect, customers.table, id) : Promise.resolve(undefined);

  /** Shares `amount` out over `invoiceIds` (oldest issued first), each up to what it owes. */
  async function plan(
    trx: Trx,
    customerId: number,
    invoiceIds: readonly number[],
    amount: number,
  ): Promise<Plan> {
    const rows = [];
    for (const id of [...new Set(invoiceIds)].sort((a, b) => a - b)) {
      const row = await lockRow(trx, dialect, INVOICES, id);
      if (!row) throw invalid(payments.name, 'invoiceIds', 'http.referenceMissing');
      if (Number(row[col('customerId')]) !== customerId)
        throw invalid(payments.name, 'invoiceIds', 'legal.billing.otherClient', {
          number: String(row.number ?? id),
        });
      if (row.kind !== 'invoice' || !['issued', 'partlyPaid'].includes(String(row.state)))
        throw invalid(payments.name, 'invoiceIds', 'legal.billing.notPayable', {
          number: String(row.number ?? id),
        });
      rows.push(row);
    }
    rows.sort(
      (a, b) =>
        String(a[col('issueDate')]).localeCompare(String(b[col('issueDate')])) || Number(a.id) - Number(b.id),
    );
    let left = amount;
    const allocations: Plan['allocations'] = [];
    for (const row of rows) {
      const take = Math.min(left, Number(row.due));
      const lawsuit = row[col('lawsuitId')];
      if (take > 0)
        allocations.push({
          invoiceId: Number(row.id),
          amount: take,
          lawsuitId: lawsuit === null || lawsuit === undefined ? null : Number(lawsuit),
        });
      left -= take;
    }
    const lawsuitIds = new Set(rows.map((row) => row[col('lawsuitId')] ?? null));
    const [only] = lawsuitIds;
    return {
      allocations,
      leftover: left,
      lawsuitId: lawsuitIds.size === 1 && only !== null ? Number(only) : null,
    };
  }

  const plans = new WeakMap<object, Plan>();
  /** A payment's allocations as they were before it is deleted, by the write's unit of work. */
  const deleted = new WeakMap<object, Allocation[]>();

  const allocationsOf = async (trx: Trx, paymentId: unknown): Promise<Allocation[]> =>
    (
      await trx
        .selectFrom(ALLOCATIONS)
        .select(['invoice_id', 'amount', 'lawsuit_id'])
        .where('payment_id', '=', paymentId as number)
        .execute()
    ).map((a) => ({
      invoiceId: Number(a.invoice_id),
      amount: Number(a.amount),
      lawsuitId: a.lawsuit_id === null || a.lawsuit_id === undefined ? null : Number(a.lawsuit_id),
    }));

  /**
   * Moves the dashboard's paid figures by what `allocations` settled for their invoices' lawsuits,
   * once they are written (`sign` 1) or deleted (-1): each such lawsuit gains it, and the lawsuit the
   * payment names (if any) counts it no more in the payment's rest (lawsuitFees.ts). The payment's
   * row itself is the dashboard's hooks' (dashboard/maintain.ts: all it did not hold, for the
   * lawsuit it names), which run before these (the dashboard module is registered before finance):
   * on a create before its allocations are written, on a delete after they were deleted here.
   */
  async function moveSettled(
    ctx: HookContext,
    own: unknown,
    allocations: readonly Allocation[],
    sign: 1 | -1,
  ) {
    const changes = new Map<number, number>();
    const add = (id: number, amount: number) => changes.set(id, (changes.get(id) ?? 0) + amount);
    for (const a of allocations)
      if (a.lawsuitId !== null) {
        add(a.lawsuitId, sign * a.amount);
        if (typeof own === 'number') add(own, -sign * a.amount);
      }
    for (const [lawsuitId, change] of changes) await repaidLawsuit(ctx, app.entities, lawsuitId, change);
  }

  /** A ledger entry's payment changes and goes with its entry only (ledger.ts), never from here. */
  const refuseLedgerEntry = (ctx: WriteContext, before: Record<string, unknown>) => {
    if (typeof before.ledgerEntryId === 'number' && !ctx.serverWrite)
      throw new AppError('conflict', { messageKey: 'legal.billing.ledgerEntry' });
  };

  app.entities.hooks(payments.name, {
    async beforeCreate(ctx, values) {
      const customerId = values.customerId as number;
      if (!(await lockCustomer(ctx.trx, customerId))) return; // the engine's reference check answers
      if (typeof values.ledgerEntryId === 'number') {
        // A fees ledger entry's payment (ledger.ts): towards the lawsuit's agreed fee, nothing held.
        values.invoiceIds = [];
        values.toRetainer = false;
        values.retained = 0;
        return;
      }
      const invoiceIds = (values.invoiceIds as number[] | undefined) ?? [];
      const amount = values.amount as number;
      const shared = await plan(ctx.trx, customerId, invoiceIds, amount);
      if (shared.leftover > 0 && invoiceIds.length && values.toRetainer !== true)
        throw invalid(payments.name, 'amount', 'legal.billing.aboveDue', {
          due: moneyToMajor(amount - shared.leftover),
        });
      values.retained = shared.leftover;
      // Paying invoices of one lawsuit pays towards its fee (finance/lawsuitFees.ts).
      if ((values.lawsuitId ?? null) === null && shared.lawsuitId !== null)
        values.lawsuitId = shared.lawsuitId;
      plans.set(ctx.work, shared);
    },
    async beforeUpdate(ctx, values, before) {
      refuseLedgerEntry(ctx, before);
      delete values.retained;
    },
    async beforeDelete(ctx, before) {
      refuseLedgerEntry(ctx, before);
      await lockCustomer(ctx.trx, before.customerId);
      const retained = Number(before.retained ?? 0);
      if (retained > 0 && (await retainerBalance(ctx.trx, before.customerId as number)) < retained)
        throw new AppError('conflict', { messageKey: 'legal.billing.retainerBelowZero' });
      const allocated = await allocationsOf(ctx.trx, before.id);
      await ctx.trx.deleteFrom(ALLOCATIONS).where('payment_id', '=', before.id).execute();
      for (const { invoiceId } of allocated) await settleInvoice(ctx.trx, invoiceId);
      await moveSettled(ctx, before.lawsuitId, allocated, -1);
      deleted.set(ctx.work, allocated);
    },
    async afterChange(ctx, { action, before, after }) {
      // Every lawsuit the payment counts for: the one it names and its invoices'.
      const lawsuitsOf = (allocations: readonly Allocation[]) => allocations.map((a) => a.lawsuitId);
      if (action === 'delete') {
        const allocated = deleted.get(ctx.work) ?? [];
        deleted.delete(ctx.work);
        feesChanged(ctx, [notLedger(before)?.lawsuitId, ...lawsuitsOf(allocated)]);
        return;
      }
      if (action !== 'create' || !after) {
        const allocated = after ? await allocationsOf(ctx.trx, after.id) : [];
        feesChanged(ctx, [
          notLedger(before)?.lawsuitId,
          notLedger(after)?.lawsuitId,
          ...lawsuitsOf(allocated),
        ]);
        return;
      }
      const shared = plans.get(ctx.work);
      plans.delete(ctx.work);
      feesChanged(ctx, [notLedger(after)?.lawsuitId, ...lawsuitsOf(shared?.allocations ?? [])]);
      if (!shared) return;
      for (const { invoiceId, amount, lawsuitId } of shared.allocations) {
        await ctx.trx
          .insertInto(ALLOCATIONS)
          .values({ payment_id: after.id, invoice_id: invoiceId, amount, lawsuit_id: lawsuitId })
          .execute();
        await settleInvoice(ctx.trx, invoiceId);
      }
      await moveSettled(ctx, after.lawsuitId, shared.allocations, 1);
    },
  });

  app.entities.hooks(retainerMovements.name, {
    async beforeCreate(ctx, values) {
      const customerId = values.customerId as number;
      if (!(await lockCustomer(ctx.trx, customerId))) return;
      const amount = values.amount as number;
      if (values.kind === 'apply') {
        if (typeof values.invoiceId !== 'number')
          throw invalid(retainerMovements.name, 'invoiceId', 'validation.required');
        const invoice = await lockRow(ctx.trx, dialect, INVOICES, values.invoiceId);
        if (!invoice) return;
        if (Number(invoice[col('customerId')]) !== customerId)
          throw invalid(retainerMovements.name, 'invoiceId', 'legal.billing.otherClient', {
            number: String(invoice.number ?? invoice.id),
          });
        if (invoice.kind !== 'invoice' || !['issued', 'partlyPaid'].includes(String(invoice.state)))
          throw invalid(retainerMovements.name, 'invoiceId', 'legal.billing.notPayable', {
            number: String(invoice.number ?? invoice.id),
          });
        if (amount > Number(invoice.due))
          throw invalid(retainerMovements.name, 'amount', 'legal.billing.aboveDue', {
            due: moneyToMajor(Number(invoice.due)),
          });
      } else values.invoiceId = null;
      if (values.kind !== 'deposit') {
        const balance = await retainerBalance(ctx.trx, customerId);
        if (balance < amount)
          throw invalid(retainerMovements.name, 'amount', 'legal.billing.retainerBelowZero', {
            balance: moneyToMajor(balance),
          });
      }
    },
    async beforeDelete(ctx, before) {
      // Taking back a deposit must leave the balance at zero or above; an application or a refund
      // taken back only raises it.
      await lockCustomer(ctx.trx, before.customerId);
      if (before.kind !== 'deposit') return;
      const balance = await retainerBalance(ctx.trx, before.customerId as number);
      if (balance < Number(before.amount))
        throw new AppError('conflict', { messageKey: 'legal.billing.retainerPermanent' });
    },
    async afterChange(ctx, { before, after }) {
      const touched: unknown[] = [];
      for (const row of [before, after])
        if (row?.kind === 'apply' && typeof row.invoiceId === 'number') {
          await settleInvoice(ctx.trx, row.invoiceId);
          touched.push(await lawsuitOfInvoice(ctx.trx, row.invoiceId));
        }
      feesChanged(ctx, touched);
    },
  });
}
