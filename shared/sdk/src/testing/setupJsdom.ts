// The browser pieces jsdom lacks that every front-end package's tests need (the preset lists this
// file first for jsdom packages). Node supplies the real implementations where it has them; each
// package's own setup adds only what is particular to it.
import { webcrypto } from 'node:crypto';
import { TextDecoder, TextEncoder } from 'node:util';
import { configure } from '@testing-library/react';
import * as React from 'react';

// A whole screen over HTTP (the device fingerprint, the record, then its tab's reads; antd's first
// render generating every component style) takes seconds when every package's tests run at once
// on two cores: what a test finds, it may wait up to 30 s for.
configure({ asyncUtilTimeout: 30_000 });

if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
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

// Layout-driven components observe element sizes; jsdom has no layout, so nothing ever resizes.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

// React's scheduler, antd's form and the device fingerprint post through MessageChannel, which
// jsdom lacks; Node's own would keep Jest from exiting (its ports hold the event loop), so a
// timer-based channel stands in. Like a real port, a closed one delivers nothing; every channel is
// closed when the file ends, so no message lands in a torn-down page.
const channels: { port1: { close(): void }; port2: { close(): void } }[] = [];
if (typeof globalThis.MessageChannel === 'undefined') {
  class TimerPort {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    peer: TimerPort | null = null;
    private closed = false;
    private readonly pending = new Set<ReturnType<typeof setTimeout>>();
    postMessage(data: unknown): void {
      if (this.closed) return;
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        if (this.peer && !this.peer.closed) this.peer.onmessage?.({ data });
      }, 0);
      this.pending.add(timer);
    }
    start(): void {}
    close(): void {
      this.closed = true;
      for (const timer of this.pending) clearTimeout(timer);
      this.pending.clear();
    }
  }
  class TimerMessageChannel {
    port1 = new TimerPort();
    port2 = new TimerPort();
    constructor() {
      this.port1.peer = this.port2;
      this.port2.peer = this.port1;
      channels.push(this);
    }
  }
  Object.assign(globalThis, { MessageChannel: TimerMessageChannel });
}
afterAll(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

// React's development build captures a stack (an `Error`) for every element it creates: the
// "owner stack" that React DevTools and React.captureOwnerStack() show. Under Jest nothing reads
// it (Jest's console has no createTask to hand it to, and nothing calls captureOwnerStack), yet
// capturing it took about 5 % of a form test's CPU. React itself stops capturing past 10,000
// elements a second, giving each later element a shared placeholder; holding its counter at that
// limit makes the fallback permanent. Stacks of thrown errors, failed assertions and React's
// warnings are unchanged: Error.stackTraceLimit is untouched.
const reactInternals = (React as unknown as Record<string, Record<string, unknown> | undefined>)
  .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (reactInternals && 'recentlyCreatedOwnerStacks' in reactInternals) {
  Object.defineProperty(reactInternals, 'recentlyCreatedOwnerStacks', {
    get: () => Number.POSITIVE_INFINITY,
    set: () => undefined,
  });
}
