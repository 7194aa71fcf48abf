const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { antdSharedModules } = require('./antd');
const { routerSharedModule } = require('./router');

// Modules shared between the host and the remotes. Singletons give the page exactly one
// React, one router, one antd, one auth state, one HTTP client, one WebSocket and one query cache.

/** Third-party libraries that hold state or context and must exist once in the page. */
const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-dom',
  'react-dom/client',
  'react-router-dom',
  'antd',
  'jotai',
  'jotai/utils',
  'i18next',
  'react-i18next',
  '@tanstack/react-query',
  'dayjs',
];

// Not shared: @ant-design/icons. Shared, it ships all ~800 icons (1 MB raw, 200 KB gzip) to the
// login page; unshared, each app bundles only the icons it imports. Icons hold no state that must
// be single (IconContext defaults are what Mizan uses).

/** Workspace packages compiled from source; `workspace:*` is not semver, so no version check. */
const WORKSPACE_SINGLETONS = ['@mizan/sdk', '@mizan/i18n'];

/**
 * Stateless workspace code, shared only to avoid downloading it twice. Not singletons: a remote
 * released on its own with newer definitions or screen pieces must run its own copy, not the host's.
 */
const WORKSPACE_SHARED = ['@mizan/contracts', '@mizan/ui'];

/** `shared/<dir>` of a `@mizan/<dir>` package. */
const workspaceDir = (key) => path.join(__dirname, '..', key.slice('@mizan/'.length));

/**
 * `<package version>-h<hash of its sources>`: two builds share a copy only when compiled from the
 * same sources, whatever the package.json says (nobody bumps it for a new definition).
 */
function sourceVersion(key) {
  const dir = workspaceDir(key);
  const hash = crypto.createHash('sha256');
  const walk = (d) => {
    for (const entry of fs
      .readdirSync(d, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(d, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (!/\.test\.tsx?$/.test(entry.name))
        hash.update(file.slice(dir.length)).update(fs.readFileSync(file));
    }
  };
  walk(path.join(dir, 'src'));
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return `${version}-h${hash.digest('hex').slice(0, 12)}`;
}

function sharedModules() {
  /** @type {Record<string, object>} */
  const shared = {};
  for (const key of SINGLETONS) shared[key] = { singleton: true };
  for (const key of WORKSPACE_SINGLETONS) shared[key] = { singleton: true, requiredVersion: false };
  for (const key of WORKSPACE_SHARED) {
    const version = sourceVersion(key);
    shared[key] = { version, requiredVersion: `=${version}` };
  }
  Object.assign(shared, antdSharedModules(), routerSharedModule());
  return shared;
}

module.exports = { sharedModules, sourceVersion, SINGLETONS, WORKSPACE_SINGLETONS, WORKSPACE_SHARED };
