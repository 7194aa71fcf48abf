import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, issueMessage, updateSchema, type Entity, type Fields } from '@mizan/contracts';

/** One request as the test server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  contentType: string;
  body: string;
}

type Row = { id: number; createdAt: string; updatedAt: string; status?: boolean } & Record<string, unknown>;

export interface TableSpec {
  entity: Entity<Fields>;
  rows: Row[];
  /** Adds the joined `{ id, name }` labels the real API sends. */
  join?: (row: Row) => Row;
  /** Ids whose delete answers 409 (still referenced). */
  referenced?: number[];
  /** Values of `name` the "database" already holds: create answers 422 on the field (unique). */
  takenNames?: string[];
  /** Canned import answers for importable entities. */
  importPreview?: unknown;
  importResult?: unknown;
  /** While true, list calls answer 500 (the error state). */
  failList?: boolean;
  /** Header line of `GET <path>/import/template`. */
  importTemplate?: string;
}

/**
 * A real HTTP server on a free port answering the API shapes of the team brief for a few entities,
 * so the screens run through the SDK's real axios client (interceptors, unwrapping, ApiError).
 */
export async function startApiServer(tables: TableSpec[]) {
  const seen: SeenRequest[] = [];
  const byPath = new Map(tables.map((t) => [`/api${t.entity.path}`, t]));
  let nextId = 10_000;

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
    const raw = Buffer.concat(chunks).toString('utf8');
    seen.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      contentType: req.headers['content-type'] ?? '',
      body: raw,
    });

    const base = [...byPath.keys()].find((p) => url.pathname === p || url.pathname.startsWith(`${p}/`));
    const table = base ? byPath.get(base) : undefined;
    if (!table || !base) return send(res, 404, { message: 'Not found' });
    const rest = url.pathname.slice(base.length);
    const { entity } = table;
    const view = (row: Row) => (table.join ? table.join(row) : row);
    const invalid = (issues: Parameters<typeof issueMessage>[0][]) => {
      const errors: Record<string, string[]> = {};
      for (const issue of issues) (errors[String(issue.path[0])] ??= []).push(issueMessage(issue).key);
      return send(res, 422, { message: 'Invalid', errors, code: 'validation' });
    };

    if (req.method === 'GET' && rest === '' && table.failList)
      return send(res, 500, { message: 'عطل في الخادم' });
    if (req.method === 'GET' && rest === '') {
      const q = url.searchParams.get('q')?.toLowerCase();
      let rows = table.rows.filter(
        (row) =>
          !q ||
          String(row.name ?? '')
            .toLowerCase()
            .includes(q),
      );
      for (const [key, value] of url.searchParams) {
        if (['page', 'pageSize', 'sort', 'q'].includes(key)) continue;
        rows = rows.filter((row) => String(row[key]) === value);
      }
      const [field, dir] = (url.searchParams.get('sort') ?? 'id:asc').split(':') as [string, string];
      rows = [...rows].sort(
        (a, b) =>
          String(a[field]).localeCompare(String(b[field]), 'ar', { numeric: true }) *
          (dir === 'desc' ? -1 : 1),
      );
      const page = Number(url.searchParams.get('page') ?? 1);
      const pageSize = Number(url.searchParams.get('pageSize') ?? 20);
      if (pageSize > 100)
        return send(res, 422, { message: 'Invalid', errors: { pageSize: ['validation.number.max'] } });
      const items = rows.slice((page - 1) * pageSize, page * pageSize).map(view);
      return send(res, 200, { data: { items, total: rows.length, page, pageSize } });
    }
    const idMatch = /^\/(\d+)$/.exec(rest);
    if (req.method === 'GET' && idMatch) {
      const row = table.rows.find((r) => r.id === Number(idMatch[1]));
      return row ? send(res, 200, { data: view(row) }) : send(res, 404, { message: 'Not found' });
    }
    if ((req.method === 'POST' || req.method === 'PUT') && rest === '') {
      const body: unknown = raw ? JSON.parse(raw) : {};
      const parsed = (req.method === 'POST' ? createSchema(entity) : updateSchema(entity)).safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const data = parsed.data as Record<string, unknown>;
      if (typeof data.name === 'string' && table.takenNames?.includes(data.name))
        return send(res, 422, {
          message: 'Invalid',
          errors: { name: ['هذا الاسم مستخدم من قبل'] },
          code: 'unique',
        });
      const now = new Date().toISOString();
      if (req.method === 'POST') {
        const row: Row = { status: true, ...data, id: nextId++, createdAt: now, updatedAt: now };
        table.rows.push(row);
        return send(res, 201, { data: view(row) });
      }
      const row = table.rows.find((r) => r.id === data.id);
      if (!row) return send(res, 404, { message: 'Not found' });
      Object.assign(row, data, { updatedAt: now });
      return send(res, 200, { data: view(row) });
    }
    if (req.method === 'DELETE' && idMatch) {
      const id = Number(idMatch[1]);
      if (table.referenced?.includes(id))
        return send(res, 409, { message: 'لا يمكن الحذف: السجل مرتبط ببيانات أخرى', code: 'referenced' });
      table.rows = table.rows.filter((r) => r.id !== id);
      return send(res, 200, { data: { id } });
    }
    const statusMatch = /^\/status\/(\d+)$/.exec(rest);
    if (req.method === 'PATCH' && statusMatch) {
      const row = table.rows.find((r) => r.id === Number(statusMatch[1]));
      if (!row) return send(res, 404, { message: 'Not found' });
      const body = (raw ? JSON.parse(raw) : {}) as { status?: boolean };
      row.status = typeof body.status === 'boolean' ? body.status : !row.status;
      return send(res, 200, { data: view(row) });
    }
    if (req.method === 'GET' && rest === '/import/template') {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      return void res.end(`\uFEFF${table.importTemplate ?? ''}\r\n`);
    }
    if (req.method === 'POST' && rest === '/import') {
      if (!req.headers['content-type']?.startsWith('multipart/form-data') || !raw.includes('name="file"'))
        return send(res, 400, { message: 'ملف مفقود' });
      return send(res, 200, {
        data: url.searchParams.get('dryRun') ? table.importPreview : table.importResult,
      });
    }
    return send(res, 404, { message: 'Not found' });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** Requests to one entity path (list calls by default). */
    calls: (path: string, method = 'GET') =>
      seen.filter((r) => r.method === method && r.path === `/api${path}`),
    /** The live spec of an entity (change `rows` or `failList` mid-test). */
    table: (entity: Entity<Fields>) => byPath.get(`/api${entity.path}`)!,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
