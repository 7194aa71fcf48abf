const preset = require('../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  antd: true,
  setup: ['<rootDir>/src/test/setup.ts'],
});

module.exports = {
  ...preset,
  testEnvironment: '<rootDir>/src/test/environment.cjs',
};
