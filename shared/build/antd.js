// antd shared per component. Shared as one `antd` singleton, the whole library (about
// 450 KB gzip) reached the login page, which needs a form, an input and a button. Instead every
// `import { Button } from 'antd'` is rewritten at compile time to `antd/es/button`
// (@swc/plugin-transform-imports), and each component the workspace uses is its own singleton
// share key. The host provides every one of them (an absolute `import` path is provided whether or
// not the host imports it), so a remote's Table comes from the host's build: the same antd modules,
// hence the same ConfigProvider context (theme, direction, locale) as the host's page.
const fs = require('node:fs');
const path = require('node:path');
const { workspaceSources } = require('./sources');

/** `import { A, B as C, type D } from 'antd'` (type-only imports are erased by the compiler). */
const ANTD_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]antd['"]/g;

/** The same kebab-case the SWC plugin applies: `QRCode` → `qr-code`, `InputNumber` → `input-number`. */
const kebabCase = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

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
  for (const { file, source } of workspaceSources()) {
    for (const name of importedNames(source)) {
      const component = kebabCase(name);
      if (!fs.existsSync(path.join(esDir, component)))
        throw new Error(`${file}: antd has no es/${component} for "${name}"`);
      dirs.add(component);
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

/** What antd's Button and Tag styles import from the colour picker's presets panel, for `isBright`. */
const PRESETS_REQUEST = '../../color-picker/components/ColorPresets';
const PRESETS_IMPORTERS = /[\\/]antd[\\/]es[\\/](button|tag)[\\/]style[\\/]/;

/**
 * Keeps the colour picker off pages that only show buttons (the login page). A shared
 * component's exports all count as used, so the whole ColorPicker (Collapse, the rc colour picker)
 * followed Button's style, which imports one function from it:
 * - those two imports get ./src/antdIsBright.js, the same function alone;
 * - `@rc-component/color-picker` is declared free of side effects (it is: components and a colour
 *   class), so importing its `Color` class no longer brings its ColorPicker component.
 *
 * @param {typeof import('webpack')} webpack
 */
function antdLeanImports(webpack) {
  return {
    rules: [{ test: /[\\/]@rc-component[\\/]color-picker[\\/]/, sideEffects: false }],
    plugins: [
      new webpack.NormalModuleReplacementPlugin(
        /color-picker[\\/]components[\\/]ColorPresets$/,
        (resource) => {
          if (
            resource.request === PRESETS_REQUEST &&
            PRESETS_IMPORTERS.test(resource.contextInfo?.issuer ?? '')
          )
            resource.request = path.join(__dirname, 'src', 'antdIsBright.js');
        },
      ),
    ],
  };
}

/**
 * The small pieces nearly every antd control needs (the icon base, the default locale antd's
 * ConfigProvider reads, class-name joining, compact spacing, size and disabled contexts, semantic
 * class hooks, the colour class of Button's style, the resize observer, the loading and clear
 * icons): below splitChunks' minimum size, each was copied into every component's chunk, five
 * times on the login page. Paths under node_modules (or this package's ./src).
 */
const ANTD_COMMON_PATHS = [
  '@ant-design/icons/es/components/',
  '@ant-design/icons/es/utils',
  '@ant-design/icons/es/renderUtils',
  '@ant-design/icons/es/cssUtils',
  '@ant-design/icons/es/icons/LoadingOutlined',
  '@ant-design/icons/es/icons/CloseCircleFilled',
  '@ant-design/icons-svg/es/asn/LoadingOutlined',
  '@ant-design/icons-svg/es/asn/CloseCircleFilled',
  'clsx/',
  'antd/es/locale/',
  'antd/es/date-picker/locale/',
  'antd/es/time-picker/locale/',
  'antd/es/calendar/locale/',
  '@rc-component/picker/es/locale/',
  '@rc-component/pagination/es/locale/',
  'antd/es/space/Compact',
  'antd/es/space/style/compact',
  'antd/es/style/compact-item',
  'antd/es/_util/hooks/useMergeSemantic/',
  'antd/es/_util/hooks/useOrientation',
  'antd/es/_util/reactNode',
  'antd/es/_util/warning',
  'antd/es/color-picker/color',
  '@rc-component/color-picker/es/color',
  'antd/es/config-provider/hooks/useSize',
  'antd/es/config-provider/DisabledContext',
  'antd/es/config-provider/SizeContext',
  '@rc-component/resize-observer/',
  'antdIsBright',
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\//g, '[\\\\/]');

/** Modules of ANTD_COMMON_PATHS (pnpm's `.pnpm/<name>@<version>/node_modules/` layout included). */
const ANTD_COMMON = new RegExp(
  `[\\\\/](node_modules|src)[\\\\/](${ANTD_COMMON_PATHS.map(escape).join('|')})`,
);

/** swc-loader's `jsc.experimental.plugins` entry rewriting `antd` imports per component. */
const antdImportsPlugin = () => [
  require.resolve('@swc/plugin-transform-imports'),
  { antd: { transform: 'antd/es/{{ kebabCase member }}' } },
];

module.exports = {
  ANTD_COMMON,
  PRESETS_REQUEST,
  antdComponents,
  antdLeanImports,
  antdSharedModules,
  antdImportsPlugin,
  importedNames,
  kebabCase,
};
