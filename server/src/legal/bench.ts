import { circuits, judges } from '@mizan/contracts';
import { columnName } from '../db/migrations';
import type { Trx } from '../engine/context';
import { AppError, type Translatable } from '../http/errors';

const COURT = columnName('courtId');
const CIRCUIT = columnName('circuitId');

const present = (value: unknown): boolean => value !== null && value !== undefined && value !== '';

/**
 * The bench of a lawsuit or a hearing, on the row as it will be stored (`merged`): a circuit must
 * be one of the chosen court's circuits, a judge one of the chosen circuit's judges (a circuit
 * without a court, or a judge without a circuit, fails the same way: there is nothing to be of).
 * 422 on `circuitId` / `judgeId` of `entity`, translated (`legal.lawsuits.circuitNotOfCourt`,
 * `legal.lawsuits.judgeNotOfCircuit`). A circuit or judge that does not exist is left to the
 * engine's reference check (422 `http.referenceMissing`).
 *
 * @example await checkBench(ctx, 'lawsuits', { ...before, ...values })
 */
export async function checkBench(
  ctx: { trx: Trx },
  entity: string,
  merged: Record<string, unknown>,
): Promise<void> {
  const errors: Record<string, Translatable[]> = {};
  if (present(merged.circuitId)) {
    const circuit = await ctx.trx
      .selectFrom(circuits.table)
      .select(COURT)
      .where('id', '=', Number(merged.circuitId))
      .executeTakeFirst();
    if (circuit && (!present(merged.courtId) || Number(circuit[COURT]) !== Number(merged.courtId)))
      errors.circuitId = [{ key: 'legal.lawsuits.circuitNotOfCourt' }];
  }
  if (present(merged.judgeId)) {
    const judge = await ctx.trx
      .selectFrom(judges.table)
      .select(CIRCUIT)
      .where('id', '=', Number(merged.judgeId))
      .executeTakeFirst();
    if (
      judge &&
      (!present(merged.circuitId) ||
        judge[CIRCUIT] === null ||
        Number(judge[CIRCUIT]) !== Number(merged.circuitId))
    )
      errors.judgeId = [{ key: 'legal.lawsuits.judgeNotOfCircuit' }];
  }
  if (Object.keys(errors).length) throw new AppError('validation', { entity, errors });
}
