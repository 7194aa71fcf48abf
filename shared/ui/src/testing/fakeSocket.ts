import { act, waitFor } from '@testing-library/react';
import { wsClient } from '@mizan/sdk';

/** A stand-in WebSocket: the SDK's one client talks to it as to the server's hub. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  private listeners = new Map<string, Set<(event: unknown) => void>>();
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  addEventListener(type: string, listener: (event: unknown) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }
  removeEventListener(type: string, listener: (event: unknown) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  emit(type: string, fields: Record<string, unknown>) {
    for (const listener of this.listeners.get(type) ?? []) listener({ ...fields, type, target: this });
  }
  /** Delivers one frame from the hub (a notification, a channel event). */
  frame(message: unknown) {
    act(() => this.emit('message', { data: JSON.stringify(message) }));
  }
  send(frame: string) {
    this.sent.push(JSON.parse(frame));
  }
  close() {
    this.readyState = 3;
  }
}

/**
 * Connects the SDK's WebSocket client to a stand-in socket; `event` delivers a channel event as
 * the hub would. Call `restore` after the test.
 */
export async function connectFakeSocket() {
  FakeSocket.instances = [];
  const original = globalThis.WebSocket;
  Object.assign(globalThis, { WebSocket: FakeSocket });
  await wsClient.connect();
  await waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
  const socket = FakeSocket.instances[0]!;
  socket.readyState = 1;
  act(() => socket.emit('open', {}));
  return {
    socket,
    event: (channel: string, action: string, data: unknown) =>
      act(() => socket.emit('message', { data: JSON.stringify({ type: 'event', channel, action, data }) })),
    restore: () => {
      wsClient.disconnect();
      Object.assign(globalThis, { WebSocket: original });
    },
  };
}
