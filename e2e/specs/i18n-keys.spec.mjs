// Fails when a translation is missing in either language: the ar and en trees must hold the same
// keys with non-empty values and the same {{placeholders}}; every key the code derives from the
// contracts (entity titles, field labels, enum values, menu entries, validation messages) must exist
// in both; and every namespaced key literal in the built bundles must resolve in both.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { LANGUAGES, leafKeys, loadLocale, lookup } from '../lib/i18n.mjs';
import { CONTRACTS_DIST, HOST_DIST, REMOTES_DIR, ROOT } from '../lib/paths.mjs';

/**
 * Grammatical forms a language may need and the other not: plural forms (Arabic has six, English
 * two) and the gender of the person acting (Arabic verbs agree with it; English falls back to the
 * base key), optionally one after the other (`key_female_one`).
 */
const FORMS = /(_(male|female))?(_(zero|one|two|few|many|other))?$/;
/** The names of a text's placeholders, formatted (`{{count, number}}`) or not. */
const placeholders = (s) => [...s.matchAll(/{{\s*(\w+)\s*(?:,[^}]*)?}}/g)].map((m) => m[1]).sort();

const locales = Object.fromEntries(LANGUAGES.map((lng) => [lng, loadLocale(lng)]));

/** `ns:dotted.key` → value, grammatical forms folded (see `FORMS`). */
function flatten(lng) {
  const out = new Map();
  for (const [ns, tree] of Object.entries(locales[lng])) {
    for (const key of leafKeys(tree)) {
      if (!key) continue;
      let node = tree;
      for (const part of key.split('.')) node = node[part];
      // A key's forms are compared by its `other` form (it holds every placeholder), whatever
      // order the file lists them in.
      const base = `${ns}:${key.replace(FORMS, '')}`;
      if (!out.has(base) || key.endsWith('_other')) out.set(base, node);
    }
  }
  return out;
}

describe('translations', () => {
  const flat = Object.fromEntries(LANGUAGES.map((lng) => [lng, flatten(lng)]));

  test('both languages have the same namespaces', () => {
    assert.deepEqual(Object.keys(locales.ar).sort(), Object.keys(locales.en).sort());
  });

  test('every key exists in both languages with a non-empty text and the same placeholders', () => {
    const problems = [];
    for (const [lng, other] of [
      ['ar', 'en'],
      ['en', 'ar'],
    ]) {
      for (const [key, value] of flat[lng]) {
        if (typeof value !== 'string' || !value.trim()) problems.push(`${lng} ${key}: empty or not text`);
        if (!flat[other].has(key)) problems.push(`${other} is missing ${key}`);
        else if (lng === 'ar' && typeof value === 'string') {
          const a = placeholders(value).join(',');
          const e = placeholders(String(flat.en.get(key))).join(',');
          if (a !== e) problems.push(`${key}: placeholders differ (ar {{${a}}} / en {{${e}}})`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  test('Arabic texts are Arabic (no English left untranslated in ar)', () => {
    // A value identical in both languages and made of Latin letters was most likely never translated.
    const suspicious = [...flat.ar]
      .map(([key, v]) => [key, v, typeof v === 'string' ? v.replace(/{{[^}]*}}/g, '') : v])
      .filter(
        ([, , bare]) => typeof bare === 'string' && /[A-Za-z]{3}/.test(bare) && !/[\u0600-\u06FF]/.test(bare),
      )
      .filter(([key, v]) => flat.en.get(key) === v)
      // Brand names, formats and units are the same in both languages on purpose.
      .filter(
        ([, v]) =>
          !/^(Mizan|CSV|XLSX|PDF|Excel|Email|URL|HEX|RTL|LTR|[A-Z0-9/.:_ -]+)$/i.test(v) || / /.test(v),
      )
      .map(([key, v]) => `${key}: ${v}`);
    assert.deepEqual(suspicious, []);
  });

  test('every entity title, field label and enum value of the contracts is translated', () => {
    const require = createRequire(CONTRACTS_DIST);
    const { registry, MENU, isMenuGroup } = require(CONTRACTS_DIST);
    const needed = [];
    for (const entity of registry) {
      needed.push(`entities:${entity.name}.title`);
      for (const [field, def] of Object.entries(entity.fields)) {
        needed.push(`entities:${entity.name}.fields.${field}`);
        if (def.type === 'enum')
          for (const v of def.values) needed.push(`entities:${entity.name}.values.${field}.${v}`);
      }
    }
    // The host labels menu groups `menu:groups.<key>` and items `menu:items.<key>`.
    for (const entry of MENU) {
      if (isMenuGroup(entry)) {
        needed.push(`menu:groups.${entry.key}`);
        for (const item of entry.items) needed.push(`menu:items.${item.key}`);
      } else needed.push(`menu:items.${entry.key}`);
    }
    const missing = LANGUAGES.flatMap((lng) =>
      needed.filter((k) => lookup(lng, k) === undefined).map((k) => `${lng} ${k}`),
    );
    assert.deepEqual(missing, []);
  });

  test('every validation message the contracts produce is translated', () => {
    const source = fs.readFileSync(path.join(ROOT, 'shared', 'contracts', 'src', 'schema.ts'), 'utf8');
    const keys = new Set([...source.matchAll(/'(validation\.[a-zA-Z.]+[a-zA-Z])'/g)].map((m) => m[1]));
    for (const kind of source.matchAll(/typeError\('(\w+)'\)/g)) keys.add(`validation.types.${kind[1]}`);
    assert.ok(keys.size > 5, 'found the validation keys in contracts');
    const missing = LANGUAGES.flatMap((lng) =>
      [...keys].filter((k) => lookup(lng, k) === undefined).map((k) => `${lng} ${k}`),
    );
    assert.deepEqual(missing, []);
  });

  test('every namespaced key literal in the built bundles exists in both languages', () => {
    const dirs = [
      HOST_DIST,
      ...fs.readdirSync(REMOTES_DIR).map((r) => path.join(REMOTES_DIR, r, 'dist')),
    ].filter((d) => fs.existsSync(d));
    assert.ok(dirs.includes(HOST_DIST), `host build present at ${HOST_DIST}`);
    const namespaces = Object.keys(locales.en);
    // `t('menu:places')` / `i18nKey="auth:login.title"`: the namespace is written, so the key can be checked.
    const literal = new RegExp(
      `["'\`](${namespaces.join('|')}):([a-zA-Z][\\w]*(?:\\.[a-zA-Z][\\w]*)*)["'\`]`,
      'g',
    );
    const missing = new Set();
    let seen = 0;
    for (const dir of dirs) {
      for (const file of fs.readdirSync(dir, { recursive: true })) {
        if (!String(file).endsWith('.js')) continue;
        const code = fs.readFileSync(path.join(dir, String(file)), 'utf8');
        for (const m of code.matchAll(literal)) {
          seen++;
          for (const lng of LANGUAGES) {
            const key = `${m[1]}:${m[2]}`;
            const hit = lookup(lng, key) ?? lookup(lng, `${key}_other`) ?? lookup(lng, `${key}_one`);
            // A key may name a subtree (returnObjects) rather than a text; that is fine if it exists.
            const subtree = m[2]
              .split('.')
              .reduce((n, p) => (n && typeof n === 'object' ? n[p] : undefined), locales[lng][m[1]]);
            if (hit === undefined && (subtree === undefined || typeof subtree !== 'object'))
              missing.add(`${lng} ${key} (${path.relative(ROOT, path.join(dir, String(file)))})`);
          }
        }
      }
    }
    assert.deepEqual([...missing], [], `${seen} key literals checked`);
  });
});
