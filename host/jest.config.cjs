const preset = require('../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  setup: ['<rootDir>/src/test/setup.ts'],
});

module.exports = {
  ...preset,
  testEnvironment: '<rootDir>/src/test/environment.cjs',
  // @ant-design/colors (under antd's icons) ships ESM only, like jotai: let it through the transform too.
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/)?(jotai|@tanstack|reconnecting-websocket|@ant-design\\+colors|@ant-design/colors))',
  ],
};
