import { circuits, judges } from '@mizan/contracts';
import type { Trx } from '../engine/context';
import { readRow, selectFields } from '../engine/rows';
import { AppError, type Translatable } from '../http/errors';
import { present } from '../http/values';

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
    const circuit = await selectFields(ctx.trx, circuits, ['courtId'])
      .where('id', '=', Number(merged.circuitId))
      .executeTakeFirst();
    if (
      circuit &&
      (!present(merged.courtId) || readRow(circuits, circuit).courtId !== Number(merged.courtId))
    )
      errors.circuitId = [{ key: 'legal.lawsuits.circuitNotOfCourt' }];
  }
  if (present(merged.judgeId)) {
    const judge = await selectFields(ctx.trx, judges, ['circuitId'])
      .where('id', '=', Number(merged.judgeId))
      .executeTakeFirst();
    if (
      judge &&
      (!present(merged.circuitId) || readRow(judges, judge).circuitId !== Number(merged.circuitId))
    )
      errors.judgeId = [{ key: 'legal.lawsuits.judgeNotOfCircuit' }];
  }
  if (Object.keys(errors).length) throw new AppError('validation', { entity, errors });
}
