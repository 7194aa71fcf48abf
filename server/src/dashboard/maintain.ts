import { lawsuits, payments, retainerMovements, sessions, tasks } from '@mizan/contracts';
import { joinTableName } from '../db/migrations';
import type { Trx } from '../engine/context';
import type { HookContext } from '../engine/hooks';
import { cols, readRow, selectFields } from '../engine/rows';
import type { EntityServices } from '../engine/service';
import type { ApiRow } from '../engine/serialize';
import { lawsuitOfInvoice, paidByLawsuit } from '../finance/lawsuitFees';
import { applyDelta, difference, hearingStats, lawsuitStats, taskStats, type StatRow } from './stats';

const TASK = cols(tasks);
const HEARING = cols(sessions);

/**
 * What lawsuit `id` was paid as the transaction sees it: its payments (the fees ledger's entries
 * among them) less what of them was held in the client's retainer, and the retainer applied to
 * its invoices (finance/lawsuitFees.ts).
 */
async function paidOf(trx: Trx, id: number): Promise<number> {
  return (await paidByLawsuit(trx, [id])).get(id) ?? 0;
}

async function branchOf(trx: Trx, lawsuitId: unknown): Promise<number> {
  if (typeof lawsuitId !== 'number') return 0;
  const row = await selectFields(trx, lawsuits, ['branchId']).where('id', '=', lawsuitId).executeTakeFirst();
  return (row && readRow(lawsuits, row).branchId) ?? 0;
}

/** What the done tasks of lawsuit `lawsuitId` add in branch `from` and in branch `to`, as a delta. */
async function movedTasks(trx: Trx, lawsuitId: number, from: number, to: number): Promise<StatRow[]> {
  const done = await trx
    .selectFrom(`${tasks.table} as t`)
    .innerJoin(`${joinTableName(tasks, 'assigneeIds')} as a`, 'a.owner_id', 't.id')
    .select([`t.${TASK.stateChangedAt} as stateChangedAt`, 'a.ref_id as assignee'])
    .where(`t.${TASK.lawsuitId}`, '=', lawsuitId)
    .where(`t.${TASK.state}`, '=', 'done')
    .execute();
  const rows = done.map(
    (r) =>
      ({ state: 'done', stateChangedAt: r.stateChangedAt, assigneeIds: [r.assignee] }) as unknown as ApiRow,
  );
  return difference(
    rows.flatMap((row) => taskStats(row, from)),
    rows.flatMap((row) => taskStats(row, to)),
  );
}

/**
 * Adds to the dashboard's aggregates what lawsuit `lawsuitId`'s paid total moved by in the write
 * just made (`now` less `change`: what it was). The payments' hooks of finance call it too, for
 * what a payment settled of invoices of a lawsuit (written after the payment's own row: its
 * allocations, finance/payments.ts).
 */
export async function repaidLawsuit(
  ctx: HookContext,
  entities: EntityServices,
  lawsuitId: number,
  change: number,
): Promise<void> {
  if (change === 0) return;
  const lawsuit = await entities.get(lawsuits.name).getIn(ctx, lawsuitId);
  if (!lawsuit) return;
  const now = await paidOf(ctx.trx, lawsuitId);
  await applyDelta(ctx.trx, difference(lawsuitStats(lawsuit, now - change), lawsuitStats(lawsuit, now)));
}

/**
 * Keeps the dashboard's aggregates (stats.ts) exact: every create, update, delete and action
 * (close, reopen, postpone, a task's state) of a lawsuit, hearing, payment (`payments`, which
 * holds the fees ledger's entries too), retainer application or task adds the difference between what the
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
        const hearings = await selectFields(ctx.trx, sessions, ['date', 'lawyerId', 'decision'])
          .where(HEARING.lawsuitId, '=', lawsuitId)
          .execute();
        for (const h of hearings) {
          const row = readRow(sessions, h);
          delta.push(...difference(hearingStats(row, oldBranch), hearingStats(row, newBranch)));
        }
        // Its done tasks too (counted in their lawsuit's branch).
        delta.push(...(await movedTasks(ctx.trx, lawsuitId, oldBranch, newBranch)));
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

  entities.hooks(tasks.name, {
    async afterChange(ctx, { before, after }) {
      const branchBefore = before ? await branchOf(ctx.trx, before.lawsuitId) : 0;
      const branchAfter = after ? await branchOf(ctx.trx, after.lawsuitId) : 0;
      await applyDelta(
        ctx.trx,
        difference(before ? taskStats(before, branchBefore) : [], after ? taskStats(after, branchAfter) : []),
      );
    },
  });

  const repaid = (ctx: HookContext, lawsuitId: number, change: number) =>
    repaidLawsuit(ctx, entities, lawsuitId, change);

  // A payment's row: its rest for the lawsuit it names (finance/lawsuitFees.ts), all of it not held
  // when it is written or deleted (its allocations are written after it and deleted before it, and
  // the finance hooks move what they settled for their invoices' lawsuits); an update changes no
  // amount.
  entities.hooks(payments.name, {
    async afterChange(ctx, { before, after }) {
      const amount = (row: ApiRow | null) => (row ? Number(row.amount ?? 0) - Number(row.retained ?? 0) : 0);
      const ids = new Set([before?.lawsuitId, after?.lawsuitId].filter((v) => typeof v === 'number'));
      for (const lawsuitId of ids as Set<number>)
        await repaid(
          ctx,
          lawsuitId,
          (after?.lawsuitId === lawsuitId ? amount(after) : 0) -
            (before?.lawsuitId === lawsuitId ? amount(before) : 0),
        );
    },
  });

  // The retainer applied to an invoice counts for the invoice's lawsuit (finance/lawsuitFees.ts).
  entities.hooks(retainerMovements.name, {
    async afterChange(ctx, { before, after }) {
      for (const [row, sign] of [
        [before, -1],
        [after, 1],
      ] as const) {
        if (row?.kind !== 'apply') continue;
        const lawsuitId = await lawsuitOfInvoice(ctx.trx, row.invoiceId);
        if (lawsuitId !== null) await repaid(ctx, lawsuitId, sign * Number(row.amount ?? 0));
      }
    },
  });
}
