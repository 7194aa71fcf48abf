import fs from 'node:fs';
import path from 'node:path';
import type { Dialect } from '../db';
import type { TableLayout } from './layout';

/** What the archive's last entry, `manifest.json`, says of everything before it. */
export interface BackupManifest {
  format: typeof FORMAT;
  formatVersion: number;
  /** The version of Mizan that wrote it. */
  mizanVersion: string;
  createdAt: string;
  /** The database it was read from (the archive itself is the same for both kinds). */
  dialect: Dialect;
  /** The migration steps applied to that database, by their recorded names. */
  migrations: string[];
  /** In load order: parents before the tables referring to them. */
  tables: (TableLayout & { entry: string; rows: number; sha256: string })[];
  files: { name: string; entry: string; size: number; sha256: string }[];
}

export const FORMAT = 'mizan-backup';
/** Raised when the archive's layout changes; a restore refuses a format it does not know. */
export const FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';

export const tableEntry = (table: string): string => `tables/${table}.jsonl`;
export const fileEntry = (storedName: string): string => `files/${storedName}`;

/** Stored file names are ours: 32 hex digits (files/storage.ts). */
export const STORED_NAME = /^[a-f0-9]{32}$/;

/** The version in the repository's package.json (src/backup and dist/backup are both three levels down). */
export function mizanVersion(): string {
  const file = path.join(__dirname, '..', '..', '..', 'package.json');
  return String((JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version);
}

/** Why a restore (or reading an archive) was refused; nothing was changed. */
export class BackupRefused extends Error {
  constructor(
    readonly reason: 'damaged' | 'checksum' | 'newer' | 'notEmpty' | 'layout',
    message: string,
  ) {
    super(message);
    this.name = 'BackupRefused';
  }
}
