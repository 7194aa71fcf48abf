import type { ServerResponse } from 'node:http';
import {
  createSchema,
  findEntity,
  foldArabic,
  issueMessage,
  OPTIONS_LIMIT,
  updateSchema,
  type Entity,
  type Fields,
  type StaleWriteError,
} from '@mizan/contracts';
import { json, startServer, type SeenRequest } from '@mizan/sdk/testing/apiServer';

export type { SeenRequest };

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
  /** Who the 409 of a stale update names as the last writer (as the server does). */
  changedBy?: StaleWriteError['changedBy'];
}

/**
 * A real HTTP server on a free port answering the API shapes of the team brief for a few entities,
 * so the screens run through the SDK's real axios client (interceptors, unwrapping, ApiError).
 */
export async function startApiServer(
  tables: TableSpec[],
  /** Answers routes beyond the entities' (audit, files…) first; `true` when it answered. */
  extra?: (req: SeenRequest, res: ServerResponse) => boolean | Promise<boolean>,
) {
  const byPath = new Map(tables.map((t) => [`/api${t.entity.path}`, t]));
  let nextId = 10_000;

  const handle = async (req: SeenRequest, res: ServerResponse) => {
    if (extra && (await extra(req, res))) return;
    const raw = req.body;
    // A reference field's picker (api/options.ts): the referenced table's rows as id, title and
    // detail, searched by `q` on the title, narrowed by its field filters, or named by `ids`.
    const picker = /^\/api\/options\/(\w+)\/(\w+)$/.exec(req.path);
    if (req.method === 'GET' && picker) {
      const byName = (name: string) => tables.find((t) => t.entity.name === name)?.entity ?? findEntity(name);
      const field = byName(picker[1]!)?.fields[picker[2]!];
      if (!field || (field.type !== 'ref' && field.type !== 'refs'))
        return json(res, 404, { message: 'Not found' });
      // A referenced entity the test serves no table for has no rows to offer.
      const target = tables.find((t) => t.entity.name === field.entity);
      if (!target) return json(res, 200, { data: { items: [] } });
      const { titleField, fields } = target.entity;
      const q = foldArabic(req.query.get('q') ?? '');
      const ids = req.query.get('ids')?.split(',').map(Number);
      let found = target.rows.filter(
        (row) =>
          (!ids || ids.includes(row.id)) && (!q || foldArabic(String(row[titleField] ?? '')).includes(q)),
      );
      for (const [key, value] of req.query)
        if (fields[key]) found = found.filter((row) => String(row[key]) === value);
      const items = found
        .slice(0, ids ? undefined : OPTIONS_LIMIT)
        .map((row) => ({ id: row.id, title: String(row[titleField] ?? row.id), detail: null }));
      return json(res, 200, { data: { items } });
    }
    const base = [...byPath.keys()].find((p) => req.path === p || req.path.startsWith(`${p}/`));
    const table = base ? byPath.get(base) : undefined;
    if (!table || !base) return json(res, 404, { message: 'Not found' });
    const rest = req.path.slice(base.length);
    const { entity } = table;
    const view = (row: Row) => (table.join ? table.join(row) : row);
    const invalid = (issues: Parameters<typeof issueMessage>[0][]) => {
      const errors: Record<string, string[]> = {};
      for (const issue of issues) (errors[String(issue.path[0])] ??= []).push(issueMessage(issue).key);
      return json(res, 422, { message: 'Invalid', errors, code: 'validation' });
    };

    if (req.method === 'GET' && rest === '' && table.failList)
      return json(res, 500, { message: 'عطل في الخادم' });
    if (req.method === 'GET' && rest === '') {
      const q = req.query.get('q')?.toLowerCase();
      let rows = table.rows.filter(
        (row) =>
          !q ||
          String(row.name ?? '')
            .toLowerCase()
            .includes(q),
      );
      for (const [key, value] of req.query) {
        if (['page', 'pageSize', 'sort', 'q'].includes(key)) continue;
        rows = rows.filter((row) => String(row[key]) === value);
      }
      const [field, dir] = (req.query.get('sort') ?? 'id:asc').split(':') as [string, string];
      rows = [...rows].sort(
        (a, b) =>
          String(a[field]).localeCompare(String(b[field]), 'ar', { numeric: true }) *
          (dir === 'desc' ? -1 : 1),
      );
      const page = Number(req.query.get('page') ?? 1);
      const pageSize = Number(req.query.get('pageSize') ?? 20);
      if (pageSize > 100)
        return json(res, 422, { message: 'Invalid', errors: { pageSize: ['validation.number.max'] } });
      const items = rows.slice((page - 1) * pageSize, page * pageSize).map(view);
      return json(res, 200, { data: { items, total: rows.length, page, pageSize } });
    }
    const idMatch = /^\/(\d+)$/.exec(rest);
    if (req.method === 'GET' && idMatch) {
      const row = table.rows.find((r) => r.id === Number(idMatch[1]));
      return row ? json(res, 200, { data: view(row) }) : json(res, 404, { message: 'Not found' });
    }
    if ((req.method === 'POST' || req.method === 'PUT') && rest === '') {
      const body: unknown = raw ? JSON.parse(raw) : {};
      const parsed = (req.method === 'POST' ? createSchema(entity) : updateSchema(entity)).safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const data = parsed.data as Record<string, unknown>;
      if (typeof data.name === 'string' && table.takenNames?.includes(data.name))
        return json(res, 422, {
          message: 'Invalid',
          errors: { name: ['هذا الاسم مستخدم من قبل'] },
          code: 'unique',
        });
      const now = new Date().toISOString();
      if (req.method === 'POST') {
        const row: Row = { status: true, ...data, id: nextId++, createdAt: now, updatedAt: now };
        table.rows.push(row);
        return json(res, 201, { data: view(row) });
      }
      const row = table.rows.find((r) => r.id === data.id);
      if (!row) return json(res, 404, { message: 'Not found' });
      // A write based on an older version than the stored one is refused, as the server does.
      const read = (body as { updatedAt?: unknown }).updatedAt;
      if (read !== undefined && read !== row.updatedAt)
        return json(res, 409, {
          message: 'تغيّر السجل منذ قراءته',
          code: 'stale',
          current: view(row),
          changedBy: table.changedBy ?? null,
          changedAt: row.updatedAt,
        });
      Object.assign(row, data, { updatedAt: now });
      return json(res, 200, { data: view(row) });
    }
    if (req.method === 'DELETE' && idMatch) {
      const id = Number(idMatch[1]);
      if (table.referenced?.includes(id))
        return json(res, 409, { message: 'لا يمكن الحذف: السجل مرتبط ببيانات أخرى', code: 'referenced' });
      table.rows = table.rows.filter((r) => r.id !== id);
      return json(res, 200, { data: { id } });
    }
    const toggleMatch = /^\/(status|baned)\/(\d+)$/.exec(rest);
    if (req.method === 'PATCH' && toggleMatch) {
      const key = toggleMatch[1] as 'status' | 'baned';
      const row = table.rows.find((r) => r.id === Number(toggleMatch[2]));
      if (!row) return json(res, 404, { message: 'Not found' });
      const body = (raw ? JSON.parse(raw) : {}) as { status?: boolean; baned?: boolean; updatedAt?: string };
      // A switch flipped on an older version of the row is refused, as the server does.
      if (body.updatedAt !== undefined && body.updatedAt !== row.updatedAt)
        return json(res, 409, {
          message: 'تغيّر السجل منذ قراءته',
          code: 'stale',
          current: view(row),
          changedBy: table.changedBy ?? null,
          changedAt: row.updatedAt,
        });
      row[key] = typeof body[key] === 'boolean' ? body[key] : !row[key];
      row.updatedAt = new Date().toISOString();
      return json(res, 200, { data: view(row) });
    }
    if (req.method === 'GET' && rest === '/import/template') {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      return void res.end(`\uFEFF${table.importTemplate ?? ''}\r\n`);
    }
    if (req.method === 'POST' && rest === '/import') {
      if (!req.headers['content-type']?.startsWith('multipart/form-data') || !raw.includes('name="file"'))
        return json(res, 400, { message: 'ملف مفقود' });
      return json(res, 200, {
        data: req.query.get('dryRun') ? table.importPreview : table.importResult,
      });
    }
    return json(res, 404, { message: 'Not found' });
  };

  const server = await startServer(handle);
  return {
    url: server.url,
    seen: server.seen,
    /** Requests to one entity path (list calls by default). */
    calls: (path: string, method = 'GET') => server.calls(method, `/api${path}`),
    /** The live spec of an entity (change `rows` or `failList` mid-test). */
    table: (entity: Entity<Fields>) => byPath.get(`/api${entity.path}`)!,
    close: server.close,
  };
}
