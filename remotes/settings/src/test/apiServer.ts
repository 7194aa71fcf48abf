import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  contentType: string;
  body: string;
}

/** An answer: status and JSON body (wrapped as the API does unless `raw`). */
export type Handler = (req: SeenRequest) => { status?: number; body: unknown } | undefined;

/**
 * A real HTTP server on a free port: `routes` maps `METHOD /api/path` to a handler, so screens
 * run through the SDK's real axios client (headers, unwrapping, ApiError, toasts).
 */
export async function startApiServer(routes: Record<string, Handler>) {
  const seen: SeenRequest[] = [];
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // jsdom enforces CORS: the page is http://localhost, this server another port.
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS');
    res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      contentType: req.headers['content-type'] ?? '',
      body: Buffer.concat(chunks).toString('utf8'),
    };
    seen.push(request);
    const answer = routes[`${request.method} ${request.path}`]?.(request);
    if (!answer) return send(res, 404, { message: 'Not found' });
    send(res, answer.status ?? 200, answer.body);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    calls: (method: string, path: string) => seen.filter((r) => r.method === method && r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
