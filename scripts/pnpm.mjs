// Runs the pinned pnpm through npx, so that a fresh machine needs only Node and npm.
import { spawnSync } from 'node:child_process';

export const PNPM = 'pnpm@12.21.0';

export function pnpm(args, options = {}) {
  const result = spawnSync('npx', ['--yes', PNPM, ...args], { stdio: 'inherit', ...options });
  return result.status ?? 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(pnpm(process.argv.slice(2)));
}
