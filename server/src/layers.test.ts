import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import layerFile from '../layers.json';

/**
 * The server's layers (server/layers.json, lowest first): a file imports values from its own layer
 * and those below only. ESLint checks the same table as code is written (eslint.config.mjs); this
 * test reads every source file with TypeScript's parser, so re-exports and multi-line imports count.
 */
const SRC = __dirname;
const { layers, testSupport } = layerFile as {
  layers: { name: string; folders: string[] }[];
  testSupport: string[];
};
const levelOf = new Map(layers.flatMap((l, i) => l.folders.map((f) => [f, i] as const)));

/** The top-level folder (or file, without `.ts`) of server/src that `file` belongs to. */
const topOf = (file: string) => path.relative(SRC, file).split(path.sep)[0].replace(/\.ts$/, '');

const isTestFile = (file: string) =>
  /\.test\.ts$/.test(file) || file.split(path.sep).includes('testing') || testSupport.includes(topOf(file));

/** Relative modules `source` imports values from (type-only imports and exports left out). */
export function valueImports(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const node of sf.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause &&
        !clause.name &&
        bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) out.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      const clause = node.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly)) continue;
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out.filter((m) => m.startsWith('.'));
}

/** Every import of `file` (contents `source`) that reaches a layer above the file's own. */
export function wrongWay(file: string, source: string): string[] {
  const own = levelOf.get(topOf(file));
  if (own === undefined) return [];
  return valueImports(file, source).flatMap((specifier) => {
    const target = topOf(path.resolve(path.dirname(file), specifier));
    const level = levelOf.get(target);
    return level !== undefined && level > own
      ? [`${path.relative(SRC, file)} (${layers[own].name}) imports ${specifier} (${layers[level].name})`]
      : [];
  });
}

const sources = (fs.readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => path.join(SRC, f))
  .filter((f) => !isTestFile(f));

describe('server layers', () => {
  it('puts every folder of server/src in exactly one layer', () => {
    const listed = [...layers.flatMap((l) => l.folders), ...testSupport];
    expect(new Set(listed).size).toBe(listed.length);
    const tops = fs
      .readdirSync(SRC)
      .filter((name) => !name.endsWith('.test.ts'))
      .map((name) => name.replace(/\.ts$/, ''));
    expect(tops.filter((t) => !listed.includes(t))).toEqual([]);
  });

  it('has no value import from a lower layer to a higher one', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.flatMap((file) => wrongWay(file, fs.readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('finds a wrong-way import, and lets type-only ones through', () => {
    const file = path.join(SRC, 'files', 'example.ts');
    const source = [
      "import { pathId } from '../engine/plugin';",
      "import type { EntityService } from '../engine/service';",
      "import { type AuthUser } from '../auth/types';",
      "import { AppError } from '../http/errors';",
      "export { readSettings } from '../system/settings/repository';",
      "export type { Versions } from '../db/counts';",
    ].join('\n');
    expect(wrongWay(file, source)).toEqual([
      'files/example.ts (kernel) imports ../engine/plugin (engine)',
      'files/example.ts (kernel) imports ../system/settings/repository (modules)',
    ]);
    expect(wrongWay(path.join(SRC, 'legal', 'example.ts'), source)).toEqual([]);
  });
});
