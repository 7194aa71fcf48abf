// Reads the same ar/en resources the application uses, so that specs find elements by the text a
// person reads, without copying that text here.
import fs from 'node:fs';
import path from 'node:path';
import { LOCALES_DIR } from './paths.mjs';

export const LANGUAGES = ['ar', 'en'];

/** @returns {Record<string, Record<string, unknown>>} namespace → JSON tree */
export function loadLocale(lng) {
  const dir = path.join(LOCALES_DIR, lng);
  const out = {};
  for (const file of fs.readdirSync(dir)) {
    if (file.endsWith('.json'))
      out[file.slice(0, -5)] = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  }
  return out;
}

const cache = new Map();
const locale = (lng) => {
  if (!cache.has(lng)) cache.set(lng, loadLocale(lng));
  return cache.get(lng);
};

/** Leaf paths of a JSON tree, as dotted keys. */
export function leafKeys(tree, prefix = '') {
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

/** Looks up `ns:some.key`; returns undefined when missing. */
export function lookup(lng, key) {
  const [ns, rest] = key.includes(':')
    ? key.split(':', 2)
    : [key.split('.')[0], key.split('.').slice(1).join('.')];
  let node = locale(lng)[ns];
  for (const part of rest.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * The translation of `ns:some.key` in `lng`, interpolated like i18next (`{{name}}`). Throws when
 * the key is missing, so that a spec fails on the missing text rather than on a vague timeout.
 * `{{name, number}}` writes a number in the language's digits, as the app does.
 * With a numeric `count`, the plural form the language's rules choose (`key_two`, `key_few`, ...).
 */
export function t(lng, key, vars = {}) {
  // Plural forms as i18next picks them: by the language's plural rules for `count`.
  const plural = typeof vars.count === 'number' ? new Intl.PluralRules(lng).select(vars.count) : undefined;
  const value =
    (plural !== undefined
      ? lookup(lng, `${key}_${vars.count === 0 && lookup(lng, `${key}_zero`) ? 'zero' : plural}`)
      : undefined) ??
    lookup(lng, key) ??
    lookup(lng, `${key}_other`) ??
    lookup(lng, `${key}_one`);
  if (value === undefined) throw new Error(`Missing translation ${lng} ${key}`);
  // `{{count, number}}`: the number in the language's digits, as the app's formatter writes it.
  return value.replace(/{{\s*(\w+)\s*(,\s*number\s*)?}}/g, (_, name, number) =>
    number && typeof vars[name] === 'number'
      ? new Intl.NumberFormat(lng === 'ar' ? 'ar-EG' : 'en').format(vars[name])
      : String(vars[name] ?? ''),
  );
}

/**
 * A RegExp matching the translation as a whole accessible name: spaces trimmed, and an antd icon's
 * own label (`plus`, `search`, ...) allowed before the text, as the icon sits inside the button.
 */
export function tx(lng, key, vars) {
  return new RegExp(`^\\s*(?:[a-z][a-z-]*\\s+)?${escapeRegExp(t(lng, key, vars))}\\s*$`);
}

export function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
