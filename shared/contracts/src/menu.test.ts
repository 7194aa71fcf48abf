import { defineEntity, type Entity, type Fields } from './entity';
import { buildMenu, isMenuGroup, MENU, MENU_GROUPS, type MenuEntry, type MenuItem } from './menu';
import { registry } from './registry';

type Row = [string, string, string, string | undefined];
const row = (i: MenuItem): Row => [i.key, i.route, i.permission, i.remote];
const flat = (menu: MenuEntry[]) => menu.map((e) => (isMenuGroup(e) ? [e.key, e.items.map(row)] : row(e)));

/** The side menu exactly as it was written by hand before entities placed themselves. */
const SEED_MENU = [
  ['dashboard', '/admin/dashboard', 'dashboard.view', undefined],
  [
    'employees',
    [
      ['employees', '/admin/employees/employees', 'employees.view', 'settings'],
      ['roles', '/admin/employees/roles', 'roles.view', 'settings'],
      ['permissions', '/admin/employees/permissions', 'permissions.view', 'settings'],
    ],
  ],
  [
    'systemSettings',
    [
      ['generalSystem', '/admin/settings/system/general', 'systemSettings.view', 'settings'],
      ['appearance', '/admin/settings/system/general/appearances', 'systemSettings.view', 'settings'],
      ['systemLogs', '/admin/settings/system/logsSystem', 'logs.view', 'settings'],
      ['auditTrail', '/admin/settings/system/audit', 'audit.view', 'settings'],
      ['backups', '/admin/settings/system/backups', 'backups.view', 'settings'],
      ['documentTemplates', '/admin/documents/templates', 'documentTemplates.view', 'settings'],
      ['documentFields', '/admin/documents/fields', 'documentTemplates.view', 'settings'],
      ['messageTemplates', '/admin/settings/messageTemplates', 'messageTemplates.view', 'settings'],
    ],
  ],
  [
    'places',
    [
      ['continents', '/admin/settings/places/continents', 'continents.view', 'settings'],
      ['countries', '/admin/settings/places/countries', 'countries.view', 'settings'],
      ['governorates', '/admin/settings/places/governorates', 'governorates.view', 'settings'],
      ['policeStations', '/admin/settings/places/policeStations', 'policeStations.view', 'settings'],
    ],
  ],
  [
    'lawsuitSettings',
    [
      ['lawsuitTypes', '/admin/settings/lawsuit/types', 'lawsuitTypes.view', 'settings'],
      ['lawsuitOwners', '/admin/settings/lawsuit/owners', 'lawsuitOwners.view', 'settings'],
      ['lawsuitCases', '/admin/settings/lawsuit/cases', 'lawsuitCases.view', 'settings'],
      ['holidays', '/admin/settings/holidays', 'holidays.view', 'settings'],
      ['deadlineRules', '/admin/settings/deadlineRules', 'deadlineRules.view', 'settings'],
    ],
  ],
  ['procurationCases', '/admin/settings/procurations/cases', 'procurationCases.view', 'settings'],
  [
    'courts',
    [
      ['courts', '/admin/settings/courts/courts', 'courts.view', 'settings'],
      ['circuits', '/admin/settings/courts/circuits', 'circuits.view', 'settings'],
      ['judges', '/admin/settings/courts/judges', 'judges.view', 'settings'],
      ['judicialRanks', '/admin/settings/courts/judicialRanks', 'judicialRanks.view', 'settings'],
    ],
  ],
  ['taskTypes', '/admin/settings/tasks/types', 'taskTypes.view', 'settings'],
  [
    'sessionSettings',
    [
      ['sessionTypes', '/admin/settings/sessions/types', 'sessionTypes.view', 'settings'],
      ['sessionAttendances', '/admin/settings/sessions/attendances', 'sessionAttendances.view', 'settings'],
    ],
  ],
  ['offices', [['branches', '/admin/settings/offices/branches', 'branches.view', 'settings']]],
  [
    'administrativeSections',
    '/admin/settings/administrative/sections',
    'administrativeSections.view',
    'settings',
  ],
  [
    'clients',
    [
      ['customers', '/admin/customers', 'customers.view', 'clients'],
      ['customerTypes', '/admin/customers/settings/types', 'customerTypes.view', 'clients'],
    ],
  ],
  ['procurations', '/admin/customers/procurations', 'procurations.view', 'clients'],
  [
    'legal',
    [
      ['lawsuits', '/admin/lawsuits', 'lawsuits.view', 'legal'],
      ['sessions', '/admin/lawsuits/sessions', 'sessions.view', 'legal'],
      ['deadlines', '/admin/lawsuits/deadlines', 'deadlines.view', 'legal'],
      ['opponents', '/admin/lawsuits/opponents', 'opponents.view', 'legal'],
      ['attachments', '/admin/lawsuits/attachments', 'attachments.view', 'legal'],
      ['tasks', '/admin/lawsuits/tasks', 'tasks.view', 'tasks'],
    ],
  ],
  [
    'finance',
    [
      ['timeEntries', '/admin/finance/timeEntries', 'timeEntries.view', 'legal'],
      ['expenses', '/admin/finance/expenses', 'expenses.view', 'legal'],
      ['invoices', '/admin/finance/invoices', 'invoices.view', 'legal'],
      ['payments', '/admin/finance/payments', 'payments.view', 'legal'],
      ['retainerMovements', '/admin/finance/retainer', 'retainerMovements.view', 'legal'],
      ['agingReport', '/admin/finance/reports/aging', 'finance.reports', 'legal'],
      ['revenueByLawyerReport', '/admin/finance/reports/revenueByLawyer', 'finance.reports', 'legal'],
      ['revenueByMonthReport', '/admin/finance/reports/revenueByMonth', 'finance.reports', 'legal'],
      ['unbilledReport', '/admin/finance/reports/unbilled', 'finance.reports', 'legal'],
      ['expenseCategories', '/admin/finance/expenses/categories', 'expenseCategories.view', 'legal'],
    ],
  ],
  ['chat', '/admin/chats', 'chat.use', 'chat'],
];

describe('MENU', () => {
  it('is the side menu, derived from the definitions', () => {
    expect(flat(MENU)).toEqual(SEED_MENU);
  });

  it('places every definition of the registry, or says it stays out with menu: false', () => {
    const missing = registry.filter((e) => (e as Entity<Fields>).menu === undefined).map((e) => e.name);
    expect(missing).toEqual([]);
    const shown = new Set(MENU.flatMap((e) => (isMenuGroup(e) ? e.items : [e])).map((i) => i.key));
    const hidden = registry.filter((e) => !shown.has(e.name) && (e as Entity<Fields>).menu !== false);
    expect(hidden.map((e) => e.name)).toEqual([]);
  });

  const gizmos = (menu: Entity<Fields>['menu']) =>
    defineEntity({
      name: 'gizmos',
      path: '/admin/gizmos',
      remote: 'settings',
      menu,
      fields: { name: { type: 'string' } },
    });

  it('adds a new definition to its group by order, or on its own between the groups', () => {
    const entities = (registry as readonly Entity<Fields>[]).filter(
      (e) => e.menu && ['courts', null].includes(e.menu.group),
    );
    const inCourts = buildMenu(
      [{ key: 'courts', order: 1 }],
      [...entities, gizmos({ group: 'courts', order: 2.5 })],
    );
    expect(flat(inCourts).slice(0, 1)).toEqual([
      [
        'courts',
        [
          ['courts', '/admin/settings/courts/courts', 'courts.view', 'settings'],
          ['circuits', '/admin/settings/courts/circuits', 'circuits.view', 'settings'],
          ['gizmos', '/admin/gizmos', 'gizmos.view', 'settings'],
          ['judges', '/admin/settings/courts/judges', 'judges.view', 'settings'],
          ['judicialRanks', '/admin/settings/courts/judicialRanks', 'judicialRanks.view', 'settings'],
        ],
      ],
    ]);
    const alone = buildMenu(
      [
        { key: 'courts', order: 10 },
        { key: 'offices', order: 200 },
      ],
      [...entities, gizmos({ group: null, order: 15 })],
    );
    // Between the groups, among the definitions that stand on their own (orders 60, 80, 110, 130).
    expect(alone.map((e) => e.key)).toEqual([
      'courts',
      'gizmos',
      'procurationCases',
      'taskTypes',
      'administrativeSections',
      'procurations',
    ]);
    expect(buildMenu([{ key: 'courts', order: 1 }], [gizmos(false)])).toEqual([]);
  });

  it('fails at start-up on a group that does not exist, naming the entity', () => {
    expect(() => buildMenu([{ key: 'courts', order: 1 }], [gizmos({ group: 'court' })])).toThrow(
      'Entity "gizmos": menu group "court" does not exist (groups: courts)',
    );
  });

  it('names its groups', () => {
    expect(MENU_GROUPS).toContain('courts');
    expect(MENU_GROUPS).not.toContain('dashboard');
  });
});
