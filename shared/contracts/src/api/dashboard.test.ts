import { dashboard, dashboardQuery, emptyDashboard, percentOf, trendMonths } from './dashboard';

describe('dashboard contracts', () => {
  it('reads the query: Eastern digits, blanks as none, a branch id', () => {
    expect(dashboardQuery.parse({ from: '٢٠٢٦-٠١-٠١', to: '', branchId: '٣' })).toEqual({
      from: '2026-01-01',
      branchId: 3,
    });
    expect(dashboardQuery.safeParse({ from: '2026-02-30' }).success).toBe(false);
    expect(dashboardQuery.safeParse({ to: '1/2/2026' }).success).toBe(false);
    expect(dashboardQuery.safeParse({ branchId: '0' }).success).toBe(false);
  });

  it('gives the twelve months ending with the month of the day, across a year', () => {
    expect(trendMonths('2026-02-14')).toEqual([
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
  });

  it('rounds percentages halves up, 0 of nothing', () => {
    expect([percentOf(2, 3), percentOf(1, 8), percentOf(0, 0), percentOf(5, 5)]).toEqual([67, 13, 0, 100]);
  });

  it('falls back to an answer of zeros in the answer shape', () => {
    const empty = emptyDashboard('2026-06-15');
    expect(dashboard.strict().safeParse(empty).success).toBe(true);
    expect(Object.values(empty.counts).every((n) => n === 0)).toBe(true);
    expect(empty.monthlyLawsuitTrend).toHaveLength(12);
    expect(empty.monthlyLawsuitTrend.at(-1)).toEqual({ month: '2026-06', count: 0 });
  });
});
