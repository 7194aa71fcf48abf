// Shared Jest settings: each package's jest.config.cjs calls this with its environment.
const path = require('node:path');

const root = __dirname;

/** @param {{ dir: string, env?: 'node' | 'jsdom', setup?: string[] }} options */
module.exports = function preset({ dir, env = 'node', setup = [] }) {
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
    },
    setupFilesAfterEnv: setup,
    testTimeout: 30_000,
  };
};
