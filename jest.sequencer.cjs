// Jest's order, longest first: failed first, then by the last run's times (Jest's cache on this
// machine, else the times recorded in jest.durations.json, so that a fresh clone (CI) starts its
// longest suites first too), then by file size when no time is known, as Jest's own, except that a
// file that only loads another suite weighs as much as that suite: a `.postgres.test.ts` twin (see
// `splitDialects` in server/src/test/harness.ts) or a shard of a long suite (`shardOf`).
// `node scripts/jestDurations.mjs <jest --json output>` records a run's times.
const fs = require('node:fs');
const path = require('node:path');

const fromJest = (name, base) => require.resolve(name, { paths: [path.dirname(base)] });
const core = fromJest('@jest/core/package.json', require.resolve('jest/package.json'));
const Sequencer = require(fromJest('@jest/test-sequencer', core)).default;

/** The suite a loader file requires (`require('./engine.entities.test')`). */
const LOADS = /require\('(\.{1,2}\/[^']+)'\)/;
const LOADER_MAX_BYTES = 2_000;

const ROOT = __dirname;
/** Seconds per test file (relative to the root) of a recorded run. */
function recordedDurations() {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'jest.durations.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** The file whose size stands for `file`'s: the suite it loads, or itself. */
function weighed(file) {
  try {
    if (fs.statSync(file).size > LOADER_MAX_BYTES) return file;
    const loaded = LOADS.exec(fs.readFileSync(file, 'utf8'));
    if (!loaded) return file;
    const suite = path.resolve(path.dirname(file), loaded[1]);
    return ['.ts', '.tsx', '.js'].map((ext) => suite + ext).find((f) => fs.existsSync(f)) ?? file;
  } catch {
    return file;
  }
}

class TwinAwareSequencer extends Sequencer {
  sort(tests) {
    const sizes = new Map();
    const size = (test) => {
      const file = weighed(test.path);
      if (!sizes.has(file)) {
        let bytes = test.context.hasteFS.getSize(file);
        if (bytes == null) bytes = fs.existsSync(file) ? fs.statSync(file).size : 0;
        sizes.set(file, bytes);
      }
      return sizes.get(file);
    };
    const recorded = recordedDurations();
    for (const test of tests) {
      const seconds = recorded[path.relative(ROOT, test.path).split(path.sep).join('/')];
      test.duration = this.time(test) ?? (seconds == null ? undefined : seconds * 1000);
    }
    return tests.sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      const timedA = a.duration != null;
      if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
      if (timedA) return b.duration - a.duration;
      return size(b) - size(a);
    });
  }
}

module.exports = TwinAwareSequencer;
