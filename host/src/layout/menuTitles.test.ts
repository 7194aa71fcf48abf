import {
  FINANCE_REPORTS,
  findEntity,
  isMenuGroup,
  MENU,
  registry,
  reportMenuKey,
  type MenuItem,
} from '@mizan/contracts';
import { createI18n, LANGUAGES } from '@mizan/i18n';
import { entityText } from '@mizan/ui';

/**
 * Title keys of the screens that are not one entity definition, as their pages render them
 * (dashboard, remotes/settings system, logs, audit, backups and merge-field pages, the finance reports).
 */
const SCREEN_TITLES: Record<string, string> = {
  dashboard: 'dashboard:title',
  generalSystem: 'settings:system.general.title',
  appearance: 'settings:system.appearance.title',
  systemLogs: 'settings:logs.title',
  auditTrail: 'settings:audit.title',
  backups: 'settings:backups.title',
  documentFields: 'settings:documents.fieldsTitle',
  // The finance reports' screen (remotes/legal reports/ReportPage) titles each report by its key.
  ...Object.fromEntries(
    Object.keys(FINANCE_REPORTS).map((key) => [reportMenuKey(key), `legal:reports.${key}.title`]),
  ),
};

/** Menu items whose remote serves no screen yet (their glossary terms are checked in @mizan/i18n). */
const NO_SCREEN_YET = ['tasks', 'chat'];

const items: MenuItem[] = MENU.flatMap((entry) => (isMenuGroup(entry) ? entry.items : [entry]));

describe.each(LANGUAGES)('menu labels in %s', (lng) => {
  const i18n = createI18n(lng);
  const t = i18n.t.bind(i18n);

  it.each(items.map((item) => [item.key, item] as const))(
    '%s opens a page titled as its label',
    (_key, item) => {
      const label = t(`menu:items.${item.key}`);
      const entity = findEntity(item.key);
      if (entity && entity.route === item.route) {
        // The generic entity page's title, derived as the page derives it.
        expect(label).toBe(entityText(entity, t, lng).title);
      } else if (SCREEN_TITLES[item.key]) {
        expect(label).toBe(t(SCREEN_TITLES[item.key]!));
      } else {
        expect(NO_SCREEN_YET).toContain(item.key);
        // Once an entity serves that route, the first branch checks it.
        expect(registry.some((e) => e.route === item.route)).toBe(false);
      }
    },
  );
});
