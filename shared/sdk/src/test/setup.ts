// The SDK's own gaps of jsdom beyond the shared browser set-up (testing/setupJsdom): IndexedDB for
// the encrypted storage, and structured cloning of its CryptoKey.
import 'fake-indexeddb/auto';
import { initI18n } from '@mizan/i18n';

// Browsers structured-clone a CryptoKey (that is how the storage key lives in IndexedDB); Node's
// structuredClone refuses it. A CryptoKey is immutable, so the key itself stands in for its clone.
const nativeClone = globalThis.structuredClone;
globalThis.structuredClone = ((value: unknown, options?: StructuredSerializeOptions) =>
  Object.prototype.toString.call(value) === '[object CryptoKey]'
    ? value
    : nativeClone(value, options)) as typeof structuredClone;

void initI18n('ar');
