import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '../http/errors';
import { DiskFileStore } from './storage';

describe('DiskFileStore', () => {
  let dir: string;
  let store: DiskFileStore;
  const rule = { accept: ['image/svg+xml', 'image/png'], maxSize: 64 * 1024 };
  const meta = { field: 'files', filename: 'drawing.svg', mimetype: 'image/svg+xml' };
  const svg = (body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-store-'));
    store = new DiskFileStore(dir);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores a safe SVG by its content type', async () => {
    const saved = await store.save(Readable.from([svg('<circle r="4"/>')]), meta, rule);
    expect(saved.mimeType).toBe('image/svg+xml');
    // Temporary until the row naming it commits.
    expect(fs.readdirSync(store.dir)).toEqual([`${saved.storedName}.part`]);
    await store.commit(saved.storedName);
    expect(fs.readdirSync(store.dir)).toEqual([saved.storedName]);
    await store.commit(saved.storedName); // twice (a sweep got there first): no error
    expect(fs.readFileSync(store.pathOf(saved.storedName)).toString()).toContain('circle');
  });

  it('sweeps what a killed process left: completes committed rows, removes orphans, spares young uploads', async () => {
    const name = (n: number) => n.toString(16).padStart(32, '0');
    const write = (file: string, ageMs: number) => {
      fs.writeFileSync(path.join(store.dir, file), 'x');
      const at = new Date(Date.now() - ageMs);
      fs.utimesSync(path.join(store.dir, file), at, at);
    };
    const hour = 3_600_000;
    write(`${name(1)}.part`, 0); // row committed, rename not done: completed
    write(`${name(2)}.part`, 2 * hour); // no row, old: removed
    write(`${name(3)}.part`, 60_000); // no row, young (a live upload): kept
    write(name(4), 0); // final, row deleted, file left: removed at any age
    write(name(5), 0); // final with its row: kept
    write('README', 2 * hour); // not ours: left alone
    const asked: string[][] = [];
    const rows = new Set([name(1), name(5)]);
    const result = await store.sweep(async (names) => {
      asked.push(names);
      return new Set(names.filter((n) => rows.has(n)));
    }, hour);
    expect(result).toEqual({ completed: 1, removed: 2 });
    expect(fs.readdirSync(store.dir).sort()).toEqual([name(1), `${name(3)}.part`, name(5), 'README'].sort());
    expect(asked.flat().sort()).toEqual([1, 2, 3, 4, 5].map(name));
  });

  it('refuses an SVG that could run code (415) and leaves nothing on disk', async () => {
    const unsafe = svg('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>');
    const error = await store.save(Readable.from([unsafe]), meta, rule).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(415);
    expect(fs.readdirSync(store.dir)).toEqual([]);
  });
});
