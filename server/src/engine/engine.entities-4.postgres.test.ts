// The PostgreSQL half of shard 4 of the registry-wide engine tests, in a file of its own so that
// Jest runs it beside the SQLite half (see `splitDialects` and `shardOf` in test/harness.ts).
if (process.env.MIZAN_TEST_PG_URL) {
  process.env.MIZAN_TEST_DIALECT = 'postgres';
  process.env.MIZAN_TEST_SHARD = '4';
  require('./engine.entities.test');
} else {
  it.skip('entity engine shard 4 on postgres: runs when MIZAN_TEST_PG_URL is set', () => undefined);
}
