/**
 * One term per concept, in Arabic and English. Staff read the same word in the menu, the page
 * title, forms, messages and exports; a second word for one thing ("العملاء" beside "الموكلون")
 * reads as a second thing. `glossary.test.ts` holds every translation file to these terms.
 *
 * @example GLOSSARY.customerTypes.many.ar // 'أنواع الموكلين'
 */
export interface Term {
  ar: string;
  en: string;
}

export interface Concept {
  /** The list, menu or page name. */
  many: Term;
  /** One record of it, where the concept has records. */
  one?: Term;
  /** Translation keys (`ns:path`) whose text must be exactly `many` (or `one` for `*.singular`). */
  uses: string[];
  /** Words for this concept that must not appear in any Arabic or English text. */
  avoid?: Partial<Record<keyof Term, string[]>>;
}

const term = (ar: string, en: string): Term => ({ ar, en });

/** Keys of a registry entity's list title and singular name. */
const entity = (name: string) => [`entities:${name}.title`, `entities:${name}.singular`];

export const GLOSSARY = {
  dashboard: {
    many: term('لوحة التحكم', 'Dashboard'),
    uses: ['menu:items.dashboard', 'dashboard:title'],
  },
  employees: {
    many: term('الموظفون', 'Employees'),
    one: term('موظف', 'Employee'),
    uses: ['menu:groups.employees', 'menu:items.employees', ...entity('employees')],
  },
  roles: {
    many: term('الأدوار', 'Roles'),
    one: term('دور', 'Role'),
    uses: ['menu:items.roles', ...entity('roles')],
  },
  permissions: {
    many: term('الصلاحيات', 'Permissions'),
    one: term('صلاحية', 'Permission'),
    uses: ['menu:items.permissions', ...entity('permissions')],
  },
  systemSettings: {
    many: term('إعدادات النظام', 'System settings'),
    uses: ['menu:groups.systemSettings'],
  },
  generalSettings: {
    many: term('الإعدادات العامة', 'General settings'),
    uses: ['menu:items.generalSystem', 'settings:system.general.title'],
    avoid: { ar: ['النظام العام'], en: ['General system'] },
  },
  appearance: {
    many: term('المظهر', 'Appearance'),
    uses: ['menu:items.appearance', 'settings:system.appearance.title'],
  },
  systemLogs: {
    many: term('سجلات النظام', 'System logs'),
    uses: ['menu:items.systemLogs', 'settings:logs.title'],
  },
  auditTrail: {
    many: term('سجل التدقيق', 'Audit trail'),
    uses: ['menu:items.auditTrail', 'settings:audit.title'],
  },
  documentTemplates: {
    many: term('قوالب المستندات', 'Document templates'),
    one: term('قالب مستند', 'Document template'),
    uses: ['menu:items.documentTemplates', ...entity('documentTemplates')],
  },
  messageTemplates: {
    many: term('قوالب رسائل الموكلين', 'Client message templates'),
    one: term('قالب رسالة', 'Message template'),
    uses: ['menu:items.messageTemplates', ...entity('messageTemplates')],
  },
  documentFields: {
    many: term('حقول الدمج', 'Merge fields'),
    uses: ['menu:items.documentFields', 'settings:documents.fieldsTitle'],
  },
  backups: {
    many: term('النسخ الاحتياطية', 'Backups'),
    uses: ['menu:items.backups', 'settings:backups.title', 'settings:system.general.sections.backups'],
  },
  places: { many: term('الأماكن', 'Places'), uses: ['menu:groups.places'] },
  continents: {
    many: term('القارات', 'Continents'),
    one: term('قارة', 'Continent'),
    uses: ['menu:items.continents', ...entity('continents')],
  },
  countries: {
    many: term('الدول', 'Countries'),
    one: term('دولة', 'Country'),
    uses: ['menu:items.countries', ...entity('countries')],
  },
  governorates: {
    many: term('المحافظات', 'Governorates'),
    one: term('محافظة', 'Governorate'),
    uses: ['menu:items.governorates', ...entity('governorates')],
  },
  policeStations: {
    many: term('أقسام الشرطة', 'Police stations'),
    one: term('قسم شرطة', 'Police station'),
    uses: ['menu:items.policeStations', ...entity('policeStations')],
    avoid: { ar: ['مراكز الشرطة'] },
  },
  lawsuitSettings: {
    many: term('إعدادات الدعاوى', 'Lawsuit settings'),
    uses: ['menu:groups.lawsuitSettings'],
  },
  lawsuitTypes: {
    many: term('أنواع الدعاوى', 'Lawsuit types'),
    one: term('نوع دعوى', 'Lawsuit type'),
    uses: ['menu:items.lawsuitTypes', ...entity('lawsuitTypes')],
  },
  // The seed's "plaintiff/owner types": the capacity in which a party brings the lawsuit.
  lawsuitOwners: {
    many: term('صفات المدعي/المالك', 'Plaintiff/owner types'),
    one: term('صفة المدعي/المالك', 'Plaintiff/owner type'),
    uses: ['menu:items.lawsuitOwners', ...entity('lawsuitOwners')],
    avoid: { ar: ['صفات الموكل', 'صفة الموكل'] },
  },
  lawsuitCases: {
    many: term('حالات الدعاوى', 'Lawsuit cases'),
    one: term('حالة دعوى', 'Lawsuit case'),
    uses: ['menu:items.lawsuitCases', ...entity('lawsuitCases')],
  },
  procurationCases: {
    many: term('حالات التوكيلات', 'Power of attorney cases'),
    one: term('حالة توكيل', 'Power of attorney case'),
    uses: ['menu:items.procurationCases', ...entity('procurationCases')],
  },
  courts: {
    many: term('المحاكم', 'Courts'),
    one: term('محكمة', 'Court'),
    uses: ['menu:groups.courts', 'menu:items.courts', ...entity('courts')],
  },
  circuits: {
    many: term('الدوائر القضائية', 'Judicial circuits'),
    one: term('دائرة قضائية', 'Judicial circuit'),
    uses: ['menu:items.circuits', ...entity('circuits')],
  },
  judges: {
    many: term('القضاة', 'Judges'),
    one: term('قاضٍ', 'Judge'),
    uses: ['menu:items.judges', ...entity('judges')],
  },
  judicialRanks: {
    many: term('الدرجات القضائية', 'Judicial ranks'),
    one: term('درجة قضائية', 'Judicial rank'),
    uses: ['menu:items.judicialRanks', ...entity('judicialRanks')],
  },
  taskTypes: {
    many: term('أنواع المهام', 'Task types'),
    one: term('نوع مهمة', 'Task type'),
    uses: ['menu:items.taskTypes', ...entity('taskTypes')],
  },
  sessionSettings: {
    many: term('إعدادات الجلسات', 'Session settings'),
    uses: ['menu:groups.sessionSettings'],
  },
  sessionTypes: {
    many: term('أنواع الجلسات', 'Session types'),
    one: term('نوع جلسة', 'Session type'),
    uses: ['menu:items.sessionTypes', ...entity('sessionTypes')],
  },
  sessionAttendances: {
    many: term('آليات الحضور', 'Attendance mechanisms'),
    one: term('آلية حضور', 'Attendance mechanism'),
    uses: ['menu:items.sessionAttendances', ...entity('sessionAttendances')],
  },
  offices: { many: term('المكاتب', 'Offices'), uses: ['menu:groups.offices'] },
  branches: {
    many: term('الفروع', 'Branches'),
    one: term('فرع', 'Branch'),
    uses: ['menu:items.branches', ...entity('branches')],
  },
  administrativeSections: {
    many: term('الأقسام الإدارية', 'Administrative sections'),
    one: term('قسم إداري', 'Administrative section'),
    uses: ['menu:items.administrativeSections', ...entity('administrativeSections')],
  },
  // A law office's client is its principal (موكل), never a shop's customer (عميل).
  clients: {
    many: term('الموكلون', 'Clients'),
    one: term('موكل', 'Client'),
    uses: ['menu:groups.clients'],
    avoid: { ar: ['عميل', 'عملاء'], en: ['Customer', 'customer'] },
  },
  customers: { many: term('بيانات الموكلين', 'Client data'), uses: ['menu:items.customers'] },
  customerTypes: {
    many: term('أنواع الموكلين', 'Client types'),
    one: term('نوع موكل', 'Client type'),
    uses: ['menu:items.customerTypes', ...entity('customerTypes')],
  },
  procurations: { many: term('التوكيلات', 'Powers of attorney'), uses: ['menu:items.procurations'] },
  legal: {
    many: term('الإدارة القانونية', 'Legal department'),
    uses: ['menu:groups.legal'],
    avoid: { ar: ['الشؤون القانونية'] },
  },
  lawsuits: { many: term('الدعاوى', 'Lawsuits'), uses: ['menu:items.lawsuits'] },
  sessions: { many: term('جلسات الدعاوى', 'Lawsuit sessions'), uses: ['menu:items.sessions'] },
  opponents: { many: term('الخصوم', 'Opponents'), uses: ['menu:items.opponents'] },
  deadlines: {
    many: term('المواعيد الإجرائية', 'Deadlines'),
    one: term('ميعاد إجرائي', 'Deadline'),
    uses: ['menu:items.deadlines', 'entities:deadlines.title', 'entities:deadlines.singular'],
  },
  deadlineRules: {
    many: term('المواعيد القانونية', 'Legal periods'),
    one: term('ميعاد قانوني', 'Legal period'),
    uses: ['menu:items.deadlineRules', 'entities:deadlineRules.title', 'entities:deadlineRules.singular'],
  },
  holidays: {
    many: term('العطلات الرسمية', 'Official holidays'),
    one: term('عطلة رسمية', 'Official holiday'),
    uses: ['menu:items.holidays', 'entities:holidays.title', 'entities:holidays.singular'],
  },
  attachments: { many: term('المرفقات', 'Attachments'), uses: ['menu:items.attachments'] },
  tasks: { many: term('المهام', 'Tasks'), uses: ['menu:items.tasks'] },
  chat: { many: term('المحادثات', 'Chat'), uses: ['menu:items.chat'] },
  finance: { many: term('الشؤون المالية', 'Finance'), uses: ['menu:groups.finance'] },
  timeEntries: {
    many: term('سجلات الوقت', 'Time entries'),
    one: term('سجل وقت', 'Time entry'),
    uses: ['menu:items.timeEntries', ...entity('timeEntries')],
  },
  expenses: {
    many: term('المصروفات', 'Expenses'),
    one: term('مصروف', 'Expense'),
    uses: ['menu:items.expenses', ...entity('expenses')],
  },
  invoices: {
    many: term('الفواتير', 'Invoices'),
    one: term('فاتورة', 'Invoice'),
    uses: ['menu:items.invoices', ...entity('invoices')],
  },
  payments: {
    many: term('الدفعات', 'Payments'),
    one: term('دفعة', 'Payment'),
    uses: ['menu:items.payments', ...entity('payments')],
  },
  retainer: {
    many: term('الأمانات', 'Retainer'),
    one: term('حركة أمانات', 'Retainer movement'),
    uses: ['menu:items.retainerMovements', ...entity('retainerMovements')],
  },
  agingReport: {
    many: term('أعمار الديون', 'Aged receivables'),
    uses: ['menu:items.agingReport', 'legal:reports.aging.title'],
  },
  revenueByLawyer: {
    many: term('الإيرادات حسب المحامي', 'Revenue by lawyer'),
    uses: ['menu:items.revenueByLawyerReport', 'legal:reports.revenueByLawyer.title'],
  },
  revenueByMonth: {
    many: term('الإيرادات حسب الشهر', 'Revenue by month'),
    uses: ['menu:items.revenueByMonthReport', 'legal:reports.revenueByMonth.title'],
  },
  unbilled: {
    many: term('الوقت والمصروفات وأقساط الأتعاب غير المفوترة', 'Unbilled time, expenses and fee instalments'),
    uses: ['menu:items.unbilledReport', 'legal:reports.unbilled.title'],
  },
  statement: {
    many: term('كشف الحساب', 'Statement'),
    uses: ['clients:statement.tab', 'clients:statement.title'],
  },
  expenseCategories: {
    many: term('أنواع المصروفات', 'Expense categories'),
    one: term('نوع مصروف', 'Expense category'),
    uses: ['menu:items.expenseCategories', ...entity('expenseCategories')],
  },
} satisfies Record<string, Concept>;

export type ConceptName = keyof typeof GLOSSARY;
