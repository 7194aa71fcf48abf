const preset = require('../../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  setup: ['<rootDir>/src/test/setup.ts'],
});

module.exports = {
  ...preset,
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    '^@fingerprintjs/fingerprintjs$': '<rootDir>/src/test/fingerprintStub.cjs',
  },
  // antd's icons load @ant-design/colors, published as ESM only: let it (and the preset's
  // ESM-only packages) through the transform as well.
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/)?(jotai|@tanstack|reconnecting-websocket|@ant-design\\+colors|@ant-design/colors))',
  ],
};
