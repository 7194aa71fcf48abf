import fs from 'node:fs';
import path from 'node:path';
import { resources } from '@mizan/i18n';

type Tree = { [key: string]: string | Tree };

/** Dotted keys of a resource tree, plural suffixes folded (Arabic has six forms, English two). */
function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string'
      ? [`${prefix}${k}`.replace(/_(zero|one|two|few|many|other)$/, '')]
      : keys(v, `${prefix}${k}.`),
  );
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [file] : [];
  });
}

const ar = new Set(keys(resources.ar.settings as Tree));
const en = new Set(keys(resources.en.settings as Tree));

describe('settings translations', () => {
  it('Arabic and English hold the same keys', () => {
    expect([...ar].filter((k) => !en.has(k))).toEqual([]);
    expect([...en].filter((k) => !ar.has(k))).toEqual([]);
  });

  it('every literal settings key the screens use exists in both languages', () => {
    const used = new Set<string>();
    for (const file of sources(__dirname)) {
      const text = fs.readFileSync(file, 'utf8');
      // t('logs.title'), t('settings:logs.title'); template keys (`logs.levels.${v}`) are checked by prefix.
      for (const m of text.matchAll(/\bt\(\s*['`](?:settings:)?([a-zA-Z]+(?:\.[a-zA-Z0-9${}().]+)+)['`]/g)) {
        if (!m[1]!.includes(':')) used.add(m[1]!);
      }
    }
    const missing: string[] = [];
    for (const key of used) {
      if (key.includes('${')) {
        const prefix = key.slice(0, key.indexOf('${'));
        if (![...en].some((k) => k.startsWith(prefix)) || ![...ar].some((k) => k.startsWith(prefix)))
          missing.push(key);
      } else if (!en.has(key) || !ar.has(key)) missing.push(key);
    }
    expect(used.size).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
