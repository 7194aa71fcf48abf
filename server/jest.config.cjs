const path = require('node:path');

const preset = require('../jest.preset.cjs')({ dir: __dirname, env: 'node' });

module.exports = {
  ...preset,
  // kysely 0.29 ships ESM only: let swc turn it into CommonJS for Jest's module system.
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/)?(kysely|content-disposition|cookie|set-cookie-parser|toad-cache|jotai|@tanstack|reconnecting-websocket))',
  ],
  moduleNameMapper: {
    // The plain-data resources entry sits at the package root, not under src/ (first match wins).
    '^@mizan/i18n/resources$': path.join(__dirname, '..', 'shared', 'i18n', 'resources.js'),
    ...preset.moduleNameMapper,
  },
};
