import { recordTitle, roleName, SEEDED_ROLES } from './permissions';

describe('seeded roles', () => {
  it('are stored in Arabic and read in English in English', () => {
    expect(SEEDED_ROLES.map((r) => r.name)).toEqual(['مدير النظام', 'محامٍ', 'سكرتير']);
    expect(SEEDED_ROLES.map((r) => roleName(r.name, 'en'))).toEqual(['Administrator', 'Lawyer', 'Secretary']);
    expect(roleName('مدير النظام', 'ar')).toBe('مدير النظام');
  });

  it('leave a role the office named itself as stored, in both languages', () => {
    expect(roleName('محاسب', 'en')).toBe('محاسب');
    expect(roleName('Administrator', 'ar')).toBe('Administrator');
  });

  it('give a record title its reading only for roles', () => {
    expect(recordTitle('roles', 'محامٍ', 'en')).toBe('Lawyer');
    expect(recordTitle('roles', 'محامٍ', 'ar')).toBe('محامٍ');
    expect(recordTitle('branches', 'محامٍ', 'en')).toBe('محامٍ');
  });
});
