// Names and development ports of the remotes. Production never uses these URLs: the host reads
// `/remotes.json` (name → manifest URL) served by the server or by the deployment (deploy/).

/** @type {Record<string, number>} */
const DEV_PORTS = { settings: 3001, clients: 3002, legal: 3003, tasks: 3004, chat: 3005 };

/** `/remotes.json` for the host's dev server: MIZAN_REMOTES (JSON) or each remote's dev server. */
function devRemotesManifest() {
  if (process.env.MIZAN_REMOTES) return JSON.parse(process.env.MIZAN_REMOTES);
  return Object.fromEntries(
    Object.entries(DEV_PORTS).map(([name, port]) => [name, `http://localhost:${port}/mf-manifest.json`]),
  );
}

module.exports = { DEV_PORTS, devRemotesManifest };
