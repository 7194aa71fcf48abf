// The clients remote's screens render with antd in jsdom over a real test HTTP server.
module.exports = require('../../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  antd: true,
  fixedDevice: true,
  setup: ['<rootDir>/src/test/setup.ts'],
});
