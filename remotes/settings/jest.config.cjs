module.exports = require('../../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  antd: true,
  setup: ['<rootDir>/src/test/setup.ts'],
});
