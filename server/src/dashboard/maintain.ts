import { lawsuitPayments, lawsuits, sessions } from '@mizan/contracts';
import { columnName } from '../db/migrations';
import type { Trx } from '../engine/context';
import type { EntityServices } from '../engine/service';
import type { ApiRow } from '../engine/serialize';
import { applyDelta, difference, hearingStats, lawsuitStats } from './stats';

const LAWSUIT = columnName('lawsuitId');
const BRANCH = columnName('branchId');

/** Sum of the payments of lawsuit `id` as the transaction sees it. */
async function paidOf(trx: Trx, id: number): Promise<number> {
  const row = await trx
    .selectFrom(lawsuitPayments.table)
    .select((eb) => eb.fn.sum<string | number>(columnName('amount')).as('paid'))
    .where(LAWSUIT, '=', id)
    .executeTakeFirst();
  return Number(row?.paid ?? 0);
}

async function branchOf(trx: Trx, lawsuitId: unknown): Promise<number> {
  if (typeof lawsuitId !== 'number') return 0;
  const row = await trx
    .selectFrom(lawsuits.table)
    .select(BRANCH)
    .where('id', '=', lawsuitId)
    .executeTakeFirst();
  return Number(row?.[BRANCH] ?? 0) || 0;
}

/**
 * Keeps the dashboard's aggregates (stats.ts) exact: every create, update, delete and action
 * (close, reopen, postpone) of a lawsuit, hearing or payment adds the difference between what the
 * row contributed before and after, inside the write's transaction, so a write that rolls back
 * leaves them as they were. `changed` is told after each such write (the server cache).
 */
export function installStatsHooks(entities: EntityServices): void {
  entities.hooks(lawsuits.name, {
    async afterChange(ctx, { before, after }) {
      const lawsuitId = (after ?? before)!.id;
      const paid = before ? await paidOf(ctx.trx, lawsuitId) : 0;
      const delta = difference(
        before ? lawsuitStats(before, paid) : [],
        after ? lawsuitStats(after, paid) : [],
      );
      // A lawsuit moved to another branch takes its hearings with it (a lawsuit has tens of them).
      const oldBranch = Number(before?.branchId ?? 0) || 0;
      const newBranch = Number(after?.branchId ?? 0) || 0;
      if (before && after && oldBranch !== newBranch) {
        const hearings = (await ctx.trx
          .selectFrom(sessions.table)
          .select(['id', columnName('date'), columnName('lawyerId'), columnName('decision')])
          .where(LAWSUIT, '=', lawsuitId)
          .execute()) as Record<string, unknown>[];
        for (const h of hearings) {
          const row = {
            id: Number(h.id),
            date: h.date,
            lawyerId: h.lawyer_id,
            decision: h.decision,
          } as unknown as ApiRow;
          delta.push(...difference(hearingStats(row, oldBranch), hearingStats(row, newBranch)));
        }
      }
      await applyDelta(ctx.trx, delta);
    },
  });

  entities.hooks(sessions.name, {
    async afterChange(ctx, { before, after }) {
      const branch = await branchOf(ctx.trx, (after ?? before)!.lawsuitId);
      await applyDelta(
        ctx.trx,
        difference(before ? hearingStats(before, branch) : [], after ? hearingStats(after, branch) : []),
      );
    },
  });

  entities.hooks(lawsuitPayments.name, {
    async afterChange(ctx, { before, after }) {
      const amount = (row: ApiRow | null) => Number(row?.amount ?? 0);
      const ids = new Set([before?.lawsuitId, after?.lawsuitId].filter((v) => typeof v === 'number'));
      for (const lawsuitId of ids as Set<number>) {
        const lawsuit = await entities.get(lawsuits.name).getIn(ctx, lawsuitId);
        if (!lawsuit) continue;
        const now = await paidOf(ctx.trx, lawsuitId);
        const was =
          now -
          (after?.lawsuitId === lawsuitId ? amount(after) : 0) +
          (before?.lawsuitId === lawsuitId ? amount(before) : 0);
        if (was === now) continue;
        await applyDelta(ctx.trx, difference(lawsuitStats(lawsuit, was), lawsuitStats(lawsuit, now)));
      }
    },
  });
}
