import type { ServerResponse } from 'node:http';
import {
  foldArabic,
  getEntity,
  lawsuitFeeFigures,
  type Entity,
  type Fields,
  type LawsuitFeeRow,
  type LawsuitFees,
  LEGAL_ROUTES,
} from '@mizan/contracts';
import { json, startServer, type SeenRequest } from '@mizan/sdk/testing/apiServer';

export type Row = { id: number } & Record<string, unknown>;

/** An answer the spec gives instead of the store's. */
export interface Answer {
  status: number;
  body: unknown;
}

export interface LegalServerSpec {
  /** Starting rows of each entity by name; an entity not given starts empty. */
  rows?: Record<string, Row[]>;
  /** Answer of a declared action (`close`, `postpone`…) instead of the store's (body merged into the row). */
  action?: (entity: string, action: string, id: number, body: Record<string, unknown>) => Answer | undefined;
  /** Answer of a create or update instead of the store's. */
  save?: (req: SeenRequest, entity: string) => Answer | undefined;
  /** Answer of another route (`path` under `/api`, such as a message route), before the store's. */
  route?: (req: SeenRequest, path: string) => Answer | undefined;
}

const STAMP = '2026-11-01T09:00:00.000Z';

/** The fields of a multipart body (files left out): enough to see what a form sent. */
export function multipartFields(req: SeenRequest): Record<string, string | string[]> {
  const boundary = /boundary=(.+)$/.exec(req.contentType)?.[1];
  if (!boundary) return {};
  const out: Record<string, string | string[]> = {};
  for (const part of req.body.split(`--${boundary}`)) {
    const head = /name="([^"]+)"(; filename="[^"]*")?\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/.exec(part);
    if (!head || head[2]) continue;
    const [, name = '', , value = ''] = head;
    const before = out[name];
    out[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return out;
}

/** The files of a multipart body: the field each came in and its name and type. */
export function multipartFiles(req: SeenRequest): { field: string; name: string; type: string }[] {
  const boundary = /boundary=(.+)$/.exec(req.contentType)?.[1];
  if (!boundary) return [];
  return req.body.split(`--${boundary}`).flatMap((part) => {
    const head = /name="([^"]+)"; filename="([^"]*)"\r\nContent-Type: ([^\r\n]+)/.exec(part);
    return head ? [{ field: head[1]!, name: head[2]!, type: head[3]! }] : [];
  });
}

/** A multipart value as the engine reads it: digits are numbers, repeated keys arrays. */
const typed = (value: string | string[]): unknown =>
  Array.isArray(value) ? value.map(typed) : /^\d+$/.test(value) ? Number(value) : value;

function bodyOf(req: SeenRequest): Record<string, unknown> {
  if (req.contentType.startsWith('application/json'))
    return JSON.parse(req.body || '{}') as Record<string, unknown>;
  return Object.fromEntries(Object.entries(multipartFields(req)).map(([k, v]) => [k, typed(v)]));
}

/**
 * A real HTTP server for the legal remote's screens, over an in-memory store: entity lists (`q`
 * folded as the engine folds it, field filters by equality, `refs` by membership, other filters
 * only recorded), a row by id, saves and deletes, declared actions as the legal server applies
 * them (the body merged into the row with the state a close or reopen sets, the next hearing a
 * postponement creates, a new version stamped), the fee figures computed from the store as the server computes
 * them, and postponement chains from `previousId`. Every request is recorded.
 */
export async function startLegalServer(entities: readonly Entity<Fields>[], spec: LegalServerSpec = {}) {
  const store = new Map<string, Row[]>(
    entities.map((e) => [e.name, (spec.rows?.[e.name] ?? []).map((row) => ({ ...row }))]),
  );
  let nextId = 1000;
  let version = 0;
  const stamp = () => new Date(Date.parse(STAMP) + ++version * 1000).toISOString();
  const rowsOf = (name: string) => store.get(name) ?? [];
  const full = (row: Row) => ({ createdAt: STAMP, updatedAt: STAMP, ...row });
  const withNext = (name: string, row: Row) =>
    name === 'sessions'
      ? { ...row, nextId: rowsOf('sessions').find((r) => r.previousId === row.id)?.id ?? null }
      : row;

  const fees = (lawsuitId: number): LawsuitFees => {
    const lawsuit = rowsOf('lawsuits').find((r) => r.id === lawsuitId);
    const paid = rowsOf('lawsuitPayments')
      .filter((p) => p.lawsuitId === lawsuitId)
      .reduce((sum, p) => sum + Number(p.amount), 0);
    return lawsuitFeeFigures(typeof lawsuit?.agreedFee === 'number' ? lawsuit.agreedFee : null, paid);
  };
  /** The fees tab's rows: the ledger's entries only (no payments recorded under Finance here). */
  const feeRows = (lawsuitId: number): LawsuitFeeRow[] =>
    rowsOf('lawsuitPayments')
      .filter((p) => p.lawsuitId === lawsuitId)
      .map((p) => ({
        key: `payment-${p.id}`,
        source: 'ledger' as const,
        date: String(p.paidOn),
        amount: Number(p.amount),
        method: typeof p.method === 'string' ? p.method : null,
        reference: typeof p.receiptNumber === 'string' ? p.receiptNumber : null,
        invoiceNumbers: [],
        overpayment: p.overpayment === true,
        note: typeof p.note === 'string' ? p.note : null,
        ledgerEntryId: p.id,
        paymentId: p.id,
        retainerMovementId: null,
      }))
      .sort((a, b) => b.date.localeCompare(a.date));
  const chain = (sessionId: number) => {
    const all = rowsOf('sessions');
    let first = all.find((r) => r.id === sessionId);
    while (first && typeof first.previousId === 'number')
      first = all.find((r) => r.id === first!.previousId) ?? first;
    const items: Row[] = [];
    for (let at = first; at; at = all.find((r) => r.previousId === at!.id)) items.push(at);
    return items.map((row) => withNext('sessions', full(row)));
  };

  /** What the server's action handlers set besides the body (and the hearing a postponement creates). */
  const applyAction = (entity: string, action: string, row: Row, body: Record<string, unknown>) => {
    if (entity === 'lawsuits' && action === 'close') return { state: 'completed' };
    if (entity === 'lawsuits' && action === 'reopen') return { state: 'active' };
    if (entity === 'sessions' && action === 'postpone') {
      const { id: _id, decision: _d, nextDate: _n, createdAt: _c, updatedAt: _u, ...kept } = row;
      rowsOf('sessions').push({
        ...kept,
        id: ++nextId,
        date: body.nextDate,
        previousId: row.id,
        previous: { id: row.id, name: row.date },
        updatedAt: stamp(),
      });
    }
    return {};
  };

  const handle = (req: SeenRequest, res: ServerResponse) => {
    const path = req.path.replace(/^\/api/, '');
    const routed = spec.route?.(req, path);
    if (routed) return json(res, routed.status, routed.body);
    const rowsMatch = new RegExp(`^${LEGAL_ROUTES.lawsuitFeeRows.path.replace(':id', '(\\d+)')}$`).exec(path);
    if (req.method === 'GET' && rowsMatch)
      return json(res, 200, { data: { items: feeRows(Number(rowsMatch[1])) } });
    const feesMatch = new RegExp(`^${LEGAL_ROUTES.lawsuitFees.path.replace(':id', '(\\d+)')}$`).exec(path);
    if (req.method === 'GET' && feesMatch) return json(res, 200, { data: fees(Number(feesMatch[1])) });
    const chainMatch = new RegExp(`^${LEGAL_ROUTES.sessionChain.path.replace(':id', '(\\d+)')}$`).exec(path);
    if (req.method === 'GET' && chainMatch)
      return json(res, 200, { data: { items: chain(Number(chainMatch[1])) } });
    if (req.method === 'GET' && /^\/files\/\d+$/.test(path)) {
      res.setHeader('Content-Type', 'application/pdf');
      res.end('%PDF-1.4');
      return;
    }

    // A reference field's picker (api/options.ts): the referenced rows as id, title and detail,
    // searched by `q`, narrowed by the referenced list's field filters, or named by `ids`.
    const picker = /^\/options\/(\w+)\/(\w+)$/.exec(path);
    if (req.method === 'GET' && picker) {
      const field = getEntity(picker[1]!).fields[picker[2]!];
      if (!field || (field.type !== 'ref' && field.type !== 'refs')) return json(res, 404, {});
      const target = getEntity(field.entity);
      const q = foldArabic(req.query.get('q') ?? '');
      const ids = req.query.get('ids')?.split(',').map(Number);
      let found = rowsOf(target.name).filter(
        (row) =>
          (!ids || ids.includes(row.id)) &&
          (!q || foldArabic(String(row[target.titleField] ?? '')).includes(q)),
      );
      for (const [key, value] of req.query)
        if (target.fields[key]) found = found.filter((row) => String(row[key]) === value);
      const items = found.map((row) => ({
        id: row.id,
        title: String(row[target.titleField] ?? row.id),
        detail: null,
      }));
      return json(res, 200, { data: { items } });
    }

    for (const entity of entities) {
      const rows = rowsOf(entity.name);
      if (path === entity.path) {
        if (req.method === 'GET') {
          const q = foldArabic(req.query.get('q') ?? '');
          let found = rows.filter(
            (row) => !q || foldArabic(String(row[entity.titleField] ?? '')).includes(q),
          );
          for (const [key, value] of req.query) {
            const field = entity.fields[key];
            if (!field) continue;
            found = found.filter((row) =>
              Array.isArray(row[key])
                ? (row[key] as unknown[]).map(String).includes(value)
                : String(row[key]) === value,
            );
          }
          const items = found.map((row) => withNext(entity.name, full(row)));
          return json(res, 200, { data: { items, total: items.length, page: 1, pageSize: 20 } });
        }
        const given = spec.save?.(req, entity.name);
        if (given) return json(res, given.status, given.body);
        const body = bodyOf(req);
        // Files sent are stored: each becomes a stored file of its field.
        for (const file of multipartFiles(req)) {
          const stored = { id: ++nextId, originalName: file.name, mimeType: file.type, size: 1024 };
          body[file.field] = [...((body[file.field] as unknown[] | undefined) ?? []), stored];
        }
        if (req.method === 'POST') {
          const row: Row = { ...body, id: ++nextId, createdAt: STAMP, updatedAt: stamp() };
          rows.push(row);
          return json(res, 201, { data: full(row) });
        }
        if (req.method === 'PUT') {
          const at = rows.findIndex((r) => r.id === Number(body.id));
          if (at < 0) return json(res, 404, { message: 'Not found' });
          rows[at] = { ...rows[at]!, ...body, id: rows[at]!.id, updatedAt: stamp() };
          return json(res, 200, { data: withNext(entity.name, full(rows[at]!)) });
        }
      }
      const file = new RegExp(`^${entity.path}/files/(\\d+)$`).exec(path);
      if (file && req.method === 'DELETE' && entity.fileDeletePath === '/files/:fileId') {
        const fileId = Number(file[1]);
        const other = (f: unknown) => (f as { id?: unknown } | null)?.id !== fileId;
        for (const [at, row] of rows.entries())
          for (const [key, value] of Object.entries(row))
            if (Array.isArray(value) && !value.every(other))
              rows[at] = { ...row, [key]: value.filter(other), updatedAt: stamp() };
        return json(res, 200, { data: { id: fileId } });
      }
      const byId = new RegExp(`^${entity.path}/(\\d+)(?:/(\\w+))?$`).exec(path);
      if (!byId) continue;
      const id = Number(byId[1]);
      const action = byId[2];
      const at = rows.findIndex((r) => r.id === id);
      if (!action && req.method === 'GET')
        return at < 0
          ? json(res, 404, { message: 'Not found' })
          : json(res, 200, { data: withNext(entity.name, full(rows[at]!)) });
      if (!action && req.method === 'DELETE') {
        if (at >= 0) rows.splice(at, 1);
        return json(res, 200, { data: { id } });
      }
      if (action && req.method === 'PATCH' && entity.actions?.[action]) {
        const body = bodyOf(req);
        const given = spec.action?.(entity.name, action, id, body);
        if (given) return json(res, given.status, given.body);
        if (at < 0) return json(res, 404, { message: 'Not found' });
        const { updatedAt: _version, ...set } = body;
        Object.assign(set, applyAction(entity.name, action, rows[at]!, set));
        rows[at] = { ...rows[at]!, ...set, updatedAt: stamp() };
        return json(res, 200, { data: withNext(entity.name, full(rows[at]!)) });
      }
    }
    return json(res, 404, { message: 'Not found' });
  };
  const server = await startServer(handle);
  return {
    ...server,
    store,
    /** Requests of one method to one API path (`/admin/lawsuits/7/close`). */
    to: (method: string, path: string) => server.calls(method, `/api${path}`),
    /** The JSON body of a request. */
    body: (req: SeenRequest) => bodyOf(req),
  };
}

export type LegalServer = Awaited<ReturnType<typeof startLegalServer>>;
