import { NATIONAL_ID_LENGTH } from '@mizan/contracts';

/**
 * What a valid client needs beyond its field types, for tests that build rows from a definition
 * (`test/fixtures` validInput): the kind rules of `customers.ts` (a person with a well-formed
 * national ID, unique per `seq`, and no commercial registration).
 *
 * @example customerSample(7) // { kind: 'person', nationalId: '29800000000007', commercialRegister: null }
 */
export function customerSample(seq: number): Record<string, unknown> {
  return {
    kind: 'person',
    nationalId: `298${String(seq).padStart(NATIONAL_ID_LENGTH - 3, '0')}`,
    commercialRegister: null,
  };
}
