import type { Config } from '../config';
import { S3FileStore } from './s3';
import { DiskFileStore, type FileStore } from './storage';

/**
 * The storage the configuration names: the bucket of `MIZAN_FILES_URL`, else `DATA_DIR/files`.
 *
 * @example
 * const store = createFileStore(loadConfig(process.env));
 */
export function createFileStore(config: Pick<Config, 'dataDir' | 'files'>): FileStore {
  return config.files ? new S3FileStore(config.files) : new DiskFileStore(config.dataDir);
}

/**
 * Where the office's backup archives are kept, beside the files but never among them (a backup
 * holds the files, not the backups): `DATA_DIR/backups`, or `<prefix>/backups` of the bucket of
 * `MIZAN_FILES_URL`, so that every instance lists and serves the same archives.
 */
export function createBackupStore(config: Pick<Config, 'dataDir' | 'files'>): FileStore {
  if (!config.files) return new DiskFileStore(config.dataDir, { folder: 'backups' });
  const prefix = config.files.prefix ? `${config.files.prefix}/backups` : 'backups';
  return new S3FileStore({ ...config.files, prefix });
}
