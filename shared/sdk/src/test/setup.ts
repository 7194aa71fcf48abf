// jsdom lacks what the SDK uses from a real browser: Web Crypto's `subtle`, IndexedDB,
// TextEncoder and matchMedia. Node supplies the real implementations where it has them.
import 'fake-indexeddb/auto';
import { initI18n } from '@mizan/i18n';
import { webcrypto } from 'node:crypto';
import { TextDecoder, TextEncoder } from 'node:util';

if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
}
if (typeof globalThis.TextEncoder === 'undefined') {
  Object.assign(globalThis, { TextEncoder, TextDecoder });
}
// Browsers structured-clone a CryptoKey (that is how the storage key lives in IndexedDB); Node's
// structuredClone refuses it. A CryptoKey is immutable, so the key itself stands in for its clone.
const nativeClone = globalThis.structuredClone;
globalThis.structuredClone = ((value: unknown, options?: StructuredSerializeOptions) =>
  Object.prototype.toString.call(value) === '[object CryptoKey]'
    ? value
    : nativeClone(value, options)) as typeof structuredClone;

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

void initI18n('ar');
