// Shared Jest settings: each package's jest.config.cjs calls this with its environment.
const path = require('node:path');

const root = __dirname;

// Browser gaps every jsdom package needs, then antd's (for packages that render it): one copy each,
// listed before the package's own set-up. Test-only files, never imported by production code.
const jsdomSetup = [`${root}/shared/sdk/src/testing/setupJsdom.ts`];
const antdSetup = [`${root}/shared/ui/src/testing/setupAntd.ts`];

/**
 * `import { Button } from 'antd'` compiled to `antd/lib/button`, and an icon from
 * `@ant-design/icons` to its own module, as the webpack builds do (shared/build/antd.js): through
 * the barrels, every test file of a jsdom package loaded the whole of antd (every component, its
 * styles and rc- dependencies) and every one of the icons, about 5 CPU seconds per file before
 * its first test, again in each file (Jest gives each file its own module registry).
 */
const perModuleImports = [
  require.resolve('@swc/plugin-transform-imports', { paths: [`${root}/shared/build`] }),
  {
    antd: { transform: 'antd/lib/{{ kebabCase member }}' },
    '@ant-design/icons': { transform: '@ant-design/icons/lib/icons/{{ member }}' },
  },
];

/**
 * `fixedDevice`: a fixed device identity for packages whose screens sign in through the SDK (jsdom
 * has nothing to fingerprint and FingerprintJS would wait out its timeouts).
 *
 * @param {{ dir: string, env?: 'node' | 'jsdom', antd?: boolean, fixedDevice?: boolean, setup?: string[] }} options
 */
module.exports = function preset({ dir, env = 'node', antd = false, fixedDevice = false, setup = [] }) {
  return {
    displayName: path.relative(root, dir),
    rootDir: dir,
    testEnvironment: env,
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/src/**/*.test.tsx'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        require.resolve('@swc/jest'),
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
            target: 'es2022',
            ...(env === 'jsdom' ? { experimental: { plugins: [perModuleImports] } } : {}),
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    // Let ESM-only packages (jotai, antd icons' @ant-design/colors, ...) through pnpm's `.pnpm/` layout.
    transformIgnorePatterns: [
      '/node_modules/(?!(\\.pnpm/)?(jotai|@tanstack|reconnecting-websocket|@ant-design\\+colors|@ant-design/colors))',
    ],
    moduleNameMapper: {
      '^@mizan/(contracts|sdk|ui|i18n)$': `${root}/shared/$1/src/index.ts`,
      '^@mizan/(contracts|sdk|ui|i18n)/(.*)$': `${root}/shared/$1/src/$2`,
      '\\.(css|less)$': `${root}/shared/build/styleStub.js`,
      ...(fixedDevice
        ? { '^@fingerprintjs/fingerprintjs$': `${root}/shared/ui/src/test/fingerprintStub.cjs` }
        : {}),
    },
    setupFilesAfterEnv: [
      ...(env === 'jsdom' ? jsdomSetup : []),
      ...(env === 'jsdom' && antd ? antdSetup : []),
      ...setup,
    ],
    testTimeout: 30_000,
  };
};
