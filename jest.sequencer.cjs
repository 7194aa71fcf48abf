// Jest's order, longest first (failed first, then by the last run's times, then by file size when
// no time is known, as Jest's own), except that a suite's `.postgres.test.ts` twin (a few lines that
// load the suite: see `splitDialects` in server/src/test/harness.ts) weighs as much as the suite.
// Without it a fresh run (CI) would start the PostgreSQL halves of the longest suites last.
const fs = require('node:fs');
const path = require('node:path');

const fromJest = (name, base) => require.resolve(name, { paths: [path.dirname(base)] });
const core = fromJest('@jest/core/package.json', require.resolve('jest/package.json'));
const Sequencer = require(fromJest('@jest/test-sequencer', core)).default;

const TWIN = /\.postgres\.test\.ts$/;

class TwinAwareSequencer extends Sequencer {
  sort(tests) {
    const sizes = new Map();
    const size = (test) => {
      const file = test.path.replace(TWIN, '.test.ts');
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
