// The shared browser and antd set-ups run first (jest.preset.cjs); this adds
// the host's own: fingerprint stand-in, timeouts, English labels and storage teardown.
import '@testing-library/jest-dom';
import { initI18n } from '@mizan/i18n';
import { secureStorage } from '@mizan/sdk';

// Device fingerprinting probes browser APIs jsdom lacks (each try waits 5 s); its own tests live in the SDK.
jest.mock('../../../shared/sdk/src/fingerprint', () => ({
  FINGERPRINT_EXCLUDED: [],
  FINGERPRINT_FONT_SOURCES: [],
  getFingerprint: async () => ({ visitorId: 'test-visitor', session: 'test-session' }),
  resetFingerprintCache: () => undefined,
}));

// Whole-app renders load antd lazily per test file, and the dashboard (every signed-in landing)
// renders dozens of antd parts: on two cores running every package's tests at once, a sign-out
// from that page measured 10 s. As the remotes' set-ups allow.
jest.setTimeout(90_000);

// Tests read English labels unless they switch; the app itself defaults to Arabic.
void initI18n('en');

// The encrypted storage writes in a queue; jsdom's localStorage disappears when the file ends, so
// let in-flight calls settle and drain the queue first (clearing waits behind every earlier write).
// A write scheduled later still (a request answered during teardown) then meets a plain stand-in
// instead of jsdom's torn-down getter, which would crash the worker.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 100));
  await secureStorage.clear();
  const memory = new Map<string, string>();
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    value: {
      getItem: (key: string) => memory.get(key) ?? null,
      setItem: (key: string, value: string) => void memory.set(key, value),
      removeItem: (key: string) => void memory.delete(key),
    },
  });
});
