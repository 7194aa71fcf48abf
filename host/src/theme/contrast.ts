/** WCAG 2 colour arithmetic for the theme: enough to keep text at AA contrast. */

export type Rgba = { r: number; g: number; b: number; a: number };

/** Parses `#rgb`, `#rrggbb`, `#rrggbbaa` and `rgb()/rgba()`; null for anything else. */
export function parseColor(value: string): Rgba | null {
  const s = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(s);
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(s);
  if (fn) {
    const alpha = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? parseFloat(fn[4]) / 100 : Number(fn[4]);
    return { r: Number(fn[1]), g: Number(fn[2]), b: Number(fn[3]), a: alpha };
  }
  return null;
}

function must(value: string): Rgba {
  const c = parseColor(value);
  if (!c) throw new Error(`not a colour: ${value}`);
  return c;
}

export function toHex({ r, g, b }: Rgba): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** The opaque colour seen when `top` (possibly translucent) is painted over `bottom`. */
export function flatten(top: string, bottom: string): string {
  const t = must(top);
  const b = must(bottom);
  const mix = (x: number, y: number) => x * t.a + y * (1 - t.a);
  return toHex({ r: mix(t.r, b.r), g: mix(t.g, b.g), b: mix(t.b, b.b), a: 1 });
}

function luminance(color: string): number {
  const { r, g, b } = must(color);
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of a (possibly translucent) text colour on an opaque background. */
export function contrast(text: string, background: string): number {
  const a = luminance(flatten(text, background));
  const b = luminance(background);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** AA for normal text, with a little room so rounding in the browser cannot drop below 4.5. */
export const AA_TEXT = 4.6;

/**
 * `color` itself when it reads at `min` on every background, otherwise the nearest shade of it
 * (mixed toward white on dark backgrounds, toward black on light ones) that does. The office's
 * primary colour is free, so text drawn in it must be corrected this way rather than by a table.
 */
export function readableOn(color: string, backgrounds: string[], min = AA_TEXT): string {
  const base = must(flatten(color, backgrounds[0]));
  const darkBackground = backgrounds.every((bg) => luminance(bg) < 0.18);
  const target = darkBackground ? 255 : 0;
  for (let step = 0; step <= 20; step++) {
    const k = step / 20;
    const shade = toHex({
      r: base.r + (target - base.r) * k,
      g: base.g + (target - base.g) * k,
      b: base.b + (target - base.b) * k,
      a: 1,
    });
    if (backgrounds.every((bg) => contrast(shade, bg) >= min)) return step === 0 ? color : shade;
  }
  return darkBackground ? '#ffffff' : '#000000';
}

/** `color` mixed toward black by `k` (0..1). */
function darker(color: string, k: number): string {
  const c = must(color);
  return toHex({ r: c.r * (1 - k), g: c.g * (1 - k), b: c.b * (1 - k), a: 1 });
}

/**
 * The header and top bar background for the office's primary colour: a gradient of that colour,
 * darkened where needed so that the bar's white text and icons keep AA contrast on both ends.
 *
 * @example navBackground('#0f766e') // 'linear-gradient(90deg, #0b5953 0%, #0f766e 100%)'
 */
export function navBackground(primary: string): string {
  const end = readableOn(primary, ['#ffffff']);
  return `linear-gradient(90deg, ${darker(end, 0.25)} 0%, ${end} 100%)`;
}
