import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '../http/errors';
import { FileStore } from './storage';

describe('FileStore', () => {
  let dir: string;
  let store: FileStore;
  const rule = { accept: ['image/svg+xml', 'image/png'], maxSize: 64 * 1024 };
  const meta = { field: 'files', filename: 'drawing.svg', mimetype: 'image/svg+xml' };
  const svg = (body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-store-'));
    store = new FileStore(dir);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores a safe SVG by its content type', async () => {
    const saved = await store.save(Readable.from([svg('<circle r="4"/>')]), meta, rule);
    expect(saved.mimeType).toBe('image/svg+xml');
    expect(fs.readdirSync(store.dir)).toEqual([saved.storedName]);
  });

  it('refuses an SVG that could run code (415) and leaves nothing on disk', async () => {
    const unsafe = svg('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>');
    const error = await store.save(Readable.from([unsafe]), meta, rule).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(415);
    expect(fs.readdirSync(store.dir)).toEqual([]);
  });
});
