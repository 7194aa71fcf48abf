import { createFederationLoader, type RemoteRoutesLoader } from './loadRemoteRoutes';
import { preloadScreenOf } from './preload';
import { loadRemote } from '@module-federation/enhanced/runtime';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  registerRemotes: jest.fn(),
  registerPlugins: jest.fn(),
}));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;
const fetchInfo = async () => ({ name: 'settings', version: '0.1.0', shared: {} });
/** Loads of `./routes` (each load also asks for `./menu` beside it). */
const routeLoads = () => mockedLoadRemote.mock.calls.filter(([id]) => id.endsWith('/routes')).length;
const route = { path: '/admin/settings/places/countries', permission: 'countries.view', element: null };

describe('preloadScreenOf', () => {
  beforeEach(() => mockedLoadRemote.mockReset());

  it("starts loading a direct link's remote, and the screen's own load joins it", async () => {
    let release!: () => void;
    mockedLoadRemote.mockImplementation((id: string) =>
      id.endsWith('/menu')
        ? Promise.resolve({ default: [] })
        : new Promise((resolve) => (release = () => resolve({ default: [route] }))),
    );
    const fetchManifest = jest.fn(async () => ({
      settings: 'http://remotes.test/settings/mf-manifest.json',
    }));
    const loader = createFederationLoader({ fetchManifest, fetchInfo });
    preloadScreenOf('/admin/settings/places/countries', loader);
    await new Promise((r) => setTimeout(r, 0));
    // Already under way before any route rendered.
    expect(fetchManifest).toHaveBeenCalledTimes(1);
    expect(routeLoads()).toBe(1);
    const screen = loader('settings');
    release();
    expect(await screen).toEqual([route]);
    expect(routeLoads()).toBe(1);
  });

  it('a failed preload is not kept: the next load starts again', async () => {
    let failNext = true;
    mockedLoadRemote.mockImplementation(async (id: string) => {
      if (id.endsWith('/routes') && failNext) {
        failNext = false;
        throw new Error('down');
      }
      return { default: id.endsWith('/menu') ? [] : [route] };
    });
    const loader = createFederationLoader({
      fetchManifest: async () => ({ settings: 'http://x/m.json' }),
      fetchInfo,
    });
    preloadScreenOf('/admin/settings/places/countries', loader);
    await new Promise((r) => setTimeout(r, 0));
    await expect(loader('settings')).resolves.toEqual([route]);
    expect(routeLoads()).toBe(2);
  });

  it('loads nothing for the login page or a host screen', () => {
    const loader: RemoteRoutesLoader = jest.fn(async () => []);
    preloadScreenOf('/login', loader);
    preloadScreenOf('/admin/dashboard', loader);
    expect(loader).not.toHaveBeenCalled();
  });
});
