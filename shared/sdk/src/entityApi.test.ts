import { courts, defineEntity, employees, roles } from '@mizan/contracts';
import { initI18n } from '@mizan/i18n';
import { entityApi, toFormData } from './entityApi';
import { http, isApiError } from './http';
import { configureNotifier } from './notifier';
import { json, startServer } from './testing/apiServer';

jest.mock('./fingerprint', () => ({ getFingerprint: jest.fn(async () => undefined) }));

const TOTAL = 250;
let server: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  await initI18n('ar');
  configureNotifier({ success: jest.fn(), error: jest.fn(), warning: jest.fn(), info: jest.fn() });
  server = await startServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (req.method === 'GET' && url.pathname === '/api/admin/settings/courts/courts') {
      const pageNo = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('pageSize'));
      const items = Array.from(
        { length: Math.max(0, Math.min(size, TOTAL - (pageNo - 1) * size)) },
        (_, i) => ({
          id: (pageNo - 1) * size + i + 1,
        }),
      );
      json(res, 200, { data: { items, total: TOTAL, page: pageNo, pageSize: size } });
      return;
    }
    json(res, 200, { data: { id: 7 } });
  });
  http.defaults.baseURL = `${server.url}/api`;
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
});

describe('entityApi', () => {
  it('lists with the query of the API (docs/architecture.md), leaving out empty filters', async () => {
    await entityApi.list(courts, {
      page: 2,
      pageSize: 20,
      sort: 'name:asc',
      q: '',
      courtType: undefined,
      status: true,
    });
    expect(server.seen[0]!.url).toBe(
      '/api/admin/settings/courts/courts?page=2&pageSize=20&sort=name:asc&status=true',
    );
  });

  it('exports every page, 100 at a time, reporting progress', async () => {
    const progress: [number, number][] = [];
    const rows = await entityApi.exportAll(
      courts,
      { q: 'x' },
      { onProgress: (loaded, total) => progress.push([loaded, total]) },
    );
    expect(rows).toHaveLength(TOTAL);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    expect(progress).toEqual([
      [100, TOTAL],
      [200, TOTAL],
      [250, TOTAL],
    ]);
    expect(server.seen.map((s) => new URL(s.url, 'http://x').searchParams.get('page'))).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('stops an export when cancelled', async () => {
    const controller = new AbortController();
    const run = entityApi.exportAll(
      courts,
      {},
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    // The abort itself, not some other failure: no second page was asked for.
    const error: unknown = await run.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(isApiError(error)).toBe(false);
    expect(server.seen).toHaveLength(1);
  });

  it('creates with JSON when no new file is attached, multipart when one is', async () => {
    await entityApi.create(employees, {
      name: 'سارة',
      email: 's@x.com',
      username: 'sara',
      password: 'secret123',
      files: [],
    });
    expect(server.seen[0]!.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(server.seen[0]!.body)).toEqual({
      name: 'سارة',
      email: 's@x.com',
      username: 'sara',
      password: 'secret123',
    });

    const file = new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' });
    await entityApi.update(employees, 7, { name: 'سارة', roleIds: [1, 2], files: [file] });
    const sent = server.seen[1]!;
    expect(sent.method).toBe('PUT');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toContain('filename="cv.pdf"');
    expect(sent.body.match(/name="roleIds"/g)).toHaveLength(2);
    expect(sent.body).toMatch(/name="id"\r\n\r\n7\r\n/);
  });

  it('toggles status and ban on their routes', async () => {
    await entityApi.setStatus(courts, 3);
    await entityApi.setBaned(roles, 4, true);
    await entityApi.setStatus(courts, 3, { value: false, updatedAt: '2024-05-01T09:30:00.000Z' });
    await entityApi.setBaned(roles, 4, { updatedAt: '2024-05-01T09:30:00.000Z' });
    await expect(entityApi.setBaned(courts, 3)).rejects.toThrow('no ban toggle');
    expect(server.seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual([
      'PATCH /api/admin/settings/courts/courts/status/3 {}',
      'PATCH /api/employees/roles/baned/4 {"baned":true}',
      'PATCH /api/admin/settings/courts/courts/status/3 {"status":false,"updatedAt":"2024-05-01T09:30:00.000Z"}',
      'PATCH /api/employees/roles/baned/4 {"updatedAt":"2024-05-01T09:30:00.000Z"}',
    ]);
  });

  it('deletes a row and an attached file through the declared route', async () => {
    await entityApi.remove(courts, 9);
    await entityApi.remove(courts, 9, undefined, '2024-05-01T09:30:00.000Z');
    await entityApi.deleteFile(employees, 7, 12);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'DELETE /api/admin/settings/courts/courts/9',
      'DELETE /api/admin/settings/courts/courts/9?updatedAt=2024-05-01T09%3A30%3A00.000Z',
      'DELETE /api/employees/employees/delete/file/7/12',
    ]);
  });

  it('deletes a file without the owner when the route does not name it; asks for it when it does', async () => {
    const scans = defineEntity({
      name: 'scans',
      path: '/admin/scans',
      remote: 'clients',
      fields: {
        name: { type: 'string' },
        files: { type: 'files', accept: ['application/pdf'], maxSize: 10, maxCount: 2 },
      },
      fileDeletePath: '/files/:fileId',
    });
    await entityApi.deleteFile(scans, null, 12);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['DELETE /api/admin/scans/files/12']);
    await expect(entityApi.deleteFile(employees, null, 12)).rejects.toThrow(/owner's id/);
    expect(server.seen).toHaveLength(1);
  });
});

describe(toFormData.name, () => {
  it('sends plain fields as text, arrays as repeated keys, null as empty, stored files not at all', () => {
    const stored = { id: 1, originalName: 'old.pdf', mimeType: 'application/pdf', size: 1, createdAt: '' };
    const file = new File(['x'], 'new.pdf');
    const form = toFormData(employees, {
      name: 'a',
      branchId: null,
      roleIds: [3, 4],
      files: [stored, file],
      hireDate: undefined,
    });
    expect([...form.keys()]).toEqual(['name', 'branchId', 'roleIds', 'roleIds', 'files']);
    expect(form.get('branchId')).toBe('');
    expect((form.get('files') as File).name).toBe('new.pdf');
  });
});
