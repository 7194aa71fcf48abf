import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the test server saw it. */
export interface SeenRequest {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  contentType: string;
  /** The raw body text. */
  body: string;
}

export type RequestHandler = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP server on a free port for front-end tests: the SDK's axios client runs its browser
 * adapter over jsdom's XMLHttpRequest, which makes real requests. It answers CORS because the test
 * page's origin (http://localhost) differs from the server's; production is same-origin. Test-only:
 * imported from tests and test helpers, never from production code.
 */
export async function startServer(handler: RequestHandler) {
  const seen: SeenRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE');
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '');
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const request: SeenRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      contentType: req.headers['content-type'] ?? '',
      body: Buffer.concat(chunks).toString('utf8'),
    };
    seen.push(request);
    await handler(request, res);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** Requests with this method and path. */
    calls: (method: string, path: string) => seen.filter((r) => r.method === method && r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive sockets of jsdom's XHR
      }),
  };
}

export type TestServer = Awaited<ReturnType<typeof startServer>>;

/** Answers JSON (an empty body for `undefined`). */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(body === undefined ? '' : JSON.stringify(body));
}

/** An answer: status (200 by default) and JSON body. */
export interface Answer {
  status?: number;
  body?: unknown;
}

/** `'POST /api/auth/login'` → answer, or a function of the request (`undefined` answers 404). */
export type Routes = Record<string, Answer | ((req: SeenRequest) => Answer | undefined)>;

/**
 * A test server answering fixed routes; the routes object may be changed by the tests (answers are
 * looked up per request). Unknown routes answer 404.
 */
export function startApiServer(routes: Routes) {
  return startServer((req, res) => {
    const route = routes[`${req.method} ${req.path}`];
    const answer = typeof route === 'function' ? route(req) : route;
    if (!answer) return json(res, 404, { message: 'Not found' });
    json(res, answer.status ?? 200, answer.body);
  });
}
