import { API_BASE, NATIONAL_ID_LENGTH, circuits } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * What valid lawsuits and opponents need beyond their field types, for tests that build rows from
 * a definition (`test/fixtures` validInput), by the rules of `lawsuits.ts` and `opponents.ts`:
 *
 * - a lawsuit's court, circuit and judge stay empty (a generated circuit would not be of a
 *   generated court, nor a judge of it); it is active (`state` moves by its actions only); its
 *   file number is typed, unique per `seq` (the generated one is tested in lawsuits.test.ts, and
 *   the engine's defaults test expects every optional field it leaves out to stay empty);
 * - an opponent is a person with a well-formed national ID (a generated one would not be).
 *
 * @example lawsuitSample(7) // { fileNumber: 'T/7', state: 'active', courtId: null, ... }
 */
export function lawsuitSample(seq: number): Record<string, unknown> {
  return { fileNumber: `T/${seq}`, state: 'active', courtId: null, circuitId: null, judgeId: null };
}

/** @example opponentSample(7) // { kind: 'person', nationalId: '29700000000007', commercialRegister: null } */
export function opponentSample(seq: number): Record<string, unknown> {
  return {
    kind: 'person',
    nationalId: `297${String(seq).padStart(NATIONAL_ID_LENGTH - 3, '0')}`,
    commercialRegister: null,
  };
}

type Row = Record<string, unknown> & { id: number };
/** `createRow` of test/fixtures (passed in: this module is imported by it). */
type CreateRow = (
  app: FastifyInstance,
  headers: Record<string, string>,
  name: string,
  overrides: Record<string, unknown>,
) => Promise<Row>;

/**
 * A lawsuit or hearing (`entity`) holding the circuit or judge `held` through `field`, on a bench
 * that holds together (`checkBench`): the circuit's court, or the judge's circuit and its court.
 * For the engine's delete tests (`createHolder` in test/fixtures).
 */
export function benchHolder(entity: string, field: 'circuitId' | 'judgeId', createRow: CreateRow) {
  return async (app: FastifyInstance, headers: Record<string, string>, held: Row): Promise<Row> => {
    let bench: Record<string, unknown> = { circuitId: held.id, courtId: held.courtId };
    if (field === 'judgeId') {
      const circuit = await app.inject({
        method: 'GET',
        url: `${API_BASE}${circuits.path}/${String(held.circuitId)}`,
        headers,
      });
      bench = { judgeId: held.id, circuitId: held.circuitId, courtId: circuit.json().data.courtId };
    }
    return createRow(app, headers, entity, bench);
  };
}
