// The legal remote's screens render with antd in jsdom over a real test HTTP server.
const preset = require('../../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  antd: true,
  fixedDevice: true,
  setup: ['<rootDir>/src/test/setup.ts'],
});

module.exports = {
  ...preset,
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    // FullCalendar renders with preact, whose "browser" export (jsdom's condition) is ESM: its CommonJS build.
    ...Object.fromEntries(
      ['preact', 'preact/compat', 'preact/hooks'].map((m) => [
        `^${m}$`,
        require.resolve(m, { paths: [require.resolve('@fullcalendar/core', { paths: [__dirname] })] }),
      ]),
    ),
  },
};
