import { foldArabic } from '@mizan/contracts';

/**
 * Whether `text` contains what the user typed, both folded by the one Arabic folding of the
 * contracts (hamza and alef forms, ta marbuta, alef maqsura, diacritics, digits, Latin case), as
 * the server's search does: "احمد" finds "أحمد". For local filters of lists already loaded.
 *
 * @example matchesFolded('أحمد إبراهيم', 'احمد ابراهيم') // true
 */
export function matchesFolded(text: string, typed: string): boolean {
  const needle = foldArabic(typed);
  return needle === '' || foldArabic(text).includes(needle);
}
