import path from 'node:path';
import { loadConfig } from '../config';
import { createDatabase } from '../db';
import { createFileStore } from '../files/store';
import { createBackup } from './backup';
import { BackupRefused } from './manifest';

/** `$DATA_DIR/backups/mizan-<instant>.tar.gz`: the default name of a backup. */
export function defaultBackupFile(dataDir: string, at = new Date()): string {
  return path.join(dataDir, 'backups', `mizan-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz`);
}

/**
 * `npm run backup -- [file]` and `npm run restore -- <file>`, on the database and files of the
 * environment (`DATABASE_URL`, `DATA_DIR`, `MIZAN_FILES_URL`), as the server reads them.
 */
async function main(argv: string[]): Promise<number> {
  const [command, file] = argv;
  const config = loadConfig(process.env);
  // On disk, or in the bucket of MIZAN_FILES_URL: the files of a backup come from where the server keeps them.
  const files = createFileStore(config);
  if (command === 'backup') {
    const target = path.resolve(file ?? defaultBackupFile(config.dataDir));
    const database = createDatabase(config.databaseUrl);
    try {
      const manifest = await createBackup({ db: database.db, dialect: database.dialect, files }, target);
      const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
      console.info(
        `Backup written to ${target}: ${manifest.tables.length} tables, ${rows} rows, ${manifest.files.length} files.`,
      );
      return 0;
    } finally {
      await database.destroy();
      files.close();
    }
  }
  if (command === 'restore' && file) {
    // Loaded only here: a restore needs every module's migrations, a backup none of them.
    const { restoreBackup } = await import('./restore.js');
    try {
      const report = await restoreBackup(path.resolve(file), {
        databaseUrl: config.databaseUrl,
        files,
        workDir: config.dataDir,
      });
      console.info(
        `Restored ${report.rows} rows and ${report.files} files from ${file} (Mizan ${report.manifest.mizanVersion}, ${report.manifest.createdAt}); counts and checksums match.`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof BackupRefused)) throw error;
      console.error(`Restore refused, nothing changed: ${error.message}`);
      return 2;
    } finally {
      files.close();
    }
  }
  console.error('usage: npm run backup -- [file.tar.gz]  |  npm run restore -- <file.tar.gz>');
  return 64;
}

if (require.main === module)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
