import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * External programs the application uses when they are installed, and works without: LibreOffice
 * (PDF of generated documents), poppler (text of PDFs, pages as images) and tesseract (OCR). Each
 * is looked up on the PATH, or taken from its environment variable; a feature that needs a missing
 * tool says so (`ToolMissingError`, `toolStatus()` for the screens) and the rest keeps working.
 *
 * @example
 * const pdf = await runTool('soffice', ['--headless', '--convert-to', 'pdf', docx], { timeoutMs: 60_000 });
 */
export const TOOLS = {
  soffice: { env: 'MIZAN_SOFFICE', debian: 'libreoffice-writer-nogui' },
  pdftotext: { env: 'MIZAN_PDFTOTEXT', debian: 'poppler-utils' },
  pdftoppm: { env: 'MIZAN_PDFTOPPM', debian: 'poppler-utils' },
  pdfinfo: { env: 'MIZAN_PDFINFO', debian: 'poppler-utils' },
  tesseract: { env: 'MIZAN_TESSERACT', debian: 'tesseract-ocr tesseract-ocr-ara tesseract-ocr-eng' },
} as const;

export type ToolName = keyof typeof TOOLS;

/** Thrown when a feature needs a tool that is not installed; the message names the Debian package. */
export class ToolMissingError extends Error {
  constructor(readonly tool: ToolName) {
    super(
      `${tool} is not installed (Debian: apt-get install ${TOOLS[tool].debian}, or set ${TOOLS[tool].env})`,
    );
    this.name = 'ToolMissingError';
  }
}

/** Thrown when a tool ran but failed, or ran past its time limit. */
export class ToolFailedError extends Error {
  constructor(
    readonly tool: ToolName,
    readonly reason: 'exit' | 'timeout' | 'output',
    detail: string,
  ) {
    super(`${tool} failed (${reason}): ${detail}`);
    this.name = 'ToolFailedError';
  }
}

const found = new Map<ToolName, string | null>();

function lookup(command: string): string | null {
  if (command.includes('/')) return fs.existsSync(command) ? command : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** The tool's executable, or null when it is not installed. Looked up once per process. */
export function findTool(tool: ToolName): string | null {
  if (!found.has(tool)) found.set(tool, lookup(process.env[TOOLS[tool].env] || tool));
  return found.get(tool) ?? null;
}

/** Forgets what was looked up (tests that change the environment variables). */
export function forgetTools(): void {
  found.clear();
}

/** Which tools this instance has, for the screens that explain what is available. */
export function toolStatus(): Record<ToolName, boolean> {
  return Object.fromEntries(
    (Object.keys(TOOLS) as ToolName[]).map((t) => [t, findTool(t) !== null]),
  ) as Record<ToolName, boolean>;
}

/** The languages tesseract has data for (e.g. `['ara', 'eng', 'osd']`), empty when it is missing. */
export function tesseractLanguages(): string[] {
  const exe = findTool('tesseract');
  if (!exe) return [];
  const out = spawnSync(exe, ['--list-langs'], { encoding: 'utf8' });
  return `${out.stdout ?? ''}`
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter(Boolean);
}

const NICE = lookup('nice');

export interface RunToolOptions {
  /** Killed (with its children) after this long. */
  timeoutMs: number;
  cwd?: string;
  /** Written to the tool's standard input. */
  input?: Buffer | string;
  /** Standard output beyond this size is refused (default 64 MB). */
  maxOutputBytes?: number;
  /** Environment added to the server's. */
  env?: Record<string, string>;
}

export interface ToolResult {
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a tool at low priority (`nice -n 10`) so that heavy work never slows the requests served
 * beside it, in its own process group so that a timeout stops what it started too.
 */
export function runTool(tool: ToolName, args: string[], options: RunToolOptions): Promise<ToolResult> {
  const exe = findTool(tool);
  if (!exe) return Promise.reject(new ToolMissingError(tool));
  const [command, argv] = NICE ? [NICE, ['-n', '10', exe, ...args]] : [exe, args];
  const limit = options.maxOutputBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
        reject(error);
      } else resolve({ stdout: Buffer.concat(out), stderr: err });
    };
    const timer = setTimeout(
      () => finish(new ToolFailedError(tool, 'timeout', `still running after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limit) finish(new ToolFailedError(tool, 'output', `more than ${limit} bytes of output`));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 10_000) err += chunk.toString('utf8');
    });
    child.on('error', (e) => finish(new ToolFailedError(tool, 'exit', e.message)));
    child.on('close', (code, signal) => {
      if (code === 0) finish(null);
      else finish(new ToolFailedError(tool, 'exit', `exit ${code ?? signal}: ${err.trim().slice(-500)}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}
