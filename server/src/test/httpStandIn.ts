import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a stand-in received. */
export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body's bytes (a multipart upload's file), and as UTF-8 text. */
  raw: Buffer;
  body: string;
  /** The body parsed as JSON, or null. */
  json: unknown;
}

/** What the stand-in answers a request: a status and a JSON body. */
export interface StandInAnswer {
  status: number;
  body?: unknown;
}

/**
 * A real HTTP server on a random loopback port standing in for a provider outside our control (an
 * SMS gateway, WhatsApp's Cloud API): it records every request and answers what `answer` says
 * (default 200 `{}`); `failNext(n, status)` makes the next `n` requests fail, as a provider that is
 * down for a while.
 *
 * @example
 * const gateway = await startHttpStandIn((req) => ({ status: 200, body: { id: `sms-${req.url}` } }));
 * ... gateway.requests[0].json ... await gateway.close();
 */
export async function startHttpStandIn(
  answer: (request: RecordedRequest) => StandInAnswer = () => ({ status: 200, body: {} }),
) {
  const requests: RecordedRequest[] = [];
  let failing: { count: number; status: number } = { count: 0, status: 503 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : null;
      } catch {
        json = null;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        body,
        json,
      };
      requests.push(recorded);
      const reply =
        failing.count > 0
          ? (failing.count--, { status: failing.status, body: { error: { message: 'service unavailable' } } })
          : answer(recorded);
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The next `count` requests are answered `status` (default 503), whatever `answer` says. */
    failNext(count: number, status = 503) {
      failing = { count, status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
