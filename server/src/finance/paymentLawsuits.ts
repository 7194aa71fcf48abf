import { lawsuits, payments } from '@mizan/contracts';
import { sql } from 'kysely';
import type { Db, Dialect } from '../db';
import { joinTableName } from '../db/migrations';
import { applyDelta, difference, recount, statsBuilt } from '../dashboard/stats';
import { INVOICES, PAYMENTS, col } from './money';

/**
 * Gives a lawsuit to the payments recorded before a payment took it from its invoices: a payment
 * that names no lawsuit, is no fees ledger entry's, and whose named invoices (`invoiceIds`) are all
 * for one lawsuit is for that lawsuit, as `beforeCreate` decides for a new one (payments.ts). A
 * payment whose invoices are for several lawsuits, or for none, keeps none: a new one would too.
 * The dashboard's aggregates of the lawsuits concerned are moved by what they gained, in the same
 * transaction (when they are built; else the start builds them from the tables).
 *
 * The `finance_006` migration step, and again at start (a rolling upgrade's previous instances),
 * under a lock on PostgreSQL; safe to repeat: a payment that has its lawsuit is left alone. Returns
 * how many payments were given one.
 */
export async function backfillPaymentLawsuits(db: Db, dialect: Dialect): Promise<number> {
  // A migration's step runs in the migrator's transaction (and under its lock) already.
  if (db.isTransaction) return backfill(db, dialect);
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${BACKFILL_LOCK})`.execute(trx);
    return backfill(trx, dialect);
  });
}

/** The advisory lock of `backfillPaymentLawsuits` on PostgreSQL. */
const BACKFILL_LOCK = 7_204_312;

/** Lawsuits per statement (within SQLite's bound-parameter limit). */
const CHUNK = 500;

const NAMED = joinTableName(payments, 'invoiceIds');
const LAWSUIT = col('lawsuitId');

async function backfill(db: Db, dialect: Dialect): Promise<number> {
  const tables = new Set((await db.introspection.getTables()).map((t) => t.name));
  if (![PAYMENTS, INVOICES, NAMED, lawsuits.table].every((t) => tables.has(t))) return 0;
  const lawsuit = sql.ref(`i.${LAWSUIT}`);
  const found = await sql<{ payment: number | string; lawsuit: number | string }>`
    select x.payment, x.lawsuit from (
      select p.id as payment, min(${lawsuit}) as lawsuit
      from ${sql.table(PAYMENTS)} p
      join ${sql.table(NAMED)} k on k.owner_id = p.id
      join ${sql.table(INVOICES)} i on i.id = k.ref_id
      where ${sql.ref(`p.${LAWSUIT}`)} is null and ${sql.ref(`p.${col('ledgerEntryId')}`)} is null
      group by p.id
      having count(${lawsuit}) = count(*) and min(${lawsuit}) = max(${lawsuit})
    ) x
    join ${sql.table(lawsuits.table)} l on l.id = x.lawsuit
    order by x.payment`.execute(db);
  if (!found.rows.length) return 0;
  const byLawsuit = new Map<number, number[]>();
  for (const r of found.rows) {
    const list = byLawsuit.get(Number(r.lawsuit)) ?? [];
    list.push(Number(r.payment));
    byLawsuit.set(Number(r.lawsuit), list);
  }
  const counted = await statsBuilt(db);
  const ids = [...byLawsuit.keys()].sort((a, b) => a - b);
  for (let at = 0; at < ids.length; at += CHUNK) {
    const part = ids.slice(at, at + CHUNK);
    const filter = { kinds: ['lawsuit'] as const, lawsuitIds: part };
    const before = counted ? await recount(db, dialect, filter) : [];
    for (const lawsuitId of part) {
      const paymentIds = byLawsuit.get(lawsuitId)!;
      for (let p = 0; p < paymentIds.length; p += CHUNK)
        await db
          .updateTable(PAYMENTS)
          .set({ [LAWSUIT]: lawsuitId })
          .where('id', 'in', paymentIds.slice(p, p + CHUNK))
          .where(LAWSUIT, 'is', null)
          .execute();
    }
    if (counted) await applyDelta(db, difference(before, await recount(db, dialect, filter)));
  }
  return found.rows.length;
}
