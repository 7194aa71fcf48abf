// The PostgreSQL half of backup.test.ts's backup under writes, in a file of its own so that Jest
// runs it beside the SQLite file (see `splitDialects` in test/harness.ts).
if (process.env.MIZAN_TEST_PG_URL) {
  process.env.MIZAN_TEST_DIALECT = 'postgres';
  require('./backup.test');
} else {
  it.skip('a backup while the office writes, on postgres: runs when MIZAN_TEST_PG_URL is set', () =>
    undefined);
}
