import { createHash } from 'node:crypto';
import { sha256Bytes, sha256hex } from './sha256';

const expected = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('sha256', () => {
  // Lengths around the 55/56/64-byte padding boundaries, and multi-byte UTF-8.
  it.each([0, 1, 55, 56, 63, 64, 65, 119, 1000])('pure implementation matches for %i bytes', (length) => {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + 7) % 256);
    expect(hex(sha256Bytes(bytes))).toBe(expected(bytes));
  });

  it('hashes text as UTF-8 hex, with or without Web Crypto', async () => {
    const text = 'ميزان-visitor-42mizan-session';
    const want = createHash('sha256').update(text, 'utf8').digest('hex');
    await expect(sha256hex(text)).resolves.toBe(want);
    const subtle = Object.getOwnPropertyDescriptor(globalThis.crypto, 'subtle');
    Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined, configurable: true });
    try {
      await expect(sha256hex(text)).resolves.toBe(want);
    } finally {
      if (subtle) Object.defineProperty(globalThis.crypto, 'subtle', subtle);
      else Reflect.deleteProperty(globalThis.crypto, 'subtle');
    }
  });
});
