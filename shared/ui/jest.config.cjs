const preset = require('../../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  antd: true,
  setup: ['<rootDir>/src/test/setup.ts'],
});

module.exports = {
  ...preset,
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    '^@fingerprintjs/fingerprintjs$': '<rootDir>/src/test/fingerprintStub.cjs',
  },
};
