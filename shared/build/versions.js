// What a build declares about itself, so that a remote released on its own can be checked by the
// host before it runs: the remote's release version and the versions of the shared singletons
// (and @mizan/sdk) it was compiled against. Written beside `mf-manifest.json` as `mizan-remote.json`.
const fs = require('node:fs');
const path = require('node:path');
const { SINGLETONS, WORKSPACE_SINGLETONS } = require('./shared');

/** File name of the declaration next to a remote's `mf-manifest.json`. */
const REMOTE_INFO_FILE = 'mizan-remote.json';

/** `react/jsx-runtime` → `react`, `@tanstack/react-query` stays whole. */
function packageOf(key) {
  const parts = key.split('/');
  return key.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The installed version of a package as seen from `dir`. Packages whose `exports` hide
 * `package.json` are found from their entry file upwards.
 */
function installedVersion(name, dir) {
  let file;
  try {
    file = require.resolve(`${name}/package.json`, { paths: [dir] });
  } catch {
    file = require.resolve(name, { paths: [dir] });
    for (let d = path.dirname(file); d !== path.dirname(d); d = path.dirname(d)) {
      const candidate = path.join(d, 'package.json');
      if (fs.existsSync(candidate) && JSON.parse(fs.readFileSync(candidate, 'utf8')).name === name) {
        file = candidate;
        break;
      }
    }
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

/** Version of every shared singleton package (keys deduplicated to packages) as built from `dir`. */
function sharedVersions(dir) {
  const names = [...new Set([...SINGLETONS, ...WORKSPACE_SINGLETONS].map(packageOf))].sort();
  return Object.fromEntries(names.map((name) => [name, installedVersion(name, dir)]));
}

/**
 * The declaration of one build. `MIZAN_RELEASE_VERSION` is set by `npm run release`; a plain build
 * is its package's version.
 *
 * @returns {{ name: string, version: string, builtAt: string, shared: Record<string, string> }}
 */
function buildInfo(name, dir) {
  const own = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  return {
    name,
    version: process.env.MIZAN_RELEASE_VERSION || own,
    builtAt: new Date().toISOString(),
    shared: sharedVersions(dir),
  };
}

/** webpack plugin: emits the declaration as an asset of the build. */
class RemoteInfoPlugin {
  constructor(info) {
    this.info = info;
  }

  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap('MizanRemoteInfo', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'MizanRemoteInfo', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () =>
          compilation.emitAsset(REMOTE_INFO_FILE, new RawSource(`${JSON.stringify(this.info, null, 2)}\n`)),
      );
    });
  }
}

module.exports = { REMOTE_INFO_FILE, buildInfo, sharedVersions, installedVersion, RemoteInfoPlugin };
