// Where the built system lives, relative to this package.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(E2E_DIR, '..');
export const ARTIFACTS = path.join(E2E_DIR, 'artifacts');
export const SERVER_MAIN = path.join(ROOT, 'server', 'dist', 'main.js');
export const HOST_DIST = path.join(ROOT, 'host', 'dist');
export const REMOTES_DIR = path.join(ROOT, 'remotes');
export const LOCALES_DIR = path.join(ROOT, 'shared', 'i18n', 'src', 'locales');
export const CONTRACTS_DIST = path.join(ROOT, 'shared', 'contracts', 'dist', 'index.js');
export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
