import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearStamp, hashInputs, isCurrent, writeStamp } from '../stamps';

/** A small tree like an app's: sources, a config, an output folder and installed packages. */
function tree(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-stamps-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('app/src/index.ts', 'export const a = 1;\n');
  write('app/src/page.tsx', 'export const Page = () => null;\n');
  write('app/webpack.config.js', 'module.exports = {};\n');
  write('app/dist/main.js', 'built');
  write('app/node_modules/lib/index.js', 'lib');
  write('app/tsconfig.tsbuildinfo', '{}');
  write('shared/ui/src/button.tsx', 'export const Button = 1;\n');
  write('pnpm-lock.yaml', 'lockfileVersion: 9\n');
  return dir;
}

describe('build stamps', () => {
  let dir: string;
  const inputs = ['app', 'shared', 'pnpm-lock.yaml'];
  const hash = (extra?: Record<string, string | undefined>) => hashInputs(dir, inputs, extra);
  beforeEach(() => {
    dir = tree();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the same hash for the same contents, whatever the files’ times', () => {
    const before = hash();
    const file = path.join(dir, 'app/src/index.ts');
    fs.utimesSync(file, new Date(2030, 0, 1), new Date(2030, 0, 1));
    fs.writeFileSync(file, fs.readFileSync(file));
    expect(hash()).toBe(before);
  });

  it.each([
    ['a source changed (one file of a pull)', 'app/src/index.ts', 'export const a = 2;\n'],
    ['a shared package changed', 'shared/ui/src/button.tsx', 'export const Button = 2;\n'],
    ['the lockfile changed', 'pnpm-lock.yaml', 'lockfileVersion: 10\n'],
    ['a file was added', 'app/src/new.ts', ''],
  ])('changes when %s', (_what, file, text) => {
    const before = hash();
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
    expect(hash()).not.toBe(before);
  });

  it('changes when a file is removed or renamed', () => {
    const before = hash();
    fs.renameSync(path.join(dir, 'app/src/page.tsx'), path.join(dir, 'app/src/page2.tsx'));
    const renamed = hash();
    expect(renamed).not.toBe(before);
    fs.rmSync(path.join(dir, 'app/src/page2.tsx'));
    expect(hash()).not.toBe(renamed);
  });

  it('does not read outputs, installed packages, build info or the caches a build leaves', () => {
    const before = hash();
    fs.writeFileSync(path.join(dir, 'app/dist/main.js'), 'built again');
    fs.writeFileSync(path.join(dir, 'app/node_modules/lib/index.js'), 'lib 2');
    fs.writeFileSync(path.join(dir, 'app/tsconfig.tsbuildinfo'), '{"x":1}');
    // swc-loader's plugin cache, made by the first build of a fresh clone.
    fs.mkdirSync(path.join(dir, 'app/.swc/plugins'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'app/.swc/plugins/cache.wasmer'), 'compiled plugin');
    expect(hash()).toBe(before);
  });

  it('changes with the settings that change the output', () => {
    expect(hash({ MIZAN_SOURCE_MAPS: '1' })).not.toBe(hash({ MIZAN_SOURCE_MAPS: undefined }));
    expect(hash({ MIZAN_SOURCE_MAPS: undefined })).toBe(hash({ MIZAN_SOURCE_MAPS: undefined }));
  });

  it('is current only with the same hash, the stamp present and every output there', () => {
    const stamp = path.join(dir, 'app/dist/.mizan-build-stamp');
    const output = path.join(dir, 'app/dist/main.js');
    const h = hash();
    expect(isCurrent(stamp, h, [output])).toBe(false);
    writeStamp(stamp, h);
    expect(isCurrent(stamp, h, [output])).toBe(true);
    expect(isCurrent(stamp, hash({ MIZAN_SOURCE_MAPS: '1' }), [output])).toBe(false);
    expect(isCurrent(stamp, h, [output, path.join(dir, 'app/dist/missing.js')])).toBe(false);
    // Outputs wiped (webpack empties dist when it builds): the stamp goes with them.
    fs.rmSync(path.join(dir, 'app/dist'), { recursive: true });
    expect(isCurrent(stamp, h, [output])).toBe(false);
    writeStamp(stamp, h);
    clearStamp(stamp);
    expect(isCurrent(stamp, h)).toBe(false);
  });
});
