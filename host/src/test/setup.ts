// Browser gaps of jsdom that antd, react-router and i18next need (TOOLCHAIN.md, Testing).
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';
import { initI18n } from '@mizan/i18n';
import { secureStorage } from '@mizan/sdk';

Object.assign(globalThis, { TextEncoder, TextDecoder });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

// antd's form batches updates through MessageChannel, which jsdom lacks. Node's own keeps the
// worker alive (open ports), so a timer-based pair stands in: same asynchronous delivery.
if (typeof globalThis.MessageChannel === 'undefined') {
  type Port = {
    onmessage: ((event: { data: unknown }) => void) | null;
    postMessage: (data: unknown) => void;
    close: () => void;
  };
  class TimerMessageChannel {
    readonly port1: Port;
    readonly port2: Port;
    constructor() {
      const make = (target: () => Port): Port => ({
        onmessage: null,
        postMessage: (data) => void setTimeout(() => target().onmessage?.({ data }), 0),
        close: () => undefined,
      });
      this.port1 = make(() => this.port2);
      this.port2 = make(() => this.port1);
    }
  }
  Object.assign(globalThis, { MessageChannel: TimerMessageChannel });
}

// antd's menu and layout observe sizes; jsdom has no layout, so nothing ever resizes.
if (typeof globalThis.ResizeObserver === 'undefined') {
  class NoResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(globalThis, { ResizeObserver: NoResizeObserver });
}

// antd measures scrollbars with a pseudo-element argument jsdom does not implement.
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// Device fingerprinting probes browser APIs jsdom lacks (each try waits 5 s); its own tests live in the SDK.
jest.mock('../../../shared/sdk/src/fingerprint', () => ({
  FINGERPRINT_EXCLUDED: [],
  FINGERPRINT_FONT_SOURCES: [],
  getFingerprint: async () => ({ visitorId: 'test-visitor', session: 'test-session' }),
  resetFingerprintCache: () => undefined,
}));

// Whole-app renders load antd lazily per test file; the root config's 5 s default is too tight.
jest.setTimeout(30_000);
// Lazy screens and antd's first render take more than the default second on a busy machine.
configure({ asyncUtilTimeout: 5_000 });

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
