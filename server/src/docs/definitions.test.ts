import { resources, type ResourceTree } from '@mizan/i18n/resources';
import { defineEntity, MENU_GROUPS, registry, type Entity, type Fields } from '@mizan/contracts';

/**
 * A new entity is one definition plus its translations: this is the check that both are there.
 * It lives on the server because the contracts may not import the translations.
 */

const LANGS = ['ar', 'en'] as const;

function text(tree: ResourceTree, path: string): string | undefined {
  let node: ResourceTree | string | undefined = tree;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' && node.trim() !== '' ? node : undefined;
}

/** The `entities` and `menu` keys a definition needs in each language, as `lang:namespace:key`. */
function missingTexts(entity: Entity<Fields>): string[] {
  const needed: [ns: 'entities' | 'menu', key: string][] = [
    ['entities', `${entity.name}.title`],
    ['entities', `${entity.name}.singular`],
  ];
  const fields = [
    ...Object.keys(entity.fields),
    'id',
    'createdAt',
    'updatedAt',
    ...(entity.status ? ['status'] : []),
    ...(entity.baned ? ['baned'] : []),
  ];
  for (const key of fields) needed.push(['entities', `${entity.name}.fields.${key}`]);
  for (const key of Object.keys(entity.listFilters ?? {}))
    needed.push(['entities', `${entity.name}.filters.${key}`]);
  for (const [key, field] of Object.entries(entity.fields)) {
    if (field.type !== 'enum') continue;
    for (const value of field.values) needed.push(['entities', `${entity.name}.values.${key}.${value}`]);
  }
  if (entity.menu) {
    needed.push(['menu', `items.${entity.name}`]);
    if (entity.menu.group !== null) needed.push(['menu', `groups.${entity.menu.group}`]);
  }
  return LANGS.flatMap((lang) =>
    needed.filter(([ns, key]) => !text(resources[lang][ns], key)).map(([ns, key]) => `${lang}:${ns}:${key}`),
  );
}

describe('every definition comes with its translations and menu placement', () => {
  it.each(registry.map((e) => [e.name, e as Entity<Fields>] as const))('%s', (_, entity) => {
    expect(missingTexts(entity)).toEqual([]);
    // `menu: false` is a decision; no `menu` at all is an omission.
    expect(entity.menu).toBeDefined();
    if (entity.menu && entity.menu.group !== null) expect(MENU_GROUPS).toContain(entity.menu.group);
  });

  it('names what a new definition still lacks', () => {
    const gizmos = defineEntity({
      name: 'gizmos',
      path: '/admin/gizmos',
      remote: 'settings',
      menu: { group: 'courts' },
      fields: { name: { type: 'string' }, size: { type: 'enum', values: ['small'] } },
    });
    const missing = missingTexts(gizmos);
    for (const lang of LANGS) {
      expect(missing).toEqual(
        expect.arrayContaining([
          `${lang}:entities:gizmos.title`,
          `${lang}:entities:gizmos.fields.name`,
          `${lang}:entities:gizmos.values.size.small`,
          `${lang}:menu:items.gizmos`,
        ]),
      );
      // The group is translated already.
      expect(missing).not.toContain(`${lang}:menu:groups.courts`);
    }
  });
});
