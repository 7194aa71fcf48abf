module.exports = require('../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  setup: ['<rootDir>/src/test/setup.ts'],
});
