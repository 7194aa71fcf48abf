import { invoices, lawsuitPayments, lawsuits, payments } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { exclusively, type Db, type Dialect, tableNames } from '../db';
import { createEntityTables, foldRows, joinTableName } from '../db/migrations';
import { asServerWrite, type WriteContext } from '../engine/context';
import { cols } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';

/**
 * The lawsuit fees ledger (`lawsuitPayments`) on the office's payments: each ledger entry is one
 * `payments` row (`ledger_entry_id` = the entry's id), so that the lawsuit's fees, the dashboard
 * and the finance screens count the same money once. The ledger keeps its own routes and answers
 * (the fees tab, `GET /admin/lawsuits/:id/fees`); what was paid is read from `payments` only.
 */

const LEDGER = lawsuitPayments.table;
const PAYMENTS = payments.table;
const P = cols(payments);
const LP = cols(lawsuitPayments);
const LEDGER_ENTRY = P.ledgerEntryId;
const CLIENTS = joinTableName(lawsuits, 'customerIds');

/**
 * Moves the ledger entries that have no payment yet into `payments`, each exactly once (the entry's
 * id is kept on its payment, and an entry that has one is left alone): the `finance_004` migration
 * step, and again at start for the entries an instance of the previous release wrote during a
 * rolling upgrade. The payment is the lawsuit's first client's (lowest id), settles no invoice and
 * is held for no retainer. Returns how many entries were moved.
 */
export async function moveLedgerPayments(db: Db, dialect: Dialect): Promise<number> {
  return exclusively(db, dialect, MOVE_LOCK, (trx) => move(trx, dialect));
}

/** The advisory lock of `moveLedgerPayments` on PostgreSQL. */
const MOVE_LOCK = 7_204_311;

async function move(db: Db, dialect: Dialect): Promise<number> {
  const tables = await tableNames(db);
  if (!tables.has(LEDGER)) return 0; // a fresh database: the ledger's table comes at start, empty
  const waiting = await db
    .selectFrom(`${LEDGER} as lp`)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .$if(tables.has(PAYMENTS), (q) =>
      q.where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom(`${PAYMENTS} as p`).select('p.id').whereRef(`p.${LEDGER_ENTRY}`, '=', 'lp.id')),
        ),
      ),
    )
    .executeTakeFirst();
  if (!Number(waiting?.n ?? 0)) return 0;
  // A database older than the finance module: the payments' table (and the invoices' it names)
  // made now from their definitions, as the start would.
  if (!tables.has(PAYMENTS))
    await createEntityTables(
      db,
      dialect,
      [invoices, payments].filter((e) => !tables.has(e.table)).map((e) => e.name),
    );
  const stamp = new Date().toISOString();
  const lp = (column: string) => sql.ref(`lp.${column}`);
  const result = await sql`
    insert into ${sql.table(PAYMENTS)} (
      ${sql.ref(P.customerId)}, ${sql.ref(P.lawsuitId)}, ${sql.ref(P.date)}, ${sql.ref(P.amount)},
      ${sql.ref(P.method)}, ${sql.ref(P.reference)}, ${sql.ref(P.toRetainer)}, ${sql.ref(P.retained)},
      ${sql.ref(LEDGER_ENTRY)}, ${sql.ref(P.notes)}, ${sql.ref(P.createdAt)}, ${sql.ref(P.updatedAt)})
    select
      (select min(k.ref_id) from ${sql.table(CLIENTS)} k where k.owner_id = ${lp(LP.lawsuitId)}),
      ${lp(LP.lawsuitId)}, ${lp(LP.paidOn)}, ${lp(LP.amount)}, ${lp(LP.method)},
      ${lp(LP.receiptNumber)}, ${dialect === 'postgres' ? sql`false` : sql`0`}, 0, lp.id,
      ${lp(LP.note)}, ${stamp}, ${stamp}
    from ${sql.table(LEDGER)} lp
    where not exists (select 1 from ${sql.table(PAYMENTS)} p where ${sql.ref(`p.${LEDGER_ENTRY}`)} = lp.id)
    order by lp.id`.execute(db);
  await foldRows(db, payments, { onlyUnfolded: true });
  return Number(result.numAffectedRows ?? 0);
}

/** The payment of ledger entry `entryId`, if any. */
async function paymentOf(ctx: WriteContext, entryId: number): Promise<number | null> {
  const row = await ctx.trx
    .selectFrom(PAYMENTS)
    .select('id')
    .where(LEDGER_ENTRY, '=', entryId)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * Keeps every ledger entry's payment in step with it, in the entry's transaction: created with
 * it, made again when it changes (amount and client are fixed on a payment), removed with it.
 * The payments' hooks then keep the dashboard's aggregates.
 */
export function installLedgerHooks(app: FastifyInstance): void {
  const entities = app.entities;
  const paymentsService = () => entities.get(payments.name);

  async function record(ctx: WriteContext, entry: ApiRow): Promise<void> {
    const lawsuit = await entities.get(lawsuits.name).getIn(ctx, entry.lawsuitId as number);
    const clients = (Array.isArray(lawsuit?.customerIds) ? lawsuit.customerIds : []).map(Number);
    await paymentsService().create(asServerWrite(ctx), {
      customerId: clients.length ? Math.min(...clients) : null,
      lawsuitId: entry.lawsuitId,
      date: entry.paidOn,
      amount: entry.amount,
      method: entry.method,
      reference: entry.receiptNumber ?? null,
      notes: entry.note ?? null,
      ledgerEntryId: entry.id,
    });
  }

  entities.hooks(lawsuitPayments.name, {
    async afterChange(ctx, { action, before, after }) {
      if (action === 'create' && after) return record(ctx, after);
      const entryId = (before ?? after)!.id;
      const paymentId = await paymentOf(ctx, entryId);
      if (paymentId !== null) await paymentsService().remove(asServerWrite(ctx), paymentId);
      if (after) await record(ctx, after);
    },
  });
}
