/**
 * What a valid time entry needs beyond its field types, for tests that build rows from a
 * definition (`test/fixtures` validInput): the seeded administrator's own entry (the employee
 * defaults to the actor), and a rate with the amount the server derives from it (1.5 h at 200.00).
 */
export const timeEntrySample = (): Record<string, unknown> => ({
  employeeId: 1,
  duration: 90,
  rate: 20_000,
  amount: 30_000,
});

/** A payment for tests that build rows from a definition: to no invoice (a retainer deposit), since a draft takes none. */
export const paymentSample = (): Record<string, unknown> => ({ invoiceIds: [], toRetainer: false });

/** A retainer movement for the same tests: a deposit (applying or refunding needs money held first). */
export const retainerSample = (): Record<string, unknown> => ({ kind: 'deposit', invoiceId: null });
