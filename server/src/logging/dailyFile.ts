import fs from 'node:fs';
import path from 'node:path';

/**
 * A pino destination writing to `<dir>/YYYY-MM-DD-<suffix>.log`, opening a new file when the
 * (UTC) date changes. Writes are synchronous so a line is on disk when the request completes
 * (the log screens and the tests read these files directly).
 */
export class DailyFileDestination {
  private fd: number | null = null;
  private day = '';

  constructor(
    private readonly dir: string,
    private readonly suffix: 'combined' | 'error',
    private readonly today: () => string = () => new Date().toISOString().slice(0, 10),
  ) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Path of the file for `day` (`YYYY-MM-DD`). */
  fileFor(day: string): string {
    return path.join(this.dir, `${day}-${this.suffix}.log`);
  }

  /**
   * Appends `line`. A log line never takes the process down: when the directory was removed it is
   * made again, and when the file still cannot be written the line goes to standard error.
   */
  write(line: string): boolean {
    try {
      this.append(line);
    } catch {
      try {
        this.close();
        fs.mkdirSync(this.dir, { recursive: true });
        this.append(line);
      } catch {
        process.stderr.write(line);
      }
    }
    return true;
  }

  private append(line: string): void {
    const day = this.today();
    if (day !== this.day || this.fd === null) {
      this.close();
      this.fd = fs.openSync(this.fileFor(day), 'a');
      this.day = day;
    }
    fs.writeSync(this.fd, line);
  }

  close(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed with its directory: nothing left to flush.
      }
    }
  }
}
