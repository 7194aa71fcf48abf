// Lint for the whole workspace, with the import boundaries of docs/architecture.md:
// contracts import nothing of ours, the server no front-end code, a remote never another remote;
// no import cycles anywhere, and no server layer imports from a layer above it (server/layers.json).
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

const REMOTES = ['settings', 'clients', 'legal', 'tasks', 'chat'];
const FRONT_END = [
  '@mizan/sdk',
  '@mizan/ui',
  'react',
  'react-dom',
  'antd',
  'react-router-dom',
  'jotai',
  'react-i18next',
];

/**
 * One block per server layer (server/layers.json, lowest first): its files may not import a value
 * from a folder of a higher layer. Type-only imports are allowed (they vanish at run time).
 */
function serverLayers() {
  const { layers } = JSON.parse(fs.readFileSync(new URL('./server/layers.json', import.meta.url), 'utf8'));
  const globs = (folders) => folders.flatMap((f) => [`server/src/${f}/**`, `server/src/${f}.ts`]);
  return layers.slice(0, -1).map((layer, i) => {
    const above = layers.slice(i + 1);
    return {
      files: globs(layer.folders),
      ignores: ['**/*.test.ts', '**/testing/**'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            // A path that climbs up to a higher layer's folder of server/src (`../engine/x`,
            // `../../messages`), not a file of the same name beside the importer (`./messages`).
            patterns: above.map((higher) => ({
              regex: `^(\\.\\./)+(${higher.folders.join('|')})(/|$)`,
              message: `the server's ${layer.name} layer imports no value from the ${higher.name} layer above it (server/layers.json, docs/architecture.md): move the shared piece down or have the app inject it`,
              allowTypeImports: true,
            })),
          },
        ],
      },
    };
  });
}

/**
 * Comments say what they mean, or point into docs/: a comment citing a document outside the
 * repository (the team's design, style or toolchain notes, sections of the product spec) or an
 * issue number fails, since a reader of the code has neither.
 */
const OUTSIDE_REFERENCE =
  /\bDESIGN(?:\.md)?\b|\b(?:STYLE|TOOLCHAIN)\.md\b|\b[Ss]eed\s*§|§\s*\d|\b[Ii]ssues?\s+#?\d+|\bS(?!3\b)\d+\b|\(S3\)|\bS3's\b/;
const mizan = {
  rules: {
    'no-outside-references': {
      meta: {
        type: 'suggestion',
        messages: {
          cite: 'This comment cites "{{text}}", outside the repository: say what it means, or point into docs/.',
        },
        schema: [],
      },
      create(context) {
        return {
          Program() {
            for (const comment of context.sourceCode.getAllComments()) {
              const found = OUTSIDE_REFERENCE.exec(comment.value);
              if (found) context.report({ loc: comment.loc, messageId: 'cite', data: { text: found[0] } });
            }
          },
        };
      },
    },
  },
};

const restrict = (group, message, regex) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [{ group, message }, ...(regex ? [{ regex, message }] : [])] },
  ],
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'data/**',
      'e2e/artifacts/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    // Cycles through value imports (type-only imports vanish at run time and are allowed).
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads only these files when following imports: without TypeScript it sees no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
          // Workspace packages resolve to their TypeScript sources, as tsc and Jest do.
          conditionNames: ['mizan:source', 'types', 'import', 'require', 'node', 'default'],
        }),
      ],
    },
    // Our own files only: following imports into node_modules finds no cycle of ours and was nine
    // tenths of the lint's time.
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { mizan },
    rules: { 'mizan/no-outside-references': 'error' },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['shared/contracts/**'],
    rules: restrict(['@mizan/*'], 'contracts import nothing of ours'),
  },
  {
    files: ['server/**'],
    rules: restrict(
      [...FRONT_END, '@mizan/remote-*', '@mizan/host'],
      'the server imports no front-end code (only @mizan/contracts and @mizan/i18n/resources)',
      '^@mizan/i18n(?!/resources$)',
    ),
  },
  ...serverLayers(),
  {
    files: ['shared/sdk/**'],
    rules: restrict(['@mizan/ui', 'antd', '@mizan/remote-*'], 'the SDK stays UI-free'),
  },
  ...REMOTES.map((name) => ({
    files: [`remotes/${name}/**`],
    rules: restrict(
      [
        ...REMOTES.filter((r) => r !== name).flatMap((r) => [`@mizan/remote-${r}`, `**/remotes/${r}/**`]),
        '@mizan/host',
        '**/host/src/**',
      ],
      'a remote never imports another remote or the host',
    ),
  })),
  {
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'e2e/**',
      'scripts/**',
      'bench/**',
      '**/*.cjs',
      '**/*.mjs',
      '**/webpack.config.js',
    ],
    rules: { 'no-console': 'off' },
  },
);
