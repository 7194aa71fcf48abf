const preset = require('../jest.preset.cjs')({
  dir: __dirname,
  env: 'jsdom',
  antd: true,
  setup: ['<rootDir>/src/test/setup.ts'],
});

module.exports = {
  ...preset,
  testEnvironment: '<rootDir>/src/test/environment.cjs',
  // ECharts and its renderer ship as ES modules only (the dashboard's charts).
  transformIgnorePatterns: preset.transformIgnorePatterns.map((p) =>
    p.replace('(jotai|', '(echarts|zrender|jotai|'),
  ),
};
