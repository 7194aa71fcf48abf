import fs from 'node:fs';
import path from 'node:path';
import { GLOSSARY, type Concept } from './glossary';
import { LANGUAGES, resources, type Language, type Namespace } from '../resources';

type Tree = { [key: string]: string | Tree };

/** The text at `ns:a.b.c`, or undefined. */
function lookup(lng: Language, key: string): string | undefined {
  const [ns, rest] = key.split(':') as [Namespace, string];
  let node: string | Tree | undefined = resources[lng][ns] as Tree | undefined;
  for (const part of rest.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`),
  );
}

/** Every text of every translation file on disk (also namespaces not registered yet). */
function everyText(lng: Language): [string, string][] {
  const dir = path.join(__dirname, 'locales', lng);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) =>
      leaves(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Tree).map(
        ([k, v]) => [`${f.replace(/\.json$/, '')}:${k}`, v] as [string, string],
      ),
    );
}

const concepts = Object.entries(GLOSSARY) as [string, Concept][];

describe('glossary', () => {
  describe.each(LANGUAGES)('%s', (lng) => {
    it.each(concepts)('%s: every use reads the chosen term', (_name, concept) => {
      for (const key of concept.uses) {
        const expected = key.endsWith('.singular') ? concept.one?.[lng] : concept.many[lng];
        expect({ key, text: lookup(lng, key) }).toEqual({ key, text: expected });
      }
    });

    it('no translation uses a word the glossary rejects', () => {
      const texts = everyText(lng);
      const found = concepts.flatMap(([name, c]) =>
        (c.avoid?.[lng] ?? []).flatMap((word) =>
          texts.filter(([, text]) => text.includes(word)).map(([key]) => `${name}: "${word}" in ${key}`),
        ),
      );
      expect(found).toEqual([]);
    });
  });

  it('Arabic templates hold a field label so that they agree with any field («label» or (label))', () => {
    // "{{label}} مطلوب" reads wrong for a feminine label ("القارة مطلوب"); quoted, the sentence's
    // own noun (الحقل، قيمة، طول) carries the agreement.
    const loose = everyText('ar').filter(
      ([, text]) => text.includes('{{label}}') && !/«\{\{label\}\}»|\(\{\{label\}\}\)/.test(text),
    );
    expect(loose.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });

  it('names every menu group and item', () => {
    const used = new Set(concepts.flatMap(([, c]) => c.uses));
    const menu = resources.en.menu as Tree;
    const keys = ['groups', 'items'].flatMap((part) =>
      Object.keys(menu[part] as Tree).map((k) => `menu:${part}.${k}`),
    );
    expect(keys.filter((k) => !used.has(k))).toEqual([]);
  });

  it('gives each concept one term: no two concepts share a word in either language', () => {
    for (const lng of LANGUAGES) {
      const seen = new Map<string, string>();
      for (const [name, c] of concepts) {
        const other = seen.get(c.many[lng]);
        expect({ name, clash: other }).toEqual({ name, clash: undefined });
        seen.set(c.many[lng], name);
      }
    }
  });
});
