// Shard 3 of the registry-wide engine tests (see engine.entities.test.ts).
process.env.MIZAN_TEST_SHARD = '3';
require('./engine.entities.test');
