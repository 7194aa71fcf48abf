import fs from 'node:fs';
import path from 'node:path';
import {
  antdValidateMessages,
  createI18n,
  dirOf,
  i18n,
  initI18n,
  LANGUAGES,
  NAMESPACES,
  resources,
  setLanguage,
  validationMessage,
} from './index';

type Tree = { [key: string]: string | Tree };

/** Every leaf key of a namespace as `a.b.c` with its text. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]!))].sort();

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** i18next's context forms of a text about an employee's act, by their gender (Arabic verbs agree). */
const GENDERED = /_(male|female)$/;
/** A key without its plural form (`typing_female_one` → `typing_female`). */
const baseOfPlural = (key: string) => key.replace(PLURAL, '');
/** A plural or gendered form's base key (`items_few` → `items`); other keys are their own base. */
const baseOf = (key: string) => key.replace(PLURAL, '').replace(GENDERED, '');

/** Keys grouped by base: a plural group holds its forms, a plain key holds itself. */
function groups(tree: Map<string, string>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, text] of tree) {
    const base = baseOf(key);
    if (!out.has(base)) out.set(base, new Map());
    out.get(base)!.set(key, text);
  }
  return out;
}

const isPluralGroup = (forms: Map<string, string>) =>
  [...forms.keys()].every((k) => PLURAL.test(k) && !GENDERED.test(k));

/** The placeholders a group uses: a plain key's, or its `_other` form's (the fullest form). */
function groupPlaceholders(forms: Map<string, string>): string[] {
  if (!isPluralGroup(forms)) return placeholders([...forms.values()][0]!);
  return placeholders([...forms].find(([k]) => k.endsWith('_other'))?.[1] ?? '');
}

// Guards every namespace file, whoever owns it: a key in one language must exist in the other
// (plural keys compare by base, as Arabic has six plural forms and English two), with the same
// interpolation placeholders, every plural form the language needs, and no empty text.
describe.each(NAMESPACES)('namespace %s', (ns) => {
  const [ar, en] = LANGUAGES.map((lng) => groups(leaves(resources[lng][ns] as Tree)));

  it('has the same keys in Arabic and English', () => {
    expect([...ar!.keys()].filter((k) => !en!.has(k))).toEqual([]);
    expect([...en!.keys()].filter((k) => !ar!.has(k))).toEqual([]);
  });

  it('uses the same placeholders in both languages and no empty text', () => {
    const mismatched = [...ar!]
      .filter(
        ([base, forms]) =>
          en!.has(base) && groupPlaceholders(forms).join() !== groupPlaceholders(en!.get(base)!).join(),
      )
      .map(([base]) => base);
    expect(mismatched).toEqual([]);
    const empty = [...ar!.values(), ...en!.values()]
      .flatMap((forms) => [...forms])
      .filter(([, text]) => text.trim() === '')
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('gives every plural form each language uses, each within the placeholders of its _other form', () => {
    const problems: string[] = [];
    LANGUAGES.forEach((lng, i) => {
      const needed = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
      for (const [base, forms] of [ar!, en!][i]!) {
        if (!isPluralGroup(forms)) continue;
        for (const category of needed)
          if (!forms.has(`${base}_${category}`)) problems.push(`${lng}: ${base}_${category} missing`);
        const allowed = new Set([...groupPlaceholders(forms), 'count']);
        for (const [key, text] of forms) {
          if (placeholders(text).some((p) => !allowed.has(p)))
            problems.push(`${lng}: ${key} has a placeholder _other lacks`);
        }
      }
    });
    expect(problems).toEqual([]);
  });
});

// Arabic counted nouns agree with their number (جلسة واحدة، جلستان، ٣ جلسات، ١١ جلسةً، ١٠٠ جلسة),
// and a verb with the gender of who acted (غيّرت فاطمة، غيّر أحمد).
describe.each(NAMESPACES)('Arabic grammar of namespace %s', (ns) => {
  const ar = leaves(resources.ar[ns] as Tree);

  it('counts nouns only in plural forms: a number followed by a word is a plural group', () => {
    // A count, a bound (min, max, len) or a total, then an Arabic word: a counted noun (٣ أحرف،
    // ١١ حرفًا). Not a noun: "بالضبط", "و" before the next number, and units, which do not agree
    // (٢٥ ميجابايت).
    const counted =
      /\{\{\s*(count|n|min|max|len|total)\s*(,\s*number\s*)?\}\}\s+(?!بالضبط|و\{\{|(?:كيلو|ميجا|جيجا)?بايت)[\u0621-\u064A]/;
    expect(
      [...ar].filter(([key, text]) => counted.test(text) && !PLURAL.test(key)).map(([key]) => key),
    ).toEqual([]);
  });

  it('has a feminine form of every text naming who acted before the verb names them', () => {
    // A verb (letters with their marks) right before the name of who acted: "كلّفك {{by}}",
    // "حفظه {{who}}" (who saved a record meanwhile). A name after a noun owns it ("تعليق {{who}}").
    const actor = /(?:^|\s)(?!تعليق\s)(?:\p{L}|\p{M})+\s+\{\{\s*(?:by|sender|who)\s*\}\}/u;
    const missing = [...ar]
      .filter(([key, text]) => !GENDERED.test(key) && actor.test(text) && !ar.has(`${key}_female`))
      .map(([key]) => key);
    expect(missing).toEqual([]);
  });

  it('has a feminine form of every text naming who acts before a present-tense verb', () => {
    // "{{names}} يكتب…" (the typing line): the verb after the name agrees too ("تكتب").
    const actor = /\{\{\s*(?:by|sender|who|names)\s*\}\}\s+ي/u;
    const feminine = (key: string) =>
      key.replace(/^(.*?)(_(?:zero|one|two|few|many|other))?$/, '$1_female$2');
    const missing = [...ar]
      .filter(
        ([key, text]) => !GENDERED.test(baseOfPlural(key)) && actor.test(text) && !ar.has(feminine(key)),
      )
      .map(([key]) => key);
    expect(missing).toEqual([]);
  });

  it('gives each gendered form the placeholders of its plain text', () => {
    const mismatched = [...ar]
      .filter(([key]) => GENDERED.test(key))
      .filter(([key, text]) => placeholders(text).join() !== placeholders(ar.get(baseOf(key)) ?? '').join())
      .map(([key]) => key);
    expect(mismatched).toEqual([]);
  });
});

describe('numbers in texts', () => {
  it('are written in the digits of the language', () => {
    const ar = createI18n('ar');
    const en = createI18n('en');
    expect(ar.t('layout:search.total', { count: 1543 })).toBe('الإجمالي ١٬٥٤٣');
    expect(en.t('layout:search.total', { count: 1543 })).toBe('1,543 in all');
    expect(ar.t('notifications:bell', { count: 2 })).toBe('الإشعارات، إشعاران غير مقروءين');
    expect(ar.t('notifications:bell', { count: 11 })).toBe('الإشعارات، ١١ إشعارًا غير مقروء');
  });
});

// The server reads its messages from the same resources (`http.notFound` is server-http's
// `notFound`, `validation.required` the validation namespace's `required`): every literal key in
// the server's code must have a text in both languages. The auth module's own keys are typed from
// server-auth.json, so the compiler checks those.
describe('keys the server references', () => {
  const serverSrc = path.resolve(__dirname, '../../../server/src');
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(file);
      return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [file] : [];
    });
  const areas = [
    ...NAMESPACES.filter((ns) => ns.startsWith('server-')).map((ns) => ns.slice('server-'.length)),
    'validation',
  ];
  const KEY = new RegExp(`['"\`]((?:${areas.join('|')})\\.[A-Za-z0-9_.]*[A-Za-z0-9_])['"\`]`, 'g');
  const referenced = new Map<string, string>();
  for (const file of sources(serverSrc))
    for (const match of fs.readFileSync(file, 'utf8').matchAll(KEY))
      referenced.set(match[1]!, path.relative(serverSrc, file));

  /** A text for `key`, or texts under it when the code names a group (`system.fields` + field). */
  const known = (lng: (typeof LANGUAGES)[number], key: string): boolean => {
    const [area, ...rest] = key.split('.');
    const namespaces = resources[lng] as Record<string, Tree>;
    const tree = namespaces[`server-${area}`] ?? namespaces[area!];
    const path = rest.join('.');
    return !!tree && [...leaves(tree).keys()].some((k) => baseOf(k) === path || k.startsWith(`${path}.`));
  };

  it('finds the server code (a scan that reads nothing cannot fail)', () => {
    expect(referenced.size).toBeGreaterThan(40);
    expect(referenced.has('http.notFound')).toBe(true);
  });

  it.each(LANGUAGES)('has a %s text for each', (lng) => {
    const missing = [...referenced]
      .filter(([key]) => !known(lng, key))
      .map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });
});

describe('i18n set-up', () => {
  beforeAll(() => initI18n('ar'));

  it('serves every namespace in Arabic by default and switches to English', async () => {
    expect(i18n.t('common:toast.success')).toBe('تم بنجاح');
    expect(i18n.t('common:toast.loading')).toBe('جارٍ التحميل...');
    expect(i18n.t('common:notification.title')).toBe('تنبيه');
    await initI18n('en');
    expect(i18n.t('errors:status.404')).toBe('The page does not exist');
    await initI18n('ar');
    expect(i18n.t('errors:status.404')).toBe('الصفحة غير موجودة');
  });

  it('sets <html lang dir> when the language changes', async () => {
    // Node environment: a bare document stand-in is enough to observe the attributes.
    const documentElement = { lang: '', dir: '' };
    Object.assign(globalThis, { document: { documentElement } });
    try {
      await setLanguage('en');
      expect(documentElement).toEqual({ lang: 'en', dir: 'ltr' });
      await setLanguage('ar');
      expect(documentElement).toEqual({ lang: 'ar', dir: 'rtl' });
      await expect(setLanguage('fr' as 'ar')).rejects.toThrow('Unsupported language');
      expect(i18n.language).toBe('ar');
    } finally {
      Reflect.deleteProperty(globalThis, 'document');
    }
  });

  it('creates independent instances that do not move the page language', () => {
    const english = createI18n('en');
    expect(english.t('common:actions.save')).toBe('Save');
    expect(english).not.toBe(i18n);
    expect(i18n.language).toBe('ar');
  });

  it('gives the direction of each language', () => {
    expect(dirOf('ar')).toBe('rtl');
    expect(dirOf('en')).toBe('ltr');
  });

  it('translates the validation keys of contracts with the label and bounds', () => {
    const t = i18n.getFixedT('en');
    expect(validationMessage(t, 'validation.string.max', { label: 'Name', max: 100 })).toBe(
      'Name must be at most 100 characters',
    );
    expect(validationMessage(t, 'validation.enum', { label: 'Type', values: 'a, b' })).toBe(
      'Type must be one of: a, b',
    );
    expect(validationMessage(t, 'validation.too_small', { label: 'Roles', min: 1 })).toBe(
      'Roles must be at least 1',
    );
    // The bound in the language's digits, and the noun agreeing with a single one.
    expect(validationMessage(t, 'validation.array.min', { label: 'Lawyers', min: 1, count: 1 })).toBe(
      'Lawyers must have at least 1 item',
    );
    expect(validationMessage(t, 'validation.string.max', { label: 'Name', max: 1000, count: 1000 })).toBe(
      'Name must be at most 1,000 characters',
    );
    expect(
      validationMessage(i18n.getFixedT('ar'), 'validation.array.min', {
        label: 'المحامون',
        min: 2,
        count: 2,
      }),
    ).toBe('يجب أن يضم «المحامون» عنصرين على الأقل');
    // Arabic counted nouns agree with the bound: ٣ أحرف، ١١ حرفًا، حرف واحد، حرفين، ١٠٠ حرف.
    const ar = i18n.getFixedT('ar');
    const min = (n: number) =>
      validationMessage(ar, 'validation.string.min', { label: 'الاسم', min: n, count: n });
    expect([1, 2, 3, 11, 100].map(min)).toEqual([
      'يجب ألا يقل «الاسم» عن حرف واحد',
      'يجب ألا يقل «الاسم» عن حرفين',
      'يجب ألا يقل «الاسم» عن ٣ أحرف',
      'يجب ألا يقل «الاسم» عن ١١ حرفًا',
      'يجب ألا يقل «الاسم» عن ١٠٠ حرف',
    ]);
    expect(validationMessage(ar, 'validation.string.max', { label: 'الاسم', max: 150, count: 150 })).toBe(
      'يجب ألا يزيد «الاسم» على ١٥٠ حرفًا',
    );
    expect(validationMessage(t, 'validation.string.min', { label: 'Name', min: 1, count: 1 })).toBe(
      'Name must be at least 1 character',
    );
    // A key the catalogue does not know falls back to the generic message, never to the raw key.
    expect(validationMessage(t, 'validation.something_new', { label: 'Name' })).toBe('Name is not valid');
  });

  it('builds antd validateMessages with antd placeholders', () => {
    const messages = antdValidateMessages(i18n.getFixedT('ar')) as Record<
      string,
      Record<string, string> | string
    >;
    expect(messages.required).toBe('الحقل «${label}» مطلوب');
    expect((messages.string as Record<string, string>).range).toBe(
      'يجب أن يكون عدد أحرف «${label}» بين ${min} و${max}',
    );
    expect((messages.types as Record<string, string>).email).toContain('${label}');
    expect(messages.enum).toContain('${enum}');
    expect((messages.array as Record<string, string>).len).toContain('${len}');
    // No i18next placeholder may survive: antd would show it literally.
    expect(JSON.stringify(messages)).not.toMatch(/\{\{/);
  });
});
