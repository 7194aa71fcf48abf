// The chat remote's logic and screens: jsdom with antd, over a real test HTTP server and a stand-in socket.
module.exports = require('../../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  antd: true,
  fixedDevice: true,
  setup: ['<rootDir>/src/test/setup.ts'],
});
