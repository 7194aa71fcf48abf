// Records each test file's time from a Jest JSON report into jest.durations.json, which
// jest.sequencer.cjs reads to start the longest suites first on a machine without Jest's cache
// (a fresh clone, CI):
//   node_modules/.bin/jest --json --outputFile=/tmp/jest.json && node scripts/jestDurations.mjs /tmp/jest.json
// Only the order matters: times taken on a busier machine serve as well.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const report = process.argv[2];
if (!report) {
  console.error('usage: node scripts/jestDurations.mjs <jest --json output file>');
  process.exit(2);
}
const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8'));
const file = path.join(root, 'jest.durations.json');
const durations = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
for (const result of testResults) {
  const seconds = (result.endTime - result.startTime) / 1000;
  if (seconds > 0)
    durations[path.relative(root, result.name).split(path.sep).join('/')] = Math.round(seconds * 10) / 10;
}
// Files that no longer exist are dropped.
const kept = Object.fromEntries(
  Object.entries(durations)
    .filter(([name]) => fs.existsSync(path.join(root, name)))
    .sort(([a], [b]) => a.localeCompare(b)),
);
fs.writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`);
console.log(`${Object.keys(kept).length} test files' times written to jest.durations.json`);
