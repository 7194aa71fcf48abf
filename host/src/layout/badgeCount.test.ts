import { badgeCount } from './badgeCount';

describe('badgeCount', () => {
  it("writes the count in the language's digits, as the button's label does", () => {
    expect(badgeCount(3, 'ar')).toBe('٣');
    expect(badgeCount(3, 'en')).toBe('3');
  });
  it('stops at 99+ and hides at zero', () => {
    expect(badgeCount(120, 'ar')).toBe('٩٩+');
    expect(badgeCount(120, 'en')).toBe('99+');
    expect(badgeCount(0, 'ar')).toBe(0);
  });
});
