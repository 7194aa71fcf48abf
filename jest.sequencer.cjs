// Jest's order, longest first (failed first, then by the last run's times, then by file size when
// no time is known, as Jest's own), except that a file that only loads another suite weighs as
// much as that suite: a `.postgres.test.ts` twin (see `splitDialects` in server/src/test/harness.ts)
// or a shard of a long suite (`shardOf`). Without it a fresh run (CI) would start the PostgreSQL
// halves and the shards of the longest suites last.
const fs = require('node:fs');
const path = require('node:path');

const fromJest = (name, base) => require.resolve(name, { paths: [path.dirname(base)] });
const core = fromJest('@jest/core/package.json', require.resolve('jest/package.json'));
const Sequencer = require(fromJest('@jest/test-sequencer', core)).default;

/** The suite a loader file requires (`require('./engine.entities.test')`). */
const LOADS = /require\('(\.{1,2}\/[^']+)'\)/;
const LOADER_MAX_BYTES = 2_000;

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
    for (const test of tests) test.duration = this.time(test);
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
