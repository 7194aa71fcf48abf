import type { SystemImageKind } from '@mizan/contracts';

/**
 * Logo and favicon rules. Their bytes are judged by `files/sniff` (`imageType`) whatever type the
 * browser declared, and an SVG by `files/svg` (`svgProblem`): one that could run code is refused.
 * Their bounds are their own, not the office's upload limit: an image is read whole in memory and
 * served on every page and before sign-in, so it must stay small whatever files the office keeps.
 */

export type ImageKind = SystemImageKind;

export const IMAGE_RULES: Record<ImageKind, { accept: readonly string[]; maxSize: number }> = {
  logo: { accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'], maxSize: 2 * 1024 * 1024 },
  favicon: {
    accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'image/x-icon'],
    maxSize: 512 * 1024,
  },
};
