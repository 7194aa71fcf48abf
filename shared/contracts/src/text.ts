/**
 * Text rules shared by server and client: digits typed on Arabic or Persian keyboards, the Arabic
 * folding used by every search, and the safety checks every string field passes.
 */

/** Arabic-Indic (U+0660–0669) and Extended Arabic-Indic / Persian (U+06F0–06F9) digits. */
const EASTERN_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

/**
 * Arabic-Indic and Persian digits to ASCII; everything else is left as it is.
 *
 * @example normalizeDigits('٠١٠٠١٢٣٤٥٦٧') // '01001234567'
 */
export function normalizeDigits(s: string): string {
  return s.replace(EASTERN_DIGITS, (d) => String(d.charCodeAt(0) & 0xf));
}

/**
 * A numeric string typed in any of the three digit sets (and the Arabic decimal separator `٫`) as
 * a number; anything else comes back unchanged so the schema reports it with its own message.
 */
export function parseDigits(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ascii = normalizeDigits(value.trim()).replace(/\u066B/g, '.');
  return /^[-+]?\d+(\.\d+)?$/.test(ascii) ? Number(ascii) : value;
}

// Harakat, Quranic annotation marks and the superscript alef: written or not, the word is the same.
const DIACRITICS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E4\u06E7\u06E8\u06EA-\u06ED]/g;
const TATWEEL = /\u0640/g;
// Zero-width and direction marks carry no letters; a pasted name often holds some.
const INVISIBLE = /[\u200B-\u200F\u061C\u202A-\u202E\u2066-\u2069\uFEFF]/g;
const LETTERS: Record<string, string> = {
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ٲ: 'ا',
  ٳ: 'ا',
  ؤ: 'و',
  ئ: 'ي',
  ى: 'ي',
  // Persian keyboards type these for the Arabic yeh and kaf.
  ی: 'ي',
  ک: 'ك',
  ة: 'ه',
};
const LETTER = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g');

const UNSEARCHABLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * First words of compound Arabic names, written joined to the next word or apart: `عبد الله` and
 * `عبدالله`, `أبو بكر` and `أبوبكر`, `أبي طالب` (the genitive of `أبو`). Folded, they are joined
 * to the word after them, so either spelling finds the other.
 */
const COMPOUND_FIRST = ['عبد', 'ابو', 'ابي', 'ابا'];
// A whole word (not the end of `العبد`) followed by a space and a letter.
const COMPOUND = new RegExp(`(?<![\\p{L}\\p{N}])(${COMPOUND_FIRST.join('|')}) (?=\\p{L})`, 'gu');

/**
 * Joins the compound names of folded text (`عبد الله` → `عبدالله`, see `COMPOUND_FIRST`); only
 * a space joins, never a line break (the folded fields of a row are one per line). `foldArabic`
 * ends with it; a migration refolding stored text needs only this step.
 *
 * @example joinCompoundNames('محمد عبد الفتاح ابو بكر') // 'محمد عبدالفتاح ابوبكر'
 */
export function joinCompoundNames(folded: string): string {
  return folded.replace(COMPOUND, '$1');
}

/**
 * The search form of a text: hamza and alef forms to bare alef, ة→ه, ى→ي, ؤ→و, ئ→ي, diacritics,
 * tatweel and invisible marks removed, Arabic-Indic and Persian digits to ASCII, compatibility forms
 * (presentation ligatures, full-width Latin) unfolded, Latin lower-cased, control characters and
 * lone surrogates made spaces, whitespace collapsed, and compound names joined (`عبد الفتاح` →
 * `عبدالفتاح`, `أبو بكر` → `ابوبكر`). Applied to stored values and to the query alike, so either
 * spelling finds the other; a query that stops at `عبد` still finds `عبدالفتاح`, the match being
 * by substring.
 *
 * @example foldArabic('  أحمدُ   إبراهيمـ ٢٩ ') // 'احمد ابراهيم 29'
 */
export function foldArabic(s: string): string {
  return joinCompoundNames(
    normalizeDigits(
      s
        .normalize('NFKC')
        .replace(DIACRITICS, '')
        .replace(TATWEEL, '')
        .replace(INVISIBLE, '')
        .replace(LETTER, (c) => LETTERS[c] ?? c),
    )
      .toLowerCase()
      // A typed query may hold anything: what no stored text holds is a separator, so no control
      // character or broken surrogate ever reaches a search index's query grammar.
      .replace(UNSEARCHABLE, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

// Without the `u` flag these match single UTF-16 code units, which is what a lone surrogate is.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** C0 and C1 controls and DEL, except tab, line feed and carriage return (a newline is CR LF in forms). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Embedding, override and isolate controls: they reorder what a reader sees (`\u202Egnp.exe`). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/** True when the string is valid UTF-16 (no unpaired surrogate, which storage would turn into U+FFFD). */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** True when the string holds a control character other than tab and newline. */
export function hasControlCharacters(s: string): boolean {
  return CONTROL.test(s);
}

/** True when the string holds a bidi embedding, override or isolate control. */
export function hasBidiControls(s: string): boolean {
  return BIDI_CONTROL.test(s);
}
