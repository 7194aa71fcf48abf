import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '../config';
import { registerStatic } from './index';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const RELEASE = path.join(ROOT, 'scripts', 'release.mjs');
const CHUNK = 'src_TaskList_tsx.0123abcdef.js';

/** A remote build as webpack writes it, with its own version declaration and one hashed chunk. */
function fakeBuild(parent: string, version: string): string {
  const dir = path.join(parent, `build-${version}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify({ id: 'tasks', version }));
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `var tasks = "${version}"`);
  fs.writeFileSync(
    path.join(dir, 'mizan-remote.json'),
    JSON.stringify({ name: 'tasks', version, shared: {} }),
  );
  fs.writeFileSync(path.join(dir, CHUNK), `/* chunk of ${version} */`);
  fs.writeFileSync(path.join(dir, `${CHUNK}.br`), zlib.brotliCompressSync(`/* chunk of ${version} */`));
  return dir;
}

/** Every file of a tree with its hash: the host's build must come out of a release untouched. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return files;
}

describe('npm run release -- <remote>', () => {
  let app: FastifyInstance;
  let work: string;
  let hostDist: string;

  const release = (...args: string[]) =>
    spawnSync(process.execPath, [RELEASE, ...args], {
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: app.config.dataDir, MIZAN_RELEASES_DIR: '' },
    });
  const get = (url: string) => app.inject({ method: 'GET', url });
  const currentTasks = async () => ((await get('/remotes.json')).json() as Record<string, string>).tasks;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-release-'));
    const staticDir = path.join(work, 'static');
    hostDist = path.join(staticDir, 'host', 'dist');
    fs.mkdirSync(hostDist, { recursive: true });
    fs.writeFileSync(path.join(hostDist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(hostDist, 'main.js'), 'console.log("host")');
    // The static layer alone: a release must work on any running server, whatever its modules.
    app = Fastify();
    app.decorate('config', loadConfig({ DATA_DIR: path.join(work, 'data'), MIZAN_STATIC_DIR: staticDir }));
    await registerStatic(app);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('serves a released build at a new URL from the running server, then rolls back', async () => {
    const hostBefore = snapshot(hostDist);
    expect(await currentTasks()).toBe('/remotes/tasks/mf-manifest.json');

    const first = release('tasks', '--dist', fakeBuild(work, '0.1.0-20261123100000'));
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(await currentTasks()).toBe('/releases/tasks/0.1.0-20261123100000/mf-manifest.json');

    expect(release('tasks', '--dist', fakeBuild(work, '0.1.0-20261123110000')).status).toBe(0);
    expect(await currentTasks()).toBe('/releases/tasks/0.1.0-20261123110000/mf-manifest.json');
    const entry = await get('/releases/tasks/0.1.0-20261123110000/remoteEntry.js');
    expect(entry.body).toBe('var tasks = "0.1.0-20261123110000"');
    expect(entry.headers['cache-control']).toBe('no-cache');
    // A page opened before the release still finds the chunks it was built with.
    const oldChunk = await get(`/releases/tasks/0.1.0-20261123100000/${CHUNK}`);
    expect(oldChunk.statusCode).toBe(200);
    expect(oldChunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const compressed = await app.inject({
      method: 'GET',
      url: `/releases/tasks/0.1.0-20261123110000/${CHUNK}`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const back = release('tasks', '--rollback');
    expect(back.status).toBe(0);
    expect(back.stdout).toContain('back to 0.1.0-20261123100000');
    expect(await currentTasks()).toBe('/releases/tasks/0.1.0-20261123100000/mf-manifest.json');

    const none = release('tasks', '--rollback');
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no previous release');
    expect(await currentTasks()).toBe('/releases/tasks/0.1.0-20261123100000/mf-manifest.json');

    const remotes = (await get('/remotes.json')).json() as Record<string, string>;
    expect(remotes.settings).toBe('/remotes/settings/mf-manifest.json');
    expect(snapshot(hostDist)).toEqual(hostBefore);
  });

  it('refuses what is not a build of that remote, and changes nothing', async () => {
    const before = await currentTasks();
    const broken = path.join(work, 'broken');
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, 'remoteEntry.js'), 'var x');
    const result = release('tasks', '--dist', broken);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('no mf-manifest.json');

    const other = fakeBuild(work, '0.2.0-1');
    fs.writeFileSync(
      path.join(other, 'mizan-remote.json'),
      JSON.stringify({ name: 'chat', version: '0.2.0-1' }),
    );
    expect(release('tasks', '--dist', other).stderr).toContain('a build of chat, not tasks');
    expect(release('nosuch').stderr).toContain('no remote "nosuch"');
    expect(await currentTasks()).toBe(before);
  });

  it('serves only version folders, never the state file', async () => {
    expect((await get('/releases/tasks/release.json')).statusCode).toBe(404);
    expect((await get('/releases/tasks/0.1.0-20261123100000/../release.json')).statusCode).toBe(404);
  });
});
