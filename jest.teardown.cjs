// Once every test file has run: removes the template databases of this run's workers
// (server/src/test/harness.ts, `templateOf`: named `mizan_test_template_<run>_<worker>`), since
// Jest ends its workers without their exit handlers, and those of workers that are gone. Another
// Jest run on the same machine keeps its own.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');

const PREFIX = 'mizan_test_template_';
const NAME = /^mizan_test_template_(\d+)_(\d+)/;

function removable(name) {
  const [, run, worker] = NAME.exec(name) ?? [];
  // This run's: made by its workers, or by itself when it ran the tests in band.
  if (Number(run) === process.pid || Number(worker) === process.pid) return true;
  try {
    process.kill(Number(worker), 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH';
  }
}

module.exports = async function removeTestTemplates() {
  for (const name of fs.readdirSync(os.tmpdir()))
    if (name.startsWith(PREFIX) && removable(name))
      fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  const url = process.env.MIZAN_TEST_PG_URL;
  if (!url) return;
  const { Client } = createRequire(path.join(__dirname, 'server', 'package.json'))('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('select datname from pg_database where datname like $1', [
      `${PREFIX}%`,
    ]);
    for (const { datname } of rows)
      if (removable(datname)) await client.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await client.end();
  }
};
