import { i18n, initI18n } from '@mizan/i18n';
import arEntities from '@mizan/i18n/locales/ar/entities.json';
import arMenu from '@mizan/i18n/locales/ar/menu.json';
import enEntities from '@mizan/i18n/locales/en/entities.json';
import enMenu from '@mizan/i18n/locales/en/menu.json';
import { registerRemoteTexts, remoteBundles } from './remote';

describe("a remote's own texts", () => {
  it("keeps only the remote's entities and menu items of the shared namespaces", () => {
    const bundles = remoteBundles('tasks', { tasks: { board: 'Board' }, entities: enEntities, menu: enMenu });
    expect(Object.keys(bundles.entities).sort()).toEqual(['taskComments', 'tasks']);
    expect(bundles.menu).toEqual({
      items: { tasks: enMenu.items.tasks },
      groups: { legal: enMenu.groups.legal },
    });
    expect(bundles.tasks).toEqual({ board: 'Board' });
  });

  it("registers them over the page's copy, in both languages", async () => {
    await initI18n('en');
    const newer = { ...enEntities, tasks: { ...enEntities.tasks, title: 'To-dos' } };
    registerRemoteTexts('tasks', {
      ar: { tasks: { board: 'اللوحة' }, entities: arEntities, menu: arMenu },
      en: { tasks: { board: 'Board' }, entities: newer, menu: enMenu },
    });
    expect(i18n.t('tasks:board')).toBe('Board');
    expect(i18n.t('entities:tasks.title')).toBe('To-dos');
    // Another remote's texts are left as they were.
    expect(i18n.t('entities:customers.title')).toBe(enEntities.customers.title);
    expect(i18n.getResource('ar', 'tasks', 'board')).toBe('اللوحة');
  });
});
