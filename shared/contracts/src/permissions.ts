import type { Entity, Fields } from './entity';
import { ATTACHMENT_GROUP_SEEDS } from './entities/attachments';
import { EXPENSE_CATEGORY_SEEDS } from './entities/finance';
import { AREA_PERMISSIONS } from './areaPermissions';
import { registry } from './registry';

/** The standard actions; a definition's own `actions` add theirs (`courts.archive`). */
export type StandardAction =
  'view' | 'create' | 'update' | 'delete' | 'status' | 'baned' | 'import' | 'export';
// `string & {}` keeps the standard names in editor completion while any declared action is accepted.
export type EntityAction = StandardAction | (string & {});

/** `<entity>.<action>`, e.g. `courts.view`. */
export function permissionKey(entity: Pick<Entity<Fields>, 'name'> | string, action: EntityAction): string {
  return `${typeof entity === 'string' ? entity : entity.name}.${action}`;
}

/** The actions an entity's definition gives it, its declared custom actions last. */
export function entityActions(entity: Entity<Fields>): EntityAction[] {
  const actions: EntityAction[] = ['view', 'create', 'update', 'delete', 'export'];
  if (entity.status) actions.push('status');
  if (entity.baned) actions.push('baned');
  if (entity.importable) actions.push('import');
  actions.push(...Object.keys(entity.actions ?? {}));
  return actions;
}

export { AREA_PERMISSIONS };

export interface PermissionSeed {
  key: string;
  group: string;
}

/** Every permission key, seeded into the `permissions` table at start. */
export const ALL_PERMISSIONS: PermissionSeed[] = [
  ...registry.flatMap((entity) =>
    entityActions(entity as Entity<Fields>).map((action) => ({
      key: permissionKey(entity.name, action),
      group: entity.name,
    })),
  ),
  ...Object.values(AREA_PERMISSIONS).map((key) => ({ key, group: key.split('.')[0] ?? key })),
];

/**
 * What a lawyer writes beyond reading: a lawyer takes in a client and records the power of
 * attorney the client signs, and keeps both current (status included); opens lawsuits, records
 * their opponents, keeps both current, closes and reopens lawsuits, and files their papers
 * (attachments, a wrong file removed by updating). Deleting them, importing them in bulk and
 * editing the settings lists behind them (attachment groups too) stay with the administrator.
 */
const LAWYER_WRITES =
  /^(customers|procurations|opponents|attachments)\.(create|update|status)$|^lawsuits\.(create|update|close|reopen)$/;
/**
 * A lawyer collects the fees of the lawsuits they work: records a client's payment and corrects
 * it (deleting one stays with the administrator). The office's fee totals on the dashboard
 * (`dashboard.finance`) stay with the administrator too.
 */
const LAWYER_PAYMENT_WRITES = /^lawsuitPayments\.(view|export|create|update)$/;
/**
 * Fees are not the front desk's: the secretary neither reads nor records payments, and the
 * dashboard shows her no fee figures.
 */
const NOT_SECRETARY = /^lawsuitPayments\.|^dashboard\.finance$/;
/**
 * Lawyers and the secretary give each other tasks, move and write them and comment on them
 * (their own comments: editing or deleting another's is `tasks.moderate`'s, the administrator's).
 */
const TASK_WRITES =
  /^tasks\.(view|create|update|status|updateText)$|^taskComments\.(view|create|update|delete)$/;

/**
 * A lawyer records their own time (and corrects or deletes it: the scope keeps them to their own
 * entries) and the expenses of the lawsuits they work; deleting an expense, editing expense
 * categories and seeing everyone's time (`finance.everyone`) stay with the administrator.
 */
const LAWYER_FINANCE_WRITES = /^timeEntries\.(create|update|delete)$|^expenses\.(create|update)$/;

/**
 * The front desk's areas: the secretary registers clients, client types and powers of attorney,
 * keeps the hearing and task diaries (import and export included), and deletes nothing.
 */
const SECRETARY_AREAS = ['customers', 'customerTypes', 'procurations', 'sessions', 'tasks'];
/**
 * A lawyer keeps the hearings of the lawsuits: adds them, records what happened (the decision)
 * and postpones them (which creates the next hearing). The secretary has the same through
 * `SECRETARY_AREAS` (the hearing diary). Deleting a hearing stays with the administrator.
 */
const LAWYER_HEARING_WRITES = /^sessions\.(create|update|postpone)$/;
/**
 * A lawyer keeps the deadlines of the lawsuits: adds one by hand, changes a due date (with its
 * reason), marks it done or waived and reopens it. Deleting one stays with the administrator.
 */
const LAWYER_DEADLINE_WRITES = /^deadlines\.(create|update|changeDue|close|reopen)$/;
/**
 * The secretary also registers lawsuits and opponents as the lawyers dictate and keeps their
 * details current, files the papers lawyers hand in (attachments) and records the expenses paid
 * for a lawsuit (court fees, receipts), but closing or reopening
 * a lawsuit (its outcome) is a lawyer's decision.
 */
const SECRETARY_WRITES = /^(lawsuits|opponents|attachments|expenses)\.(create|update)$/;

/**
 * Roles created on first start. The administrator role holds every permission. A role's name is
 * data, stored in Arabic (the office's language); `en` is shown for it in English until someone
 * renames the role (and was the stored name before, so older databases are renamed on start).
 */
export const SEEDED_ROLES: {
  key: string;
  name: string;
  en: string;
  /** Its members are lawyers (`roles.lawyers`: what lawyer pickers offer). */
  lawyers: boolean;
  permissions: (key: string) => boolean;
}[] = [
  { key: 'administrator', name: 'مدير النظام', en: 'Administrator', lawyers: false, permissions: () => true },
  {
    key: 'lawyer',
    name: 'محامٍ',
    en: 'Lawyer',
    lawyers: true,
    permissions: (key) =>
      key === AREA_PERMISSIONS.dashboardView ||
      key === AREA_PERMISSIONS.chatUse ||
      LAWYER_WRITES.test(key) ||
      LAWYER_PAYMENT_WRITES.test(key) ||
      LAWYER_HEARING_WRITES.test(key) ||
      LAWYER_DEADLINE_WRITES.test(key) ||
      LAWYER_FINANCE_WRITES.test(key) ||
      TASK_WRITES.test(key) ||
      (!key.startsWith('employees.') &&
        !key.startsWith('roles.') &&
        !key.startsWith('permissions.') &&
        !key.startsWith('systemSettings.') &&
        !key.startsWith('logs.') &&
        !key.startsWith('audit.') &&
        (key.endsWith('.view') || key.endsWith('.export'))),
  },
  {
    key: 'secretary',
    name: 'سكرتير',
    en: 'Secretary',
    lawyers: false,
    permissions: (key) =>
      !NOT_SECRETARY.test(key) &&
      (key === AREA_PERMISSIONS.dashboardView ||
        key === AREA_PERMISSIONS.chatUse ||
        (SECRETARY_AREAS.some((area) => key.startsWith(`${area}.`) && !key.endsWith('.delete')) &&
          key !== AREA_PERMISSIONS.tasksModerate) ||
        SECRETARY_WRITES.test(key) ||
        TASK_WRITES.test(key) ||
        (key.endsWith('.view') && !/^(employees|roles|permissions|logs|audit|systemSettings)\./.test(key))),
  },
];

/**
 * How a role's stored name reads in a language: a seeded role still carrying its seeded name
 * reads in English in English; every other name is shown as stored.
 *
 * @example roleName('مدير النظام', 'en') // 'Administrator'
 */
export function roleName(name: string, lng: string): string {
  if (lng !== 'en') return name;
  return SEEDED_ROLES.find((role) => role.name === name)?.en ?? name;
}

/**
 * How a record's title reads in a language, wherever a list, a reference or a select shows it:
 * seeded roles read in English in English (`roleName`), and so do the seeded attachment groups
 * still carrying their seeded name (`ATTACHMENT_GROUP_SEEDS`); every other title is data, shown
 * as stored.
 *
 * @example recordTitle('roles', 'محامٍ', 'en') // 'Lawyer'
 * @example recordTitle('attachmentGroups', 'الأحكام', 'en') // 'Judgments'
 */
export function recordTitle(entity: string, title: string, lng: string): string {
  if (entity === 'roles') return roleName(title, lng);
  if (entity === 'attachmentGroups' && lng === 'en')
    return ATTACHMENT_GROUP_SEEDS.find((group) => group.name === title)?.nameEn ?? title;
  if (entity === 'expenseCategories' && lng === 'en')
    return EXPENSE_CATEGORY_SEEDS.find((category) => category.name === title)?.nameEn ?? title;
  return title;
}
