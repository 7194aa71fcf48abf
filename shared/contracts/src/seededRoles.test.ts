import { ALL_PERMISSIONS, recordTitle, roleName, SEEDED_ROLES } from './permissions';

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

  const granted = (role: string, prefix: string) =>
    ALL_PERMISSIONS.map((p) => p.key)
      .filter((key) => key.startsWith(`${prefix}.`))
      .filter(SEEDED_ROLES.find((r) => r.key === role)!.permissions)
      .sort();

  it('give the administrator every client permission', () => {
    expect(granted('administrator', 'customers')).toEqual(
      ALL_PERMISSIONS.filter((p) => p.group === 'customers')
        .map((p) => p.key)
        .sort(),
    );
  });

  it('let a lawyer take in and keep clients, but not delete or import them, nor edit client types', () => {
    expect(granted('lawyer', 'customers')).toEqual([
      'customers.create',
      'customers.export',
      'customers.status',
      'customers.update',
      'customers.view',
    ]);
    expect(granted('lawyer', 'customerTypes')).toEqual(['customerTypes.export', 'customerTypes.view']);
    expect(SEEDED_ROLES[1]!.permissions('procurations.create')).toBe(true);
    expect(SEEDED_ROLES[1]!.permissions('procurations.delete')).toBe(false);
    expect(SEEDED_ROLES[1]!.permissions('employees.create')).toBe(false);
  });

  it('let a secretary register clients (import included) and delete nothing', () => {
    expect(granted('secretary', 'customers')).toEqual([
      'customers.create',
      'customers.export',
      'customers.import',
      'customers.status',
      'customers.update',
      'customers.view',
    ]);
    expect(SEEDED_ROLES[2]!.permissions('procurations.update')).toBe(true);
    expect(SEEDED_ROLES[2]!.permissions('procurations.delete')).toBe(false);
    expect(SEEDED_ROLES[2]!.permissions('roles.update')).toBe(false);
  });

  it('let a lawyer open, keep, close and reopen lawsuits and record opponents, deleting nothing', () => {
    expect(granted('lawyer', 'lawsuits')).toEqual([
      'lawsuits.close',
      'lawsuits.create',
      'lawsuits.export',
      'lawsuits.reopen',
      'lawsuits.update',
      'lawsuits.view',
    ]);
    expect(granted('lawyer', 'opponents')).toEqual([
      'opponents.create',
      'opponents.export',
      'opponents.status',
      'opponents.update',
      'opponents.view',
    ]);
  });

  it('let a secretary register and keep lawsuits and opponents, but not close, reopen or delete them', () => {
    expect(granted('secretary', 'lawsuits')).toEqual(['lawsuits.create', 'lawsuits.update', 'lawsuits.view']);
    expect(granted('secretary', 'opponents')).toEqual([
      'opponents.create',
      'opponents.update',
      'opponents.view',
    ]);
  });

  it('let lawyers and the secretary write tasks and their own comments; moderating and deleting tasks stay with the administrator', () => {
    for (const role of ['lawyer', 'secretary']) {
      expect(granted(role, 'tasks')).toEqual(
        expect.arrayContaining([
          'tasks.create',
          'tasks.status',
          'tasks.update',
          'tasks.updateText',
          'tasks.view',
        ]),
      );
      expect(granted(role, 'tasks')).not.toContain('tasks.moderate');
      expect(granted(role, 'tasks')).not.toContain('tasks.delete');
      expect(granted(role, 'taskComments')).toEqual(
        expect.arrayContaining([
          'taskComments.create',
          'taskComments.delete',
          'taskComments.update',
          'taskComments.view',
        ]),
      );
    }
    expect(granted('administrator', 'tasks')).toContain('tasks.moderate');
  });

  it("let a lawyer record and correct a lawsuit's payments; fees are neither the secretary's nor on her dashboard", () => {
    expect(granted('lawyer', 'lawsuitPayments')).toEqual([
      'lawsuitPayments.create',
      'lawsuitPayments.export',
      'lawsuitPayments.update',
      'lawsuitPayments.view',
    ]);
    expect(granted('secretary', 'lawsuitPayments')).toEqual([]);
    expect(granted('administrator', 'dashboard')).toContain('dashboard.finance');
    expect(granted('lawyer', 'dashboard')).toEqual(['dashboard.view']);
    expect(granted('secretary', 'dashboard')).toEqual(['dashboard.view']);
    // The secretary still books hearings and keeps clients.
    expect(granted('secretary', 'sessions')).toEqual(
      expect.arrayContaining(['sessions.create', 'sessions.update', 'sessions.postpone']),
    );
  });

  it("keep the finance reports (the office's money, each lawyer's results) with the administrator", () => {
    expect(granted('administrator', 'finance')).toContain('finance.reports');
    expect(granted('lawyer', 'finance')).not.toContain('finance.reports');
    expect(granted('secretary', 'finance')).not.toContain('finance.reports');
    // Reading invoices stays the lawyer's.
    expect(granted('lawyer', 'invoices')).toContain('invoices.view');
  });

  it('mark only the lawyer role as a role of lawyers', () => {
    expect(SEEDED_ROLES.map((r) => [r.key, r.lawyers])).toEqual([
      ['administrator', false],
      ['lawyer', true],
      ['secretary', false],
    ]);
  });
});
