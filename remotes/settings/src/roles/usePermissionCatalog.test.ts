import { permissions } from '@mizan/contracts';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, signIn } from '../test/render';
import { fetchAllPermissions } from './usePermissionCatalog';

const path = `/api${permissions.path}`;
const catalog = Array.from({ length: 230 }, (_, i) => ({
  id: i + 1,
  key: `group${Math.floor(i / 8)}.action${i % 8}`,
  group: `group${Math.floor(i / 8)}`,
}));

describe('fetchAllPermissions', () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer({
      [`GET ${path}`]: (req) => {
        const page = Number(req.query.get('page'));
        const pageSize = Number(req.query.get('pageSize'));
        const items = catalog.slice((page - 1) * pageSize, page * pageSize);
        return { body: { data: { items, total: catalog.length, page, pageSize } } };
      },
    });
    pointSdkAt(server.url);
    captureToasts();
    signIn(['roles.update']);
  });
  afterAll(() => server.close());

  it('pages through the whole catalogue, 100 a page', async () => {
    const rows = await fetchAllPermissions();
    expect(rows.map((r) => r.id)).toEqual(catalog.map((r) => r.id));
    const calls = server.calls('GET', path);
    expect(calls.map((c) => c.query.get('page'))).toEqual(['1', '2', '3']);
    expect(calls.every((c) => c.query.get('pageSize') === '100')).toBe(true);
  });
});
