import type { FilesField, StoredFile } from '@mizan/contracts';
import { fetchFile } from '../data';
import { saveBlob } from '../export/saveBlob';

export type FileProblem =
  | { kind: 'type'; name: string }
  | { kind: 'size'; name: string; maxMb: number }
  | { kind: 'count'; name: string; max: number };

/**
 * The server's limits, checked before upload so a wrong file is refused at once instead of after
 * a long transfer ending in 413/415. `already` counts files the row holds and files chosen so far.
 */
export function checkFile(file: File, field: FilesField, already: number): FileProblem | null {
  if (already >= field.maxCount) return { kind: 'count', name: file.name, max: field.maxCount };
  if (!field.accept.includes(file.type)) return { kind: 'type', name: file.name };
  if (file.size > field.maxSize)
    return { kind: 'size', name: file.name, maxMb: Math.round((field.maxSize / 1024 / 1024) * 10) / 10 };
  return null;
}

/** Human size, e.g. `1.2 MB`, with digits in the interface language. */
export function formatSize(bytes: number, lng: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(lng, { maximumFractionDigits: 1 }).format(value)} ${units[unit]}`;
}

/** Downloads a stored file through the authorised route (a plain link would not carry the token). */
export async function downloadStoredFile(file: Pick<StoredFile, 'id' | 'originalName'>): Promise<void> {
  saveBlob(await fetchFile(file.id, { params: { download: 1 } }), file.originalName);
}
