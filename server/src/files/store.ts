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
