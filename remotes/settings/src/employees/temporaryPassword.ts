/** Characters of generated passwords: no look-alikes (0/O, 1/l/I) since they are read aloud or copied by hand. */
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '!@#$%&*?-_';

function pick(chars: string, random: Uint32Array, i: number): string {
  return chars[random[i]! % chars.length]!;
}

/**
 * A random temporary password holding each character class (so it passes any password policy
 * the office sets), from the browser's cryptographic generator.
 */
export function generateTemporaryPassword(length = 14): string {
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const random = crypto.getRandomValues(new Uint32Array(length * 2));
  const chars = [
    pick(LOWER, random, 0),
    pick(UPPER, random, 1),
    pick(DIGITS, random, 2),
    pick(SYMBOLS, random, 3),
  ];
  for (let i = 4; i < length; i++) chars.push(pick(all, random, i));
  // Shuffle (Fisher-Yates) so the classes are not always in the first four places.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = random[length + i]! % (i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
