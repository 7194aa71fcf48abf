const path = require('node:path');

const preset = require('../jest.preset.cjs')({ dir: __dirname, env: 'node' });

module.exports = {
  ...preset,
  // kysely 0.29 (and sanitize-html's htmlparser2 12 with its dom packages) ship ESM only: let swc
  // turn them into CommonJS for Jest's module system.
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/)?(kysely|content-disposition|cookie|set-cookie-parser|toad-cache|jotai|@tanstack|reconnecting-websocket|htmlparser2|domhandler|domutils|dom-serializer|domelementtype|entities))',
  ],
  moduleNameMapper: {
    // A module loaded when first needed is imported as it is compiled (`import('./template.js')`):
    // here it is the TypeScript source.
    '^(\\.{1,2}/.+)\\.js$': '$1',
    // The plain-data resources entry sits at the package root, not under src/ (first match wins).
    '^@mizan/i18n/resources$': path.join(__dirname, '..', 'shared', 'i18n', 'resources.js'),
    ...preset.moduleNameMapper,
  },
};
