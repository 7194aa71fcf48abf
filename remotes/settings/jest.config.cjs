const preset = require('../../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  setup: ['<rootDir>/src/test/setup.ts'],
});

module.exports = {
  ...preset,
  // antd's icons load @ant-design/colors, published as ESM only: let it through the transform too.
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/)?(jotai|@tanstack|reconnecting-websocket|@ant-design\\+colors|@ant-design/colors))',
  ],
};
