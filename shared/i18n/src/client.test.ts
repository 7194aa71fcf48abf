import { LANGUAGES, NAMESPACES } from '../resources';
import arApp from './bundles/app/ar';
import enApp from './bundles/app/en';
import arSignIn from './bundles/signIn/ar';
import enSignIn from './bundles/signIn/en';
import { currentLanguage, i18n, initI18n, loadAppTexts, setLanguage } from './client';

// The page's entry (client.ts), which loads texts in chunks; the other tests use the full entry.

const has = (lng: string, ns: string) => i18n.hasResourceBundle(lng, ns);

describe('text groups', () => {
  const groups = { ar: [arSignIn, arApp], en: [enSignIn, enApp] } as const;

  it.each(LANGUAGES)('split the client namespaces of %s in two, none twice, no server namespace', (lng) => {
    const [signIn, app] = groups[lng].map((bundles) => Object.keys(bundles));
    expect(signIn!.filter((ns) => app!.includes(ns))).toEqual([]);
    expect([...signIn!, ...app!].sort()).toEqual(NAMESPACES.filter((ns) => !ns.startsWith('server-')).sort());
  });

  it('give both languages the same namespaces in each group', () => {
    expect(Object.keys(arSignIn)).toEqual(Object.keys(enSignIn));
    expect(Object.keys(arApp)).toEqual(Object.keys(enApp));
  });
});

describe('loading by group', () => {
  it('starts with the signed-out texts of one language only', async () => {
    await initI18n('ar', { app: false });
    expect(i18n.t('auth:login.submit')).toBe(arSignIn.auth.login.submit);
    expect(i18n.t('common:actions.save')).toBe('حفظ');
    expect(has('ar', 'menu')).toBe(false);
    expect(has('en', 'auth')).toBe(false);
  });

  it('switches language with the same groups', async () => {
    await setLanguage('en');
    expect(currentLanguage()).toBe('en');
    expect(i18n.t('auth:login.submit')).toBe(enSignIn.auth.login.submit);
    expect(has('en', 'menu')).toBe(false);
  });

  it('adds the application texts on demand, under texts a remote registered first', async () => {
    // A remote released after the host registers newer strings over the host's own (remote.ts).
    i18n.addResourceBundle('en', 'menu', { items: { countries: 'Countries (new)' } }, true, true);
    await loadAppTexts();
    expect(i18n.t('menu:items.countries')).toBe('Countries (new)');
    expect(i18n.t('menu:groups.places')).toBe(enApp.menu.groups.places);
    expect(i18n.t('dashboard:title')).toBe(enApp.dashboard.title);
    expect(has('ar', 'menu')).toBe(false);
  });

  it('loads the application texts of any language switched to afterwards', async () => {
    await setLanguage('ar');
    expect(i18n.t('menu:groups.places')).toBe(arApp.menu.groups.places);
    expect(i18n.t('auth:login.submit')).toBe(arSignIn.auth.login.submit);
  });

  it('adds each chunk once', async () => {
    const added = jest.spyOn(i18n, 'addResourceBundle');
    try {
      await Promise.all([loadAppTexts(), setLanguage('en'), initI18n('ar'), setLanguage('ar')]);
      expect(added).not.toHaveBeenCalled();
    } finally {
      added.mockRestore();
    }
  });
});
