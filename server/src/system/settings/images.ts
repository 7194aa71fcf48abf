/**
 * Logo and favicon rules. Their bytes are judged by `files/sniff` (`imageType`) whatever type the
 * browser declared, and an SVG by `files/svg` (`svgProblem`): one that could run code is refused.
 */

export type ImageKind = 'logo' | 'favicon';

export const IMAGE_RULES: Record<ImageKind, { accept: readonly string[]; maxSize: number }> = {
  logo: { accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'], maxSize: 2 * 1024 * 1024 },
  favicon: {
    accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'image/x-icon'],
    maxSize: 512 * 1024,
  },
};
