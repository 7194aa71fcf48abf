import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DailyFileDestination } from './dailyFile';

describe('DailyFileDestination', () => {
  it('appends to the file of the current date and opens a new one when the date changes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-log-'));
    let day = '2026-11-21';
    const sut = new DailyFileDestination(dir, 'combined', () => day);
    sut.write('{"a":1}\n');
    sut.write('{"a":2}\n');
    day = '2026-11-22';
    sut.write('{"a":3}\n');
    sut.close();
    expect(fs.readFileSync(path.join(dir, '2026-11-21-combined.log'), 'utf8')).toBe('{"a":1}\n{"a":2}\n');
    expect(fs.readFileSync(path.join(dir, '2026-11-22-combined.log'), 'utf8')).toBe('{"a":3}\n');
    // Reopening appends instead of truncating (a restart on the same day).
    const again = new DailyFileDestination(dir, 'combined', () => day);
    again.write('{"a":4}\n');
    again.close();
    expect(fs.readFileSync(path.join(dir, '2026-11-22-combined.log'), 'utf8')).toBe('{"a":3}\n{"a":4}\n');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes its directory again when it was removed, and never throws for a line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-log-'));
    const logs = path.join(dir, 'logs');
    const sut = new DailyFileDestination(logs, 'combined', () => '2026-11-21');
    sut.write('{"a":1}\n');
    fs.rmSync(logs, { recursive: true, force: true });
    // A new day's file in a directory that is gone: made again on the next line.
    const next = new DailyFileDestination(logs, 'combined', () => '2026-11-22');
    fs.rmSync(logs, { recursive: true, force: true });
    expect(() => next.write('{"a":2}\n')).not.toThrow();
    expect(fs.readFileSync(path.join(logs, '2026-11-22-combined.log'), 'utf8')).toBe('{"a":2}\n');
    sut.close();
    next.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
