import { groupName } from './LawsuitAttachments';

describe('groupName', () => {
  it('reads the English name in English when there is one', () => {
    expect(groupName({ id: 2, name: 'المذكرات', nameEn: 'Memoranda' }, 'en')).toBe('Memoranda');
    expect(groupName({ id: 2, name: 'المذكرات', nameEn: 'Memoranda' }, 'ar')).toBe('المذكرات');
    // A seeded group without an English name reads as the seed's English; another keeps its name.
    expect(groupName({ id: 3, name: 'الأحكام', nameEn: null }, 'en')).toBe('Judgments');
    expect(groupName({ id: 9, name: 'تقارير الخبراء' }, 'en')).toBe('تقارير الخبراء');
  });
});
