import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { employees } from '@mizan/contracts';
import { createDatabase } from '../db';
import { entityUrl } from '../test/fixtures';
import { dialects, freshDatabase, TEST_ADMIN } from '../test/harness';

/** The production server as `npm start` runs it (`tsc -b` builds it before the tests run). */
const SERVER_MAIN = path.join(__dirname, '..', '..', 'dist', 'main.js');
const UPLOAD = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024, 0x20)]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  base: string;
  exited: Promise<void>;
}

async function start(dataDir: string, databaseUrl: string): Promise<Running> {
  if (!fs.existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run tsc -b first`);
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      MIZAN_ADMIN_EMAIL: TEST_ADMIN.email,
      MIZAN_ADMIN_PASSWORD: TEST_ADMIN.password,
      MIZAN_LOGIN_LIMIT_PER_IP: '1000',
      MIZAN_LOG_STDOUT: 'false',
      MIZAN_SCHEDULER_POLL_SECONDS: '0',
      // Nothing else writes to this folder: every unfinished upload at start is a dead process's.
      MIZAN_FILE_ORPHAN_GRACE_SECONDS: '0',
    },
    stdio: 'ignore',
  });
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      gone = true;
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ;) {
    if (gone) throw new Error('the server exited during its start');
    if (Date.now() > deadline) throw new Error('the server did not start within 60 s');
    const ok = await fetch(`${base}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { child, base, exited };
    await sleep(100);
  }
}

async function signIn(base: string): Promise<Record<string, string>> {
  const fingerprint = { 'x-fingerprint-session': 'crash-test', 'x-fingerprint': 'crash-test-device' };
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { ...fingerprint, 'content-type': 'application/json' },
    body: JSON.stringify({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  const { data } = (await res.json()) as { data: { token: string } };
  return { ...fingerprint, authorization: `Bearer ${data.token}` };
}

describe.each(dialects())('uploads killed with SIGKILL on %s', (dialect) => {
  it('keeps every acknowledged upload with its row and leaves no orphan after the next start', async () => {
    const database = await freshDatabase(dialect, 'mizan-crash-');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-crash-data-'));
    const acknowledged: { id: number; size: number }[] = [];
    let seq = 0;
    let server: Running | null = null;
    try {
      for (let round = 0; round < 2; round++) {
        const running = await start(dataDir, database.url);
        server = running;
        const headers = await signIn(running.base);
        let killed = false;
        const ackedBefore = acknowledged.length;
        const worker = async () => {
          while (!killed) {
            const n = ++seq;
            const body = new FormData();
            body.append('name', `موظف ${n}`);
            body.append('email', `crash${n}@mizan.test`);
            body.append('username', `crash${n}`);
            body.append('password', 'Crash-pass-2026');
            body.append('files', new Blob([UPLOAD], { type: 'application/pdf' }), `file-${n}.pdf`);
            try {
              const res = await fetch(`${running.base}${entityUrl(employees)}`, {
                method: 'POST',
                headers,
                body,
              });
              if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
              const { data } = (await res.json()) as { data: { id: number; files: { size: number }[] } };
              expect(data.files).toHaveLength(1);
              acknowledged.push({ id: data.id, size: data.files[0]!.size });
            } catch (error) {
              // Only the kill may cut a request short.
              if (!killed) throw error;
            }
          }
        };
        const workers = Array.from({ length: 6 }, worker);
        // Kill while the six are busy: some acknowledged, others mid-body or mid-transaction.
        while (acknowledged.length < ackedBefore + 4 + round * 3) await sleep(5);
        await sleep(Math.random() * 40);
        killed = true;
        running.child.kill('SIGKILL');
        await running.exited;
        await Promise.all(workers);
        server = null;
      }
      // The next start sweeps before it serves.
      const last = await start(dataDir, database.url);
      server = last;
      last.child.kill('SIGTERM');
      await last.exited;
      server = null;

      const db = createDatabase(database.url);
      // Every stored file: the uploads, and the starter templates the first start stored.
      const rows = await db.db
        .selectFrom('files')
        .select(['entity', 'owner_id', 'stored_name', 'size'])
        .execute()
        .finally(() => db.destroy());
      const onDisk = fs.readdirSync(path.join(dataDir, 'files')).sort();
      // Every row has its file, every file its row, nothing temporary is left.
      expect(onDisk).toEqual(rows.map((r) => String(r.stored_name)).sort());
      for (const row of rows)
        expect(fs.statSync(path.join(dataDir, 'files', String(row.stored_name))).size).toBe(Number(row.size));
      const byOwner = new Map(
        rows.filter((r) => r.entity === 'employees').map((r) => [Number(r.owner_id), Number(r.size)]),
      );
      expect(acknowledged.length).toBeGreaterThanOrEqual(4 + 7);
      for (const { id, size } of acknowledged) expect([id, byOwner.get(id)]).toEqual([id, size]);
      expect(acknowledged[0]!.size).toBe(UPLOAD.length);
    } finally {
      if (server) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
