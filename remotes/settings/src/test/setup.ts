// jsdom lacks pieces of a browser that react-router, antd and the SDK use (TOOLCHAIN.md, Testing);
// Node supplies the real implementations where it has them.
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { webcrypto } from 'node:crypto';
import { TextDecoder, TextEncoder } from 'node:util';
import { MessageChannel } from 'node:worker_threads';
import { initI18n } from '@mizan/i18n';

if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
// The SDK's device fingerprint schedules work through MessageChannel. React's scheduler picks it up
// too, and an open Node MessagePort keeps Jest from exiting: every channel is closed after the file.
const channels: MessageChannel[] = [];
if (typeof globalThis.MessageChannel === 'undefined') {
  class ClosableChannel extends MessageChannel {
    constructor() {
      super();
      channels.push(this);
    }
  }
  Object.assign(globalThis, { MessageChannel: ClosableChannel });
}
afterAll(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});
if (!globalThis.crypto?.subtle)
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });

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

// antd's Table measures scrollbars with a pseudo-element argument jsdom does not implement.
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// jsdom has no layout, so nothing ever resizes.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

// The first call computes the device fingerprint; on a loaded two-core machine that can take seconds.
configure({ asyncUtilTimeout: 10_000 });
// Whole screens over HTTP take seconds each when every package's tests run at once on two cores.
jest.setTimeout(90_000);

// Tests read English labels; the app defaults to Arabic.
void initI18n('en');
