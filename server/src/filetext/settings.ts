import type { Db } from '../db';
import { readSettings } from '../system';
import type { ExtractLimits } from './extract';

/** The limits of reading one file (system settings `textMaxPages`, `textSecondsPerPage`), read at each job. */
export async function readFileTextLimits(db: Db): Promise<ExtractLimits> {
  const settings = await readSettings(db);
  return { maxPages: settings.textMaxPages, secondsPerPage: settings.textSecondsPerPage };
}

/** How many files are read at once across instances (system setting `textConcurrency`). */
export async function readTextConcurrency(db: Db): Promise<number> {
  return (await readSettings(db)).textConcurrency;
}
