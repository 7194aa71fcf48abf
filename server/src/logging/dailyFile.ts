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

  write(line: string): boolean {
    const day = this.today();
    if (day !== this.day || this.fd === null) {
      this.close();
      this.fd = fs.openSync(this.fileFor(day), 'a');
      this.day = day;
    }
    fs.writeSync(this.fd, line);
    return true;
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}
