import { branches, courts, employees, OPTIONS_ROUTES, pathOf, sessions } from '@mizan/contracts';
import { json, startServer } from '@mizan/sdk/testing/apiServer';
import type { HearingRow } from '../hearings';

type Row = { id: number } & Record<string, unknown>;

/**
 * A real HTTP server for the calendar's tests: the hearings list as the engine answers it (the
 * `from`/`to` range with both days included, `lawyerId`/`courtId` field filters, the `branchId`
 * and `employeeId` (attending or responsible for the lawsuit) list filters, pages of `pageSize`),
 * and the lists and pickers behind the filter selects. Every request kept.
 */
export async function startCalendarServer(spec: {
  hearings: HearingRow[];
  /** The branch of each hearing (through its lawsuit), for the `branchId` filter. */
  branchOf?: Record<number, number>;
  /** The employees responsible for each hearing's lawsuit, for the `employeeId` filter. */
  responsibleOf?: Record<number, number[]>;
  lists?: { employees?: Row[]; courts?: Row[]; branches?: Row[] };
}) {
  const stamp = '2026-11-01T09:00:00.000Z';
  const lists: Record<string, Row[]> = {
    [employees.path]: spec.lists?.employees ?? [],
    [courts.path]: spec.lists?.courts ?? [],
    [branches.path]: spec.lists?.branches ?? [],
  };
  const server = await startServer((req, res) => {
    if (req.method !== 'GET') return json(res, 405, { message: 'Method not allowed' });
    const page = Number(req.query.get('page') ?? 1);
    const pageSize = Number(req.query.get('pageSize') ?? 20);
    if (pageSize > 100) return json(res, 422, { message: 'pageSize' });
    let rows: Row[];
    if (
      req.path === `/api${pathOf(OPTIONS_ROUTES.list.path, { entity: sessions.name, field: 'lawyerId' })}`
    ) {
      // The hearing's lawyer picker (api/options.ts): the employees as id, title and detail.
      const ids = req.query.get('ids')?.split(',').map(Number);
      const found = (spec.lists?.employees ?? []).filter((r) => !ids || ids.includes(r.id));
      const items = found.map((r) => ({ id: r.id, title: String(r.name), detail: null }));
      return json(res, 200, { data: { items } });
    }
    if (req.path === `/api${sessions.path}`) {
      const q = req.query;
      rows = spec.hearings.filter(
        (h) =>
          (!q.get('from') || h.date >= q.get('from')!) &&
          (!q.get('to') || h.date <= q.get('to')!) &&
          (!q.get('lawyerId') || String(h.lawyerId) === q.get('lawyerId')) &&
          (!q.get('employeeId') ||
            String(h.lawyerId) === q.get('employeeId') ||
            (spec.responsibleOf?.[h.id] ?? []).map(String).includes(q.get('employeeId')!)) &&
          (!q.get('courtId') || String(h.courtId) === q.get('courtId')) &&
          (!q.get('branchId') || String(spec.branchOf?.[h.id]) === q.get('branchId')),
      );
    } else {
      const list = lists[req.path.replace(/^\/api/, '')];
      if (!list) return json(res, 404, { message: 'Not found' });
      rows = list.map((r) => ({ createdAt: stamp, updatedAt: stamp, status: true, ...r }));
    }
    const items = rows.slice((page - 1) * pageSize, page * pageSize);
    return json(res, 200, { data: { items, total: rows.length, page, pageSize } });
  });
  return {
    ...server,
    /** The hearings list requests, as sent. */
    hearingRequests: () => server.calls('GET', `/api${sessions.path}`),
  };
}
