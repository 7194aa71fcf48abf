// The PostgreSQL half of paymentSplit.test.ts, in a file of its own so that Jest runs it beside the
// SQLite file (see `splitDialects` in test/harness.ts).
if (process.env.MIZAN_TEST_PG_URL) {
  process.env.MIZAN_TEST_DIALECT = 'postgres';
  require('./paymentSplit.test');
} else {
  it.skip('a payment split by invoice between lawsuits on postgres: runs when MIZAN_TEST_PG_URL is set', () =>
    undefined);
}
