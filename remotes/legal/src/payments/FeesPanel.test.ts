import { formatPercent } from './FeesPanel';

describe('formatPercent', () => {
  it('writes a whole percentage in the interface language', () => {
    expect(formatPercent(33, 'en')).toBe('33%');
    expect(formatPercent(110, 'en')).toBe('110%');
    expect(formatPercent(33, 'ar')).toMatch(/^٣٣٪/);
  });
});
