// The PostgreSQL half of share.test.ts, in a file of its own so that Jest runs it beside the
// SQLite file (see `splitDialects` in test/harness.ts).
if (process.env.MIZAN_TEST_PG_URL) {
  process.env.MIZAN_TEST_DIALECT = 'postgres';
  require('./share.test');
} else {
  it.skip('sharing an attachment on postgres: runs when MIZAN_TEST_PG_URL is set', () => undefined);
}
