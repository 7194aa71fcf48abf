/**
 * What valid rows of this module need beyond their field types, for tests that build rows from a
 * definition (`test/fixtures` validInput): a rule counted in days (a generated number of months
 * could pass the 120-month bound); a deadline with its due date given (no rule to count it from;
 * its state, Hijri day and change reason are the server's).
 */
/** A one-off holiday: a recurring one needs its month and day together (the generated ones may not exist). */
export const holidaySample = (): Record<string, unknown> => ({ kind: 'once', date: '2026-03-15' });

export const deadlineRuleSample = (): Record<string, unknown> => ({ unit: 'days' });

export const deadlineSample = (): Record<string, unknown> => ({
  ruleId: null,
  dueDate: '2026-03-15',
  startDate: '2026-03-01',
});
