import {
  formatDuration,
  invoiceLines,
  moneyToMajor,
  invoiceNumber,
  invoices,
  isFrozen,
  type InvoiceKind,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Dialect } from '../db';
import { asServerWrite, type Trx, type WriteContext } from '../engine/context';
import type { HookContext } from '../engine/hooks';
import type { ApiRow } from '../engine/serialize';
import { AppError } from '../http/errors';
import {
  COUNTERS,
  EXPENSES,
  INSTALMENTS,
  INVOICES,
  LINES,
  TIME_ENTRIES,
  billedIds,
  billingDay,
  checkedLine,
  col,
  invalid,
  lineInput,
  lockRow,
  readBilling,
  recomputeInvoice,
  settleInvoice,
} from './money';

const frozen = () => new AppError('conflict', { messageKey: 'legal.invoices.frozen' });

/**
 * The next number of `series` in `year`, inside the issuing transaction: one conditional row per
 * series and year, raised by one UPDATE (a row lock on PostgreSQL, so concurrent issues across
 * instances queue on it; SQLite has one writer). A transaction that fails gives its number back
 * with everything else, so numbers have no gaps.
 */
export async function nextSequence(trx: Trx, series: InvoiceKind, year: number): Promise<number> {
  await trx
    .insertInto(COUNTERS)
    .values({ series, year, last: 0 })
    .onConflict((oc) => oc.columns(['series', 'year']).doNothing())
    .execute();
  const row = await trx
    .updateTable(COUNTERS)
    .set({ last: sql`last + 1` })
    .where('series', '=', series)
    .where('year', '=', year)
    .returning('last')
    .executeTakeFirstOrThrow();
  return Number(row.last);
}

/**
 * Invoices and their lines beyond the generic pattern (call once per app, from the finance plugin):
 * drafts only change and are deleted; a line's figures and its invoice's totals are the server's;
 * `collect`, `issue`, `void` and `creditNote` as `invoices` in the contracts describes them.
 */
export function installInvoiceHooks(app: FastifyInstance): void {
  const dialect: Dialect = app.dialect;
  const lines = () => app.entities.get(invoiceLines.name);
  const invoiceService = () => app.entities.get(invoices.name);

  /** The invoice of a line, locked, which must be a draft (409 otherwise; 422 when there is none). */
  async function draftInvoice(trx: Trx, id: unknown) {
    if (typeof id !== 'number') return undefined;
    const row = await lockRow(trx, dialect, INVOICES, id);
    // None: the engine's reference check answers 422 on `invoiceId`, with the other fields'.
    if (row && isFrozen(String(row.state))) throw frozen();
    return row;
  }

  async function lineFiguresFor(ctx: HookContext, values: Record<string, unknown>) {
    const billing = await readBilling(ctx.trx);
    const figures = checkedLine(
      {
        quantity: Number(values.quantity ?? 1),
        unitPrice: Number(values.unitPrice ?? 0),
        discount: Number(values.discount ?? 0),
        vatExempt: values.vatExempt === true,
      },
      billing.vatRate,
    );
    return { net: figures.net, vat: figures.vat, total: figures.total };
  }

  async function retotal(trx: Trx, invoiceId: unknown) {
    if (typeof invoiceId !== 'number') return;
    const billing = await readBilling(trx);
    await recomputeInvoice(trx, invoiceId, billing.vatRate, billing.vatRounding);
  }

  /** A line's source from what it references. */
  const sourceOf = (line: Record<string, unknown>) =>
    line.timeEntryId ? 'time' : line.expenseId ? 'expense' : line.instalmentId ? 'instalment' : 'free';

  app.entities.hooks(invoiceLines.name, {
    async beforeCreate(ctx, values) {
      await draftInvoice(ctx.trx, values.invoiceId);
      // A line naming a time entry or an expense bills it (the engine checks that it exists).
      values.source = sourceOf(values);
      Object.assign(values, await lineFiguresFor(ctx, values));
    },
    async beforeUpdate(ctx, values, before) {
      await draftInvoice(ctx.trx, before.invoiceId);
      if ('invoiceId' in values && values.invoiceId !== before.invoiceId)
        await draftInvoice(ctx.trx, values.invoiceId);
      const merged = { ...before, ...values };
      values.source = sourceOf(merged);
      Object.assign(values, await lineFiguresFor(ctx, { ...before, ...values }));
    },
    async beforeDelete(ctx, before) {
      const invoice = await lockRow(ctx.trx, dialect, INVOICES, before.invoiceId as number);
      // A draft invoice being deleted takes its lines with it; an issued one keeps them.
      if (invoice && isFrozen(String(invoice.state))) throw frozen();
    },
    async afterChange(ctx, { before, after }) {
      await retotal(ctx.trx, after?.invoiceId);
      if (before && before.invoiceId !== after?.invoiceId) await retotal(ctx.trx, before.invoiceId);
    },
  });

  /** Adds lines to a draft through the lines service (their hooks, audit entries and events). */
  async function addLines(ctx: WriteContext, rows: Record<string, unknown>[]) {
    for (const row of rows) await lines().create(asServerWrite(ctx), row);
  }

  /** The lawsuits of the client (through `lawsuits.customerIds`), or the one lawsuit of the invoice. */
  const lawsuitsOf = (trx: Trx, invoice: ApiRow) =>
    invoice.lawsuitId
      ? trx
          .selectFrom('lawsuits')
          .select('id')
          .where('id', '=', invoice.lawsuitId as number)
      : trx
          .selectFrom('lawsuits_customer_ids')
          .select('owner_id as id')
          .where('ref_id', '=', invoice.customerId as number);

  async function collect(ctx: HookContext, invoice: ApiRow, range: { from?: string; to?: string }) {
    const trueValue = dialect === 'postgres' ? true : 1;
    const unbilled = (table: string, field: 'timeEntryId' | 'expenseId') =>
      ctx.trx
        .selectFrom(table)
        .selectAll()
        .where(col('lawsuitId'), 'in', lawsuitsOf(ctx.trx, invoice))
        .where('billable', '=', trueValue)
        .where('id', 'not in', billedIds(ctx.trx, field))
        .$if(Boolean(range.from), (q) => q.where('date', '>=', range.from!))
        .$if(Boolean(range.to), (q) => q.where('date', '<=', range.to!))
        .orderBy('date')
        .orderBy('id');
    const time = await unbilled(TIME_ENTRIES, 'timeEntryId').where(col('amount'), '>', 0).execute();
    const spent = await unbilled(EXPENSES, 'expenseId').where(col('paidBy'), '=', 'office').execute();
    const due = await ctx.trx
      .selectFrom(INSTALMENTS)
      .selectAll()
      .where(col('lawsuitId'), 'in', lawsuitsOf(ctx.trx, invoice))
      .where('id', 'not in', billedIds(ctx.trx, 'instalmentId'))
      .$if(Boolean(range.from), (q) => q.where(col('dueDate'), '>=', range.from!))
      .$if(Boolean(range.to), (q) => q.where(col('dueDate'), '<=', range.to!))
      .orderBy(col('dueDate'))
      .orderBy('id')
      .execute();
    const text = (row: Record<string, unknown>, extra: string) =>
      [String(row.date).slice(0, 10), extra, row.description ? String(row.description) : '']
        .filter(Boolean)
        .join(' · ')
        .slice(0, 500);
    let order = Number(
      (
        await ctx.trx
          .selectFrom(LINES)
          .select((eb) => eb.fn.max('order').as('top'))
          .where(col('invoiceId'), '=', invoice.id)
          .executeTakeFirst()
      )?.top ?? 0,
    );
    await addLines(ctx, [
      ...due.map((row) => ({
        invoiceId: invoice.id,
        order: ++order,
        description: text({ date: row[col('dueDate')], description: row.description }, ''),
        quantity: 1,
        unitPrice: Number(row.amount),
        source: 'instalment',
        instalmentId: Number(row.id),
      })),
      ...time.map((row) => ({
        invoiceId: invoice.id,
        order: ++order,
        description: text(row, formatDuration(Number(row.duration))),
        quantity: 1,
        unitPrice: Number(row.amount),
        source: 'time',
        timeEntryId: Number(row.id),
      })),
      ...spent.map((row) => ({
        invoiceId: invoice.id,
        order: ++order,
        description: text(row, ''),
        quantity: 1,
        unitPrice: Number(row.amount),
        source: 'expense',
        expenseId: Number(row.id),
      })),
    ]);
  }

  app.entities.hooks(invoices.name, {
    async beforeCreate(ctx, values) {
      // The fields only the server sets (`setBy`) reach here from the server's own writes only:
      // a credit note's kind and invoice (`creditNote`); a draft starts at zero either way.
      const billing = await readBilling(ctx.trx);
      Object.assign(values, {
        kind: values.kind ?? 'invoice',
        state: 'draft',
        currency: billing.currency,
        ...Object.fromEntries(
          ['gross', 'discount', 'subtotal', 'vatTotal', 'total', 'paid', 'credited', 'due'].map((k) => [
            k,
            0,
          ]),
        ),
      });
    },
    beforeUpdate(_ctx, _values, before) {
      if (isFrozen(String(before.state))) throw frozen();
    },
    beforeDelete(_ctx, before) {
      if (isFrozen(String(before.state))) throw frozen();
    },
    actions: {
      async collect(ctx, row, body: { from?: string; to?: string }) {
        const locked = await lockRow(ctx.trx, dialect, INVOICES, row.id);
        if (!locked || isFrozen(String(locked.state))) throw frozen();
        if (row.kind !== 'invoice') throw frozen();
        await collect(ctx, row, body ?? {});
      },
      async issue(ctx, row) {
        // Locked first: a second issue of the same invoice waits here, then finds it issued (409).
        const locked = await lockRow(ctx.trx, dialect, INVOICES, row.id);
        if (!locked || locked.state !== 'draft')
          throw new AppError('conflict', { messageKey: 'legal.invoices.notDraft' });
        const billing = await readBilling(ctx.trx);
        const totals = await recomputeInvoice(ctx.trx, row.id, billing.vatRate, billing.vatRounding);
        if (totals.lines === 0 || totals.total <= 0)
          throw invalid(invoices.name, 'total', 'legal.invoices.empty');
        const kind = row.kind as InvoiceKind;
        if (kind === 'creditNote') {
          const original = await lockRow(ctx.trx, dialect, INVOICES, row.creditOfId as number);
          // What the invoice still owes: a paid part is given back by a refund, not a credit note.
          const creditable = Number(original?.due ?? 0);
          if (!original || original.state === 'void' || original.state === 'draft')
            throw new AppError('conflict', { messageKey: 'legal.invoices.notCreditable' });
          if (totals.total > creditable)
            throw invalid(invoices.name, 'total', 'legal.invoices.creditAboveInvoice', {
              creditable: moneyToMajor(creditable),
            });
        }
        const now = app.clock();
        const issueDate = billingDay(billing, now);
        const year = Number(issueDate.slice(0, 4));
        const sequence = await nextSequence(ctx.trx, kind, year);
        const set = {
          state: 'issued',
          number: invoiceNumber(kind, year, sequence),
          year,
          sequence,
          issueDate,
          issuedAt: now.toISOString(),
          dueDate: row.dueDate ?? issueDate,
          currency: billing.currency,
          vatRate: billing.vatRate,
          vatRounding: billing.vatRounding,
          gross: totals.gross,
          discount: totals.discount,
          subtotal: totals.subtotal,
          vatTotal: totals.vatTotal,
          total: totals.total,
          paid: 0,
          credited: 0,
          due: kind === 'creditNote' ? 0 : totals.total,
        };
        if (kind === 'creditNote') {
          // Stored before the original is recounted, which reads issued credit notes.
          await ctx.trx
            .updateTable(INVOICES)
            .set({ state: 'issued', total: totals.total })
            .where('id', '=', row.id)
            .execute();
          await settleInvoice(ctx.trx, row.creditOfId as number);
        }
        return { set };
      },
      async void(ctx, row, body: { reason: string }) {
        const locked = await lockRow(ctx.trx, dialect, INVOICES, row.id);
        if (!locked || locked.state === 'void')
          throw new AppError('conflict', { messageKey: 'legal.invoices.alreadyVoid' });
        if (Number(locked.paid ?? 0) > 0 || Number(locked.credited ?? 0) > 0)
          throw new AppError('conflict', { messageKey: 'legal.invoices.hasPayments' });
        if (row.kind === 'creditNote' && locked.state !== 'draft') {
          await ctx.trx.updateTable(INVOICES).set({ state: 'void' }).where('id', '=', row.id).execute();
          await settleInvoice(ctx.trx, row.creditOfId as number);
        }
        return { set: { state: 'void', voidReason: body.reason, due: 0 } };
      },
      async creditNote(ctx, row, body: { reason: string }) {
        const locked = await lockRow(ctx.trx, dialect, INVOICES, row.id);
        if (!locked || row.kind !== 'invoice' || ['draft', 'void'].includes(String(locked.state)))
          throw new AppError('conflict', { messageKey: 'legal.invoices.notCreditable' });
        if (Number(locked.due ?? 0) <= 0)
          throw new AppError('conflict', { messageKey: 'legal.invoices.fullyCredited' });
        const note = await invoiceService().create(asServerWrite(ctx), {
          kind: 'creditNote',
          creditOfId: row.id,
          customerId: row.customerId,
          lawsuitId: row.lawsuitId,
          notes: body.reason,
        });
        const copied = (await ctx.trx
          .selectFrom(LINES)
          .selectAll()
          .where(col('invoiceId'), '=', row.id)
          .orderBy('order')
          .orderBy('id')
          .execute()) as Record<string, unknown>[];
        await addLines(
          ctx,
          copied.map((line) => ({
            invoiceId: note.id,
            order: Number(line.order),
            description: String(line.description),
            ...lineInput(line),
            source: 'free',
          })),
        );
        return { result: await invoiceService().getIn(ctx, note.id) };
      },
    },
  });
}
