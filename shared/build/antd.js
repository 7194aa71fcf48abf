// antd shared per component (issue 14). Shared as one `antd` singleton, the whole library (about
// 450 KB gzip) reached the login page, which needs a form, an input and a button. Instead every
// `import { Button } from 'antd'` is rewritten at compile time to `antd/es/button`
// (@swc/plugin-transform-imports), and each component the workspace uses is its own singleton
// share key. The host provides every one of them (an absolute `import` path is provided whether or
// not the host imports it), so a remote's Table comes from the host's build: the same antd modules,
// hence the same ConfigProvider context (theme, direction, locale) as the host's page.
const fs = require('node:fs');
const path = require('node:path');

const WORKSPACE = path.join(__dirname, '..', '..');

/** Where front-end sources live: every one of them is scanned, so the list is never kept by hand. */
const SOURCE_DIRS = [
  'host/src',
  'shared/ui/src',
  'shared/sdk/src',
  'shared/build/src',
  ...fs.readdirSync(path.join(WORKSPACE, 'remotes')).map((name) => `remotes/${name}/src`),
];

/** `import { A, B as C, type D } from 'antd'` (type-only imports are erased by the compiler). */
const ANTD_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]antd['"]/g;

/** The same kebab-case the SWC plugin applies: `QRCode` → `qr-code`, `InputNumber` → `input-number`. */
const kebabCase = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

function sourceFiles(dir, found = []) {
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(file, found);
    else if (/\.[jt]sx?$/.test(entry.name) && !/\.test\.[jt]sx?$/.test(entry.name)) found.push(file);
  }
  return found;
}

/** antd value exports named in `source`'s `import { … } from 'antd'` statements. */
function importedNames(source) {
  const names = [];
  for (const [, typeOnly, members] of source.matchAll(ANTD_IMPORT)) {
    if (typeOnly) continue;
    for (const member of members.split(',').map((m) => m.trim())) {
      if (member && !member.startsWith('type ')) names.push(member.split(/\s+as\s+/)[0].trim());
    }
  }
  return names;
}

/** `antd/es/<dir>` of every antd export the workspace imports, sorted; throws on an unknown one. */
function antdComponents() {
  const esDir = path.join(path.dirname(require.resolve('antd/package.json')), 'es');
  const dirs = new Set();
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(path.join(WORKSPACE, dir))) {
      for (const name of importedNames(fs.readFileSync(file, 'utf8'))) {
        const component = kebabCase(name);
        if (!fs.existsSync(path.join(esDir, component)))
          throw new Error(`${path.relative(WORKSPACE, file)}: antd has no es/${component} for "${name}"`);
        dirs.add(component);
      }
    }
  }
  return [...dirs].sort();
}

/**
 * One singleton share key per component, provided from an absolute path (see the top). The
 * version is antd's: webpack cannot infer one for an absolute path and would provide "0".
 */
function antdSharedModules() {
  const { version } = require('antd/package.json');
  /** @type {Record<string, object>} */
  const shared = {};
  for (const component of antdComponents()) {
    const key = `antd/es/${component}`;
    shared[key] = { singleton: true, import: require.resolve(key), shareKey: key, version };
  }
  return shared;
}

/** swc-loader's `jsc.experimental.plugins` entry rewriting `antd` imports per component. */
const antdImportsPlugin = () => [
  require.resolve('@swc/plugin-transform-imports'),
  { antd: { transform: 'antd/es/{{ kebabCase member }}' } },
];

module.exports = { antdComponents, antdSharedModules, antdImportsPlugin, importedNames, kebabCase };
