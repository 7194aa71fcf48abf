/** The images the appearance screen accepts (the server checks type and size again). */
export const IMAGE_RULES = {
  logo: { accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'], maxSize: 2 * 1024 * 1024 },
  favicon: {
    // Browsers name .ico files either way; the server checks the bytes, not the name.
    accept: [
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/svg+xml',
      'image/x-icon',
      'image/vnd.microsoft.icon',
    ],
    maxSize: 512 * 1024,
  },
} as const;

export type ImageKind = keyof typeof IMAGE_RULES;

/** Why a chosen file cannot be uploaded, or null when it can. */
export function imageProblem(kind: ImageKind, file: File): 'type' | 'size' | null {
  const rule = IMAGE_RULES[kind];
  if (!(rule.accept as readonly string[]).includes(file.type)) return 'type';
  if (file.size > rule.maxSize) return 'size';
  return null;
}

export interface AppearanceChange {
  primaryColor: string;
  /** A new image, `null` to remove the current one, undefined to keep it. */
  logo?: File | null;
  favicon?: File | null;
}

/**
 * The multipart body of `PUT /admin/settings/system/general/appearances`: the colour as a field,
 * new images as parts named `logo`/`favicon`, removals as `removeLogo`/`removeFavicon=true`.
 */
export function appearanceForm(change: AppearanceChange): FormData {
  const form = new FormData();
  form.append('primaryColor', change.primaryColor);
  for (const kind of ['logo', 'favicon'] as const) {
    const value = change[kind];
    if (value) form.append(kind, value, value.name);
    else if (value === null) form.append(kind === 'logo' ? 'removeLogo' : 'removeFavicon', 'true');
  }
  return form;
}
