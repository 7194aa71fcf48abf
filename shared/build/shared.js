// Modules shared between the host and the remotes (DESIGN §6). Singletons give the page exactly one
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

/** Stateless workspace code shared only to avoid downloading it twice. */
const WORKSPACE_SHARED = ['@mizan/contracts', '@mizan/ui'];

function sharedModules() {
  /** @type {Record<string, object>} */
  const shared = {};
  for (const key of SINGLETONS) shared[key] = { singleton: true };
  for (const key of WORKSPACE_SINGLETONS) shared[key] = { singleton: true, requiredVersion: false };
  for (const key of WORKSPACE_SHARED) shared[key] = { requiredVersion: false };
  return shared;
}

module.exports = { sharedModules, SINGLETONS, WORKSPACE_SINGLETONS, WORKSPACE_SHARED };
