import type { ServerResponse } from 'node:http';
import {
  CLIENT_ROUTES,
  foldArabic,
  type ConflictMatch,
  type CustomerMessage,
  type CustomerStatement,
  type Entity,
  type Fields,
} from '@mizan/contracts';
import { json, startServer, type SeenRequest } from '@mizan/sdk/testing/apiServer';

type Row = { id: number } & Record<string, unknown>;

export interface ClientsServerSpec {
  /** Rows of each entity by name; an entity not given answers an empty list. */
  rows?: Record<string, Row[]>;
  /** The conflict check's answer to a query (default: none); a promise holds the answer back. */
  conflicts?: (query: URLSearchParams) => ConflictMatch[] | Promise<ConflictMatch[]>;
  /** Answer of a create or update (default: the body back with an id). */
  save?: (req: SeenRequest) => { status: number; body: unknown };
  /** A client's messages (the communications tab), and the answer of sending one (default 201, queued). */
  messages?: CustomerMessage[];
  sendMessage?: (req: SeenRequest) => { status: number; body: unknown };
  /** A client's statement (the statement tab), by the query it was asked with. */
  statement?: (query: URLSearchParams) => CustomerStatement;
}

/**
 * A real HTTP server for the clients remote's screens: entity lists (`q` folded as the engine
 * folds it, field filters by equality), the conflict check, and saves; every request recorded.
 */
export async function startClientsServer(entities: readonly Entity<Fields>[], spec: ClientsServerSpec = {}) {
  const stamp = '2026-11-01T09:00:00.000Z';
  /** Requests the client gave up before their answer (a superseded check, cancelled). */
  const abandoned: SeenRequest[] = [];
  const handle = async (req: SeenRequest, res: ServerResponse) => {
    if (req.method === 'GET' && req.path === `/api${CLIENT_ROUTES.conflicts.path}`) {
      res.on('close', () => !res.writableEnded && abandoned.push(req));
      const matches = (await spec.conflicts?.(req.query)) ?? [];
      if (!res.destroyed) json(res, 200, { data: { matches } });
      return;
    }
    if (/^\/api\/admin\/customers\/\d+\/messages$/.test(req.path)) {
      if (req.method === 'GET') return json(res, 200, { data: { items: spec.messages ?? [] } });
      const { status, body } = spec.sendMessage?.(req) ?? { status: 201, body: { data: {} } };
      return json(res, status, body);
    }
    if (/^\/api\/admin\/finance\/customers\/\d+\/statement$/.test(req.path) && spec.statement)
      return json(res, 200, { data: spec.statement(req.query) });
    // One row by id (a record page).
    for (const e of entities) {
      const id = new RegExp(`^/api${e.path}/(\\d+)$`).exec(req.path)?.[1];
      const row = spec.rows?.[e.name]?.find((r) => String(r.id) === id);
      if (req.method === 'GET' && id)
        return row
          ? json(res, 200, { data: { createdAt: stamp, updatedAt: stamp, status: true, ...row } })
          : json(res, 404, { message: 'Not found' });
    }
    const entity = entities.find((e) => req.path === `/api${e.path}`);
    if (!entity) return json(res, 404, { message: 'Not found' });
    if (req.method === 'GET') {
      const q = foldArabic(req.query.get('q') ?? '');
      let rows = (spec.rows?.[entity.name] ?? []).filter(
        (row) => !q || foldArabic(String(row[entity.titleField] ?? '')).includes(q),
      );
      for (const [key, value] of req.query)
        if (key in entity.fields) rows = rows.filter((row) => String(row[key]) === value);
      const items = rows.map((row) => ({ createdAt: stamp, updatedAt: stamp, status: true, ...row }));
      return json(res, 200, { data: { items, total: items.length, page: 1, pageSize: 20 } });
    }
    if (spec.save) {
      const { status, body } = spec.save(req);
      return json(res, status, body);
    }
    const body = req.contentType.startsWith('application/json')
      ? (JSON.parse(req.body || '{}') as object)
      : {};
    return json(res, req.method === 'POST' ? 201 : 200, {
      data: { id: 500, createdAt: stamp, updatedAt: stamp, ...body },
    });
  };
  const server = await startServer(handle);
  return {
    ...server,
    abandoned,
    /** Requests of one method to one API path (`/admin/customers/conflicts`). */
    to: (method: string, path: string) => server.calls(method, `/api${path}`),
  };
}
