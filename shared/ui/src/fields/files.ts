import { UPLOAD_DEFAULTS, uploadLimitBytes, type FilesField, type StoredFile } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { sdkStore, systemSettingsAtom } from '@mizan/sdk';
import { fetchFile } from '../data';
import { saveBlob } from '../export/saveBlob';
import { formatNumber } from './numbers';

export type FileProblem =
  | { kind: 'type'; name: string }
  | { kind: 'size'; name: string; maxMb: number }
  | { kind: 'count'; name: string; max: number; count: number };

/**
 * The largest file `field` takes, in bytes: the office's upload limit (`maxUploadMb` of the system
 * settings the page loaded, kept current by their channel), or the field's own lower bound.
 */
export function fileLimitBytes(field: Pick<FilesField, 'maxSize'>): number {
  const office = sdkStore.get(systemSettingsAtom)?.maxUploadMb ?? UPLOAD_DEFAULTS.maxUploadMb;
  return uploadLimitBytes(office, field.maxSize);
}

/**
 * The server's limits, checked before upload so a wrong file is refused at once instead of after
 * a long transfer ending in 413/415. `already` counts files the row holds and files chosen so far.
 */
export function checkFile(
  file: File,
  field: Pick<FilesField, 'accept' | 'maxSize' | 'maxCount'>,
  already: number,
): FileProblem | null {
  if (already >= field.maxCount)
    return { kind: 'count', name: file.name, max: field.maxCount, count: field.maxCount };
  if (!field.accept.includes(file.type)) return { kind: 'type', name: file.name };
  const limit = fileLimitBytes(field);
  if (file.size > limit)
    return { kind: 'size', name: file.name, maxMb: Math.round((limit / 1024 / 1024) * 10) / 10 };
  return null;
}

/** Units of `formatSize`, each a text of `ui:sizes`. */
const SIZE_UNITS = ['bytes', 'kilobytes', 'megabytes', 'gigabytes'] as const;

/**
 * Human size in the interface language, its digits and its units: `1.2 MB`, `١٫٢ ميجابايت`.
 *
 * @example formatSize(389, 'ar') // '٣٨٩ بايت'
 */
export function formatSize(bytes: number, lng: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const size = formatNumber(Math.round(value * 10) / 10, lng);
  return i18n.t(`ui:sizes.${SIZE_UNITS[unit]!}`, { lng, size });
}

/** Downloads a stored file through the authorised route (a plain link would not carry the token). */
export async function downloadStoredFile(file: Pick<StoredFile, 'id' | 'originalName'>): Promise<void> {
  saveBlob(await fetchFile(file.id, { params: { download: 1 } }), file.originalName);
}

/** Where one new file's bytes sit in a multipart body: its field, its place among that field's files. */
export interface FilePartRange {
  field: string;
  /** Index among the files of its field, in the order they were appended (the input's order). */
  index: number;
  file: Blob;
  /** Byte offset of the file's content in the body, and the offset just after it. */
  start: number;
  end: number;
}

export interface MultipartLayout {
  /** Estimated body length in bytes (the browser's boundary length is assumed; see `fileFractions`). */
  total: number;
  files: FilePartRange[];
}

/** A boundary as Chromium writes it (`----WebKitFormBoundary` and 16 characters). */
const BOUNDARY_LENGTH = 38;
const utf8Length = (s: string) => new TextEncoder().encode(s).length;
/** Names as the browser escapes them in a part header (quotes and line breaks percent-encoded). */
const headerName = (s: string) => s.replace(/"/g, '%22').replace(/\r\n|\r|\n/g, '%0D%0A');

/**
 * The byte layout of a multipart body, part by part in the order of the form data (the order the
 * browser writes them): `--boundary CRLF`, the part's headers, `CRLF CRLF`, its content, `CRLF`,
 * and a closing `--boundary-- CRLF`. Only the files' ranges are kept: they are what takes time.
 *
 * @example multipartLayout(toFormData(procurations, body)).files // [{ field: 'files', index: 0, start: 191, end: 52_191 }, ...]
 */
export function multipartLayout(
  entries: Iterable<[string, FormDataEntryValue]>,
  boundaryLength = BOUNDARY_LENGTH,
): MultipartLayout {
  const files: FilePartRange[] = [];
  const perField = new Map<string, number>();
  let offset = 0;
  for (const [name, value] of entries) {
    let head = `--${'-'.repeat(boundaryLength)}\r\nContent-Disposition: form-data; name="${headerName(name)}"`;
    if (typeof value === 'string') {
      offset += utf8Length(`${head}\r\n\r\n`);
      offset += utf8Length(value) + 2;
      continue;
    }
    const fileName = value instanceof File ? value.name : 'blob';
    head += `; filename="${headerName(fileName)}"\r\nContent-Type: ${value.type || 'application/octet-stream'}`;
    offset += utf8Length(`${head}\r\n\r\n`);
    const index = perField.get(name) ?? 0;
    perField.set(name, index + 1);
    files.push({ field: name, index, file: value, start: offset, end: offset + value.size });
    offset += value.size + 2;
  }
  offset += boundaryLength + 2 + 4; // `--boundary--\r\n`
  return { total: offset, files };
}

/**
 * How far each file of the layout has gone (0 to 1), from the bytes sent so far. `total` is the
 * real body length the browser reports: the estimate is scaled to it, so a boundary of another
 * length shifts the ranges by a few bytes only. A file of zero bytes is done once its place is passed.
 *
 * @example fileFractions(layout, event.loaded, event.total) // [1, 0.42, 0]
 */
export function fileFractions(layout: MultipartLayout, loaded: number, total?: number): number[] {
  const position = total && total > 0 ? (loaded * layout.total) / total : loaded;
  return layout.files.map(({ start, end }) => {
    if (end <= start) return position >= end ? 1 : 0;
    return Math.min(1, Math.max(0, (position - start) / (end - start)));
  });
}

/** The upload state of one new file of a form while (and after) it is sent. */
export interface FileUpload {
  file: Blob;
  /** 0–100; held at 99 until the server has answered (the bytes are sent, not yet stored). */
  percent: number;
  status: 'uploading' | 'done' | 'error';
  /** The server's (translated) message when this file was refused. */
  error?: string;
}

/** Per files field, the uploads of one request, from the layout and the bytes sent so far. */
export function uploadsFromProgress(
  layout: MultipartLayout,
  loaded: number,
  total?: number,
): Record<string, FileUpload[]> {
  const fractions = fileFractions(layout, loaded, total);
  const out: Record<string, FileUpload[]> = {};
  layout.files.forEach((part, i) => {
    const percent = Math.min(99, Math.floor((fractions[i] ?? 0) * 100));
    (out[part.field] ??= [])[part.index] = { file: part.file, percent, status: 'uploading' };
  });
  return out;
}

/**
 * The uploads once the server answered: all done, or refused. Field errors name the refused
 * files (`files`: every file of the field, `files.1`: the second one); a failure naming no field
 * (413, 415, no answer) marks every file of the request with the server's message; a failure
 * naming only other fields (422 on `number`) was not the files' fault: their state is dropped.
 * Uploads are matched to the input's files by identity (`file`), not by position.
 */
export function settleUploads(
  uploads: Record<string, FileUpload[]>,
  failure?: { message: string; errors: Record<string, string[]> },
): Record<string, FileUpload[]> {
  const out: Record<string, FileUpload[]> = {};
  const named = new Map<string, string>();
  for (const [key, messages] of Object.entries(failure?.errors ?? {})) {
    const [field, index] = key.split(/[.[\]]+/).filter(Boolean);
    if (!field || !(field in uploads) || !messages[0]) continue;
    named.set(index === undefined ? field : `${field}.${index}`, messages[0]);
  }
  if (failure && named.size === 0 && Object.keys(failure.errors).length > 0) return out;
  for (const [field, list] of Object.entries(uploads))
    out[field] = list.flatMap((upload, index): FileUpload[] => {
      if (!failure) return [{ ...upload, percent: 100, status: 'done' }];
      const error = named.size ? (named.get(`${field}.${index}`) ?? named.get(field)) : failure.message;
      // A file the error does not name was not stored either, but it is not at fault: no mark.
      return error ? [{ ...upload, status: 'error', error }] : [];
    });
  return out;
}
