// The PostgreSQL half of previousRelease.test.ts, in a file of its own so that Jest runs it beside
// the SQLite half (see `splitDialects` in test/harness.ts).
if (process.env.MIZAN_TEST_PG_URL) {
  process.env.MIZAN_TEST_DIALECT = 'postgres';
  require('./previousRelease.test');
} else {
  it.skip('the previous release on postgres: runs when MIZAN_TEST_PG_URL is set', () => undefined);
}
