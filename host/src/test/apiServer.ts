import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface Answer {
  status?: number;
  body?: unknown;
}

/** `'POST /api/auth/login'` → answer (a function sees the request). */
export type Routes = Record<string, Answer | ((req: Request) => Answer)>;

/**
 * A real HTTP server for the host's tests: the SDK's axios client runs its browser adapter over
 * jsdom's XMLHttpRequest, which makes real requests. It answers CORS because the test page's
 * origin differs from the server's (production is same-origin). Unknown routes answer 404.
 */
export async function startApiServer(routes: Routes) {
  const seen: Request[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE');
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '');
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://test');
      const text = Buffer.concat(chunks).toString();
      const request: Request = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
      seen.push(request);
      const route = routes[`${request.method} ${request.path}`];
      const answer =
        typeof route === 'function'
          ? route(request)
          : (route ?? { status: 404, body: { message: 'Not found' } });
      res.statusCode = answer.status ?? 200;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Starts one server for the test file and points the SDK's client at it. The routes object may be
 * changed by the tests (answers are looked up per request).
 */
export function serveApiForFile(routes: Routes) {
  const handle: { server: Awaited<ReturnType<typeof startApiServer>> | null } = { server: null };
  beforeAll(async () => {
    handle.server = await startApiServer(routes);
    const { http } = await import('@mizan/sdk');
    http.defaults.baseURL = `${handle.server.url}/api`;
  });
  afterAll(() => handle.server?.close());
  return handle;
}

/** The public settings every page reads, as the server answers them. */
export const SETTINGS_ANSWER: Answer = {
  body: {
    data: {
      officeName: 'مكتب العدالة للمحاماة',
      logoUrl: null,
      faviconUrl: null,
      primaryColor: '#0f766e',
      defaultLanguage: 'ar',
      defaultTheme: 'light',
      calendar: 'gregorian',
    },
  },
};
