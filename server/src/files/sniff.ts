import { looksLikeSvg } from './svg';

/**
 * Content sniffing by magic bytes, so a file's type is judged by what it is, not by the type the
 * browser declared (a renamed executable is refused even when sent as `image/png`). The one
 * sniffer of the server: uploads, the logo and favicon, and imports all judge bytes here.
 */

const startsWith = (head: Buffer, bytes: number[], offset = 0) =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Types whose content is a ZIP container (Office Open XML, OpenDocument). */
const ZIP_TYPES = new Set([
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
]);
/** Types whose content is an OLE compound file (legacy Office). */
const CFB_TYPES = new Set([
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
]);
const TEXT_TYPES = new Set([
  'text/plain',
  'text/csv',
  'application/json',
  'application/csv',
  'text/tab-separated-values',
]);

/** The family the first bytes belong to: an exact type, a container, text, or unknown. */
export function sniff(head: Buffer): string | 'zip' | 'cfb' | 'text' | null {
  if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'cfb';
  // ICO: reserved 0, type 1, at least one image.
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00]) && head.length > 6 && (head[4]! | (head[5]! << 8)) > 0)
    return 'image/x-icon';
  if (head.length > 0 && !head.includes(0) && isUtf8(head))
    return looksLikeSvg(head) ? 'image/svg+xml' : 'text';
  return null;
}

/**
 * The image type the bytes are (PNG, JPEG, WebP, GIF, ICO, SVG), or null. An SVG still has to
 * pass `svgProblem` before it is stored.
 */
export function imageType(head: Buffer): string | null {
  const kind = sniff(head);
  return kind?.startsWith('image/') ? kind : null;
}

function isUtf8(head: Buffer): boolean {
  // The sample may end inside a multi-byte character: ignore an incomplete tail.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  const bad = text.indexOf('\uFFFD');
  return bad === -1 || bad >= text.length - 2;
}

/**
 * The type to store for a file, or null when its content is not one of `accept`.
 * Exact formats (PDF, images) are named by their bytes; containers and text take the declared
 * type only when the bytes agree with it.
 */
export function acceptedType(head: Buffer, declared: string, accept: readonly string[]): string | null {
  const kind = sniff(head);
  const claimed = declared.split(';')[0]!.trim().toLowerCase();
  if (kind === null) return null;
  if (kind === 'zip') return ZIP_TYPES.has(claimed) && accept.includes(claimed) ? claimed : null;
  if (kind === 'cfb') return CFB_TYPES.has(claimed) && accept.includes(claimed) ? claimed : null;
  if (kind === 'text') {
    if ((TEXT_TYPES.has(claimed) || claimed.startsWith('text/')) && accept.includes(claimed)) return claimed;
    return null;
  }
  return accept.includes(kind) ? kind : null;
}
