import {
  LEGAL_ROUTES,
  lawsuitFeeFigures,
  lawsuitPayments,
  lawsuits,
  moneyToMajor,
  payments,
  permissionKey,
  retainerMovements,
  type LawsuitFeeRows,
  type LawsuitFees,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Dialect } from '../db';
import { actorOf, type Trx } from '../engine/context';
import type { HookContext } from '../engine/hooks';
import { readRow, selectFields } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { feeRows, paidByLawsuit, paidWithinFee } from '../finance/lawsuitFees';

/**
 * The fees ledger beyond the generic pattern (call once per app, from the legal plugin):
 *
 * - a payment that would make the lawsuit's paid total exceed its agreed fee (none recorded: 0) is
 *   422 on `amount` unless marked `overpayment`, on create and on update (the payment itself left
 *   out of the total). The check reads the total inside the write's transaction after locking
 *   the lawsuit's row (PostgreSQL `SELECT … FOR UPDATE`), so two payments written at once are
 *   checked one after the other and cannot together exceed it; SQLite runs one write transaction
 *   at a time (the app's single connection), which gives the same order;
 * - lowering a lawsuit's agreed fee below what its payments not marked as overpayments already
 *   total is 422 on `agreedFee`;
 * - `GET /admin/lawsuits/:id/fees` (`LawsuitFees`), and the same figures as `fees` on every
 *   lawsuit row answered to a reader who may view payments (one query per page).
 */
export function installPayments(app: FastifyInstance): void {
  const entities = app.entities;
  const dialect: Dialect = app.dialect;

  /** Locks the lawsuit's row until the write commits (PostgreSQL); returns its agreed fee. */
  async function lockLawsuit(trx: Trx, id: number): Promise<number | null | undefined> {
    let query = selectFields(trx, lawsuits, ['agreedFee']).where('id', '=', id);
    if (dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row && readRow(lawsuits, row).agreedFee;
  }

  async function checkAgainstFee(ctx: HookContext, row: Record<string, unknown>, exceptId?: number) {
    if (typeof row.lawsuitId !== 'number' || typeof row.amount !== 'number') return;
    const agreedFee = await lockLawsuit(ctx.trx, row.lawsuitId);
    // An unknown lawsuit is the engine's reference check (422 on lawsuitId).
    if (agreedFee === undefined || row.overpayment === true) return;
    const paid = (await paidByLawsuit(ctx.trx, [row.lawsuitId], exceptId)).get(row.lawsuitId) ?? 0;
    const agreed = agreedFee ?? 0;
    if (paid + row.amount <= agreed) return;
    throw new AppError('validation', {
      entity: lawsuitPayments.name,
      errors: {
        amount: [
          {
            key: agreedFee === null ? 'legal.payments.noAgreedFee' : 'legal.payments.exceedsAgreedFee',
            params: {
              agreedFee: moneyToMajor(agreed),
              paid: moneyToMajor(paid),
              remaining: moneyToMajor(Math.max(agreed - paid, 0)),
            },
          },
        ],
      },
    });
  }

  entities.hooks(lawsuitPayments.name, {
    async beforeCreate(ctx, values) {
      await checkAgainstFee(ctx, values);
    },
    async beforeUpdate(ctx, values, before) {
      if (['amount', 'overpayment', 'lawsuitId'].some((key) => key in values))
        await checkAgainstFee(ctx, { ...before, ...values }, before.id);
    },
  });

  const mayViewPayments = (user: { permissions: ReadonlySet<string> } | null) =>
    !user || user.permissions.has(permissionKey(lawsuitPayments.name, 'view'));

  entities.hooks('lawsuits', {
    async beforeUpdate(ctx, values, before) {
      if (!('agreedFee' in values)) return;
      const agreed = typeof values.agreedFee === 'number' ? values.agreedFee : 0;
      await lockLawsuit(ctx.trx, before.id);
      // What was paid as overpayments was accepted beyond the fee: only the rest binds it.
      const bound = await paidWithinFee(ctx.trx, before.id, dialect === 'postgres' ? true : 1);
      if (agreed >= bound) return;
      throw new AppError('validation', {
        entity: 'lawsuits',
        errors: {
          agreedFee: [{ key: 'legal.payments.feeBelowPaid', params: { paid: moneyToMajor(bound) } }],
        },
      });
    },
    // The fees shown to those who may view payments.
    reads: { entities: [lawsuitPayments.name, payments.name, retainerMovements.name], perUser: true },
    async expand(ctx, rows) {
      if (!mayViewPayments(ctx.user)) return rows;
      // A lawsuit's create makes no payment: a new one has none yet.
      const paid = ctx.created
        ? new Map<number, number>()
        : await paidByLawsuit(
            ctx.db,
            rows.map((r) => r.id),
          );
      return rows.map((row): ApiRow => ({
        ...row,
        fees: lawsuitFeeFigures(row.agreedFee as number | null, paid.get(row.id) ?? 0),
      }));
    },
  });

  defineRoute(app, LEGAL_ROUTES.lawsuitFees, {
    tags: [lawsuitPayments.name],
    handler: async (request, { params }) => {
      // Through the lawsuits service: 404 for a lawsuit that does not exist or is out of scope.
      const lawsuit = await entities.get('lawsuits').get(params.id, actorOf(request));
      const paid = (await paidByLawsuit(app.db, [lawsuit.id])).get(lawsuit.id) ?? 0;
      return { data: lawsuitFeeFigures(lawsuit.agreedFee as number | null, paid) satisfies LawsuitFees };
    },
  });

  defineRoute(app, LEGAL_ROUTES.lawsuitFeeRows, {
    tags: [lawsuitPayments.name],
    handler: async (request, { params }) => {
      const lawsuit = await entities.get('lawsuits').get(params.id, actorOf(request));
      return { data: { items: await feeRows(app.db, lawsuit.id) } satisfies LawsuitFeeRows };
    },
  });
}
