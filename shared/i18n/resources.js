// Plain-data entry (no React, no i18next): the server reads validation messages and field labels
// from the same JSON the client uses.
const LANGUAGES = ['ar', 'en'];
const NAMESPACES = [
  'common',
  'validation',
  'errors',
  'entities',
  'ui',
  'auth',
  'layout',
  'menu',
  'dashboard',
  'settings',
  'clients',
  'legal',
  'notifications',
  'tasks',
  'chat',
  // The server's messages, one namespace per area: `auth.tokenInvalid` is `server-auth:tokenInvalid`.
  'server-http',
  'server-ws',
  'server-auth',
  'server-people',
  'server-import',
  'server-system',
  'server-clients',
  'server-legal',
  'server-notifications',
  'server-dashboard',
  'server-tasks',
  'server-chat',
  'server-documents',
];

const resources = {};
for (const lng of LANGUAGES) {
  resources[lng] = {};
  for (const ns of NAMESPACES) resources[lng][ns] = require(`./src/locales/${lng}/${ns}.json`);
}

module.exports = { resources, LANGUAGES, NAMESPACES };
