import { json, startServer, type SeenRequest } from '@mizan/sdk/testing/apiServer';
import type { ServerResponse } from 'node:http';

export type Row = { id: number } & Record<string, unknown>;

/** One open task of the signed-in employee (id 1), due long ago: overdue. */
export const TASK = {
  id: 7,
  title: 'إعداد مذكرة الدفاع',
  state: 'new',
  priority: 'high',
  dueAt: '2026-01-10T09:00:00.000Z',
  assigneeIds: [1],
  assignees: [{ id: 1, name: 'مدير' }],
  createdById: 1,
  text: '<p>مسودة المذكرة</p>',
  files: [],
  createdAt: '2026-01-01T09:00:00.000Z',
  updatedAt: '2026-01-02T09:00:00.000Z',
} satisfies Row;

/** An answer the test gives instead of the store's. */
export type Override = (req: SeenRequest) => { status: number; body: unknown } | undefined;

/** A request the test holds: answered (from the store as it is then) once the promise settles. */
export type Hold = (req: SeenRequest) => Promise<void> | undefined;

/**
 * A real HTTP server for the tasks screens over one in-memory task list: the list by `state`,
 * a task by id, and the state and text actions as the server applies them (a new version each
 * write); `override` answers first when it returns something, `hold` delays an answer. Every
 * request is recorded.
 */
export async function startTaskServer(
  rows: Row[],
  override: Override = () => undefined,
  hold: Hold = () => undefined,
) {
  const store = rows.map((row) => ({ ...row }));
  let version = 0;
  const stamp = () => new Date(Date.parse('2026-11-01T09:00:00.000Z') + ++version * 1000).toISOString();
  const server = await startServer(async (req: SeenRequest, res: ServerResponse) => {
    await hold(req);
    const given = override(req);
    if (given) return json(res, given.status, given.body);
    const path = req.path.replace(/^\/api\/admin\/lawsuits\/tasks/, '');
    if (req.method === 'GET' && path === '') {
      const state = req.query.get('state');
      const items = store.filter((row) => !state || row.state === state);
      return json(res, 200, { data: { items, total: items.length, page: 1, pageSize: 100 } });
    }
    const write = /^\/(status|update\/text)\/(\d+)$/.exec(path);
    const row = store.find((r) => r.id === Number(write?.[2] ?? /^\/(\d+)$/.exec(path)?.[1]));
    if (!row) return json(res, 404, { message: 'Not found' });
    if (req.method === 'GET') return json(res, 200, { data: row });
    const body = JSON.parse(req.body || '{}') as Record<string, unknown>;
    Object.assign(row, write?.[1] === 'status' ? { state: body.state } : { text: body.text }, {
      updatedAt: stamp(),
    });
    return json(res, 200, { data: row });
  });
  return { ...server, store };
}
