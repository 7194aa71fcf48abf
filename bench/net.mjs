// What every benchmark needs to start servers of its own: a free port, and a wait for an answer.
import net from 'node:net';

/** A TCP port free on the loopback now. */
export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Resolves once `url` answers 2xx; throws after `timeoutMs`. */
export async function waitForOk(url, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}
