// The workspace's front-end sources, for the checks and lists the build derives from them (antd's
// components in antd.js, react-router-dom's exports in router.js): scanned, never kept by hand.
const fs = require('node:fs');
const path = require('node:path');

const WORKSPACE = path.join(__dirname, '..', '..');

/** Where front-end sources live: every one of them is scanned. */
const SOURCE_DIRS = [
  'host/src',
  'shared/ui/src',
  'shared/sdk/src',
  'shared/build/src',
  ...fs.readdirSync(path.join(WORKSPACE, 'remotes')).map((name) => `remotes/${name}/src`),
];

function sourceFiles(dir, found = []) {
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(file, found);
    else if (/\.[jt]sx?$/.test(entry.name) && !/\.test\.[jt]sx?$/.test(entry.name)) found.push(file);
  }
  return found;
}

/**
 * Every front-end source file (tests left out: they never reach a page), with its text.
 *
 * @returns {{ file: string, source: string }[]} `file` relative to the workspace
 */
function workspaceSources() {
  return SOURCE_DIRS.flatMap((dir) =>
    sourceFiles(path.join(WORKSPACE, dir)).map((file) => ({
      file: path.relative(WORKSPACE, file),
      source: fs.readFileSync(file, 'utf8'),
    })),
  );
}

module.exports = { SOURCE_DIRS, WORKSPACE, workspaceSources };
