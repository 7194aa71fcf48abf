/**
 * Logo and favicon checks by content: the bytes must be one of the accepted image formats,
 * whatever type the browser declared. SVG is text and can carry scripts: one that does is refused.
 */

export type ImageKind = 'logo' | 'favicon';

export const IMAGE_RULES: Record<ImageKind, { accept: readonly string[]; maxSize: number }> = {
  logo: { accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'], maxSize: 2 * 1024 * 1024 },
  favicon: {
    accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'image/x-icon'],
    maxSize: 512 * 1024,
  },
};

const startsWith = (buffer: Buffer, bytes: number[], offset = 0) =>
  buffer.length >= offset + bytes.length && bytes.every((b, i) => buffer[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type the bytes are, or null. */
export function imageType(buffer: Buffer): string | null {
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(buffer, ascii('RIFF')) && startsWith(buffer, ascii('WEBP'), 8)) return 'image/webp';
  // ICO: reserved 0, type 1, at least one image.
  if (
    startsWith(buffer, [0x00, 0x00, 0x01, 0x00]) &&
    buffer.length > 6 &&
    (buffer[4]! | (buffer[5]! << 8)) > 0
  )
    return 'image/x-icon';
  if (isSvg(buffer)) return 'image/svg+xml';
  return null;
}

function isSvg(buffer: Buffer): boolean {
  if (buffer.includes(0)) return false;
  const text = buffer
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  // An optional XML declaration, comments or doctype, then the <svg> root.
  return /^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(text);
}

/** True when an SVG could run code or load other resources when opened. */
export function isUnsafeSvg(buffer: Buffer): boolean {
  const text = buffer.toString('utf8');
  return (
    /<script[\s>]/i.test(text) ||
    /<foreignObject[\s>]/i.test(text) ||
    /\son[a-z]+\s*=/i.test(text) ||
    /(href|src)\s*=\s*["']?\s*(javascript|data:text\/html|https?:)/i.test(text) ||
    /<!ENTITY/i.test(text)
  );
}
