import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** An opaque bearer token: 32 random bytes, base64url (43 characters). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens and codes are stored only as their SHA-256 (hex), so a leaked table gives no session. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** A 6-digit code sent by mail, uniformly drawn (leading zeros kept). */
export function generateCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
