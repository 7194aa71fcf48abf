import { pastWithoutDecision } from './columns';

describe('pastWithoutDecision', () => {
  it.each([
    [{ date: '2026-11-01', decision: null }, true],
    [{ date: '2026-11-01', decision: '   ' }, true],
    [{ date: '2026-11-01', decision: 'حجز للحكم' }, false],
    [{ date: '2026-11-23', decision: null }, false],
    [{ date: '2026-12-01', decision: null }, false],
  ])('%j → %s', (row, expected) => {
    expect(pastWithoutDecision({ id: 1, ...row } as never, '2026-11-23')).toBe(expected);
  });
});
