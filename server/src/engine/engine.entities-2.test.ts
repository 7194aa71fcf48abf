// Shard 2 of the registry-wide engine tests (see engine.entities.test.ts).
process.env.MIZAN_TEST_SHARD = '2';
require('./engine.entities.test');
