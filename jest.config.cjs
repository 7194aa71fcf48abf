// One `jest` run covers every package that has a jest.config.cjs.
const fs = require('node:fs');
const path = require('node:path');

const dirs = [
  'server',
  'host',
  ...['shared', 'remotes'].flatMap((d) => fs.readdirSync(d).map((n) => path.join(d, n))),
];

module.exports = {
  // With several projects Jest takes the timeout from here, not from each project's config.
  testTimeout: 60_000,
  globalTeardown: '<rootDir>/jest.teardown.cjs',
  // Longest first, a suite's PostgreSQL twin weighing as the suite (jest.sequencer.cjs).
  testSequencer: '<rootDir>/jest.sequencer.cjs',
  projects: dirs.filter((d) => fs.existsSync(path.join(d, 'jest.config.cjs'))).map((d) => `<rootDir>/${d}`),
};
