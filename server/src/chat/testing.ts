import WebSocket from 'ws';
import type { Session } from '../test/harness';

/** Test sockets for the chat's WebSocket tests. */

type Frame = Record<string, unknown> & { type: string; channel?: string; action?: string; data?: unknown };

/** A socket that keeps every frame, so a test can wait for one matching a predicate. */
export class Listener {
  readonly frames: Frame[] = [];
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as Frame;
      this.frames.push(frame);
      for (const waiter of [...this.waiters])
        if (waiter.match(frame)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
    });
  }

  wait(match: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching frame arrived')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame));
  }

  /** Subscribes and answers the hub's reply (subscribed, or an error). */
  async subscribe(channel: string): Promise<Frame> {
    this.send({ type: 'subscribe', channel });
    return this.wait((f) => f.channel === channel && (f.type === 'subscribed' || f.type === 'error'));
  }
}

export async function openSocket(base: string, session: Session): Promise<Listener> {
  const query = new URLSearchParams({
    Authorization: session.token,
    'x-fingerprint-session': session.headers['x-fingerprint-session']!,
    'x-fingerprint': 'test-device',
  });
  const socket = new WebSocket(`${base}/api/ws?${query}`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const listener = new Listener(socket);
  listener.send({ type: 'ping' });
  await listener.wait((f) => f.type === 'pong');
  return listener;
}
