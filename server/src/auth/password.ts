import { hash, verify } from '@node-rs/argon2';
import { message, type Lang } from './messages';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/**
 * argon2id (the library's default algorithm) with OWASP's minimum: 19 MiB, 2 passes, 1 lane.
 * About 11 ms per hash on this machine (TOOLCHAIN.md).
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** False for a wrong password and for a stored value that is not an argon2 hash. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored || !stored.startsWith('$argon2')) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so both paths cost the same time. */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('mizan-decoy-password-0');
  return decoy;
}

/**
 * Why a new password is refused, or null. At least 8 characters, at most 128, and at least two kinds
 * of characters among letters, digits and symbols ("12345678" and "password" are refused).
 */
export function passwordProblem(password: unknown, lang: Lang): string | null {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN) {
    return message(lang, 'passwordTooShort', { min: PASSWORD_MIN });
  }
  if (password.length > PASSWORD_MAX) return message(lang, 'passwordTooLong', { max: PASSWORD_MAX });
  const kinds = [/\p{L}/u, /\p{N}/u, /[^\p{L}\p{N}\s]/u].filter((re) => re.test(password)).length;
  if (kinds < 2 || new Set(password).size < 4) return message(lang, 'passwordWeak');
  return null;
}
