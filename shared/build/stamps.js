// Up-to-date checks for `npm start`, `npm run build` and `npm test`: a step's inputs are hashed
// (paths and contents, never modification times, so a `git pull` or a checkout that touches one
// file is seen and one that touches none is not), and the hash is written to a stamp file beside
// the step's output once the step has succeeded. The next run skips the step while the hash
// matches the stamp.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/**
 * Folders never read as inputs: outputs, installed packages, caches, version control. `.swc` is the
 * cache swc-loader's plugins write beside the app during its first build: read as an input, it
 * made the second build after a fresh clone rebuild every app.
 */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', '.cache', '.swc', 'test-results']);
const SKIPPED_FILES = /\.tsbuildinfo$/;

/** Every file under `entry` (itself when it is a file), sorted, skipping outputs and caches. */
function filesUnder(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return [];
  }
  if (stat.isFile()) return SKIPPED_FILES.test(entry) ? [] : [entry];
  if (!stat.isDirectory()) return [];
  return fs
    .readdirSync(entry, { withFileTypes: true })
    .filter((d) => !(d.isDirectory() && SKIPPED_DIRS.has(d.name)))
    .map((d) => d.name)
    .sort()
    .flatMap((name) => filesUnder(path.join(entry, name)));
}

/**
 * One SHA-256 over the relative path and contents of every file under `inputs` (files or folders,
 * relative to `root`) and over `extra` (settings that change the output, e.g. environment
 * variables). A missing input counts as absent, so creating it changes the hash.
 *
 * @param {string} root
 * @param {string[]} inputs
 * @param {Record<string, string | undefined>} [extra]
 * @returns {string}
 */
function hashInputs(root, inputs, extra = {}) {
  const hash = crypto.createHash('sha256');
  for (const input of [...inputs].sort())
    for (const file of filesUnder(path.resolve(root, input))) {
      hash.update(`${path.relative(root, file)}\0`);
      hash.update(fs.readFileSync(file));
      hash.update('\0');
    }
  for (const key of Object.keys(extra).sort()) hash.update(`${key}=${extra[key] ?? ''}\0`);
  return hash.digest('hex');
}

/** Whether `stampFile` holds `hash` and every one of `outputs` exists. */
function isCurrent(stampFile, hash, outputs = []) {
  try {
    if (fs.readFileSync(stampFile, 'utf8').trim() !== hash) return false;
  } catch {
    return false;
  }
  return outputs.every((output) => fs.existsSync(output));
}

/** Records that the step whose inputs hash to `hash` succeeded. */
function writeStamp(stampFile, hash) {
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, `${hash}\n`);
}

/** Forgets a step's success (before running it again, so a failed run is never taken as current). */
function clearStamp(stampFile) {
  fs.rmSync(stampFile, { force: true });
}

module.exports = { hashInputs, isCurrent, writeStamp, clearStamp, filesUnder };
