import { loadRemote, preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { UNAVAILABLE } from './federationPlugin';
import { createFederationLoader, RemoteUnavailableError, validRoutes } from './loadRemoteRoutes';
import { parseRemotesManifest } from './manifest';
import { remoteForPath } from './remoteForPath';
import { getRemoteStatuses, resetRemoteStatuses } from './remoteStatus';
import type { BuildInfo } from './compat';
import { getLoadedRemotes } from './loadedRemotes';
import { getMenu, resetRemoteMenus } from './remoteMenu';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  preloadRemote: jest.fn(),
  registerRemotes: jest.fn(),
  registerPlugins: jest.fn(),
}));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;
const mockedRegister = registerRemotes as jest.MockedFunction<typeof registerRemotes>;
const mockedPreload = preloadRemote as jest.MockedFunction<typeof preloadRemote>;
const manifest = { settings: 'https://settings.example/mf-manifest.json' };
const HOST: BuildInfo = {
  name: 'host',
  version: '0.1.0',
  shared: { react: '19.3.1', '@mizan/sdk': '0.1.0' },
};
const fetchInfo = async (): Promise<BuildInfo> => ({
  name: 'settings',
  version: '0.1.0-1',
  shared: HOST.shared,
});

async function reason(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => new Error('loaded'),
    (e: unknown) => e,
  );
  if (!(error instanceof RemoteUnavailableError)) throw error;
  return error.reason;
}

beforeEach(() => {
  jest.clearAllMocks();
  resetRemoteStatuses();
  resetRemoteMenus();
});

describe('createFederationLoader', () => {
  it('registers the remote from remotes.json and returns its routes', async () => {
    const route = { path: '/admin/settings/places/continents', permission: 'continents.view', element: null };
    mockedLoadRemote.mockResolvedValue({ default: [route] });
    const load = createFederationLoader({ fetchInfo, fetchManifest: async () => manifest });
    await expect(load('settings')).resolves.toEqual([route]);
    expect(mockedRegister).toHaveBeenCalledWith([{ name: 'settings', entry: manifest.settings }], {
      force: false,
    });
    expect(mockedLoadRemote).toHaveBeenCalledWith('settings/routes');
    expect(getRemoteStatuses().settings).toBe('ready');
  });

  it('reports a remote missing from remotes.json, and a manifest that cannot be read', async () => {
    expect(
      await reason(createFederationLoader({ fetchInfo, fetchManifest: async () => ({}) })('legal')),
    ).toBe('not-configured');
    const broken = createFederationLoader({
      fetchInfo,
      fetchManifest: async () => Promise.reject(new Error('503')),
    });
    expect(await reason(broken('settings'))).toBe('manifest');
    expect(getRemoteStatuses().settings).toBe('unavailable');
  });

  it("turns the runtime plugin's stand-in module into unavailable", async () => {
    mockedLoadRemote.mockResolvedValue({ [UNAVAILABLE]: true, error: new Error('404') });
    expect(
      await reason(createFederationLoader({ fetchInfo, fetchManifest: async () => manifest })('settings')),
    ).toBe('load');
  });

  it('gives up on a remote that does not answer in time', async () => {
    mockedLoadRemote.mockReturnValue(new Promise(() => undefined));
    const load = createFederationLoader({ fetchInfo, fetchManifest: async () => manifest, timeoutMs: 30 });
    expect(await reason(load('settings'))).toBe('timeout');
  });

  it('re-reads remotes.json and re-registers with force on a fresh attempt', async () => {
    const fetchManifest = jest.fn(async () => manifest);
    let routeLoads = 0;
    mockedLoadRemote.mockImplementation(async (id: string) => {
      if (id.endsWith('/routes') && routeLoads++ === 0) throw new Error('ChunkLoadError');
      return { default: [] };
    });
    const load = createFederationLoader({ fetchInfo, fetchManifest });
    expect(await reason(load('settings'))).toBe('load');
    await expect(load('settings', { fresh: true })).resolves.toEqual([]);
    expect(fetchManifest).toHaveBeenCalledTimes(2);
    expect(mockedRegister).toHaveBeenLastCalledWith([{ name: 'settings', entry: manifest.settings }], {
      force: true,
    });
  });

  it('rejects a module whose default export is not a route list', async () => {
    mockedLoadRemote.mockResolvedValue({ default: { path: '/admin/x' } });
    expect(
      await reason(createFederationLoader({ fetchInfo, fetchManifest: async () => manifest })('settings')),
    ).toBe('invalid');
  });
});

describe('versions and menu of a remote', () => {
  const route = { path: '/admin/settings/places/continents', permission: 'continents.view', element: null };
  const loader = (info: BuildInfo | null) =>
    createFederationLoader({ fetchManifest: async () => manifest, fetchInfo: async () => info, host: HOST });

  it('refuses a remote built against an incompatible singleton before its entry runs, and says why', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const info = { name: 'settings', version: '0.2.0-5', shared: { react: '20.0.0', '@mizan/sdk': '0.1.2' } };
    expect(await reason(loader(info)('settings'))).toBe('incompatible');
    expect(mockedRegister).not.toHaveBeenCalled();
    expect(mockedLoadRemote).not.toHaveBeenCalled();
    expect(getRemoteStatuses().settings).toBe('unavailable');
    expect(error).toHaveBeenCalledWith(
      'Remote "settings" 0.2.0-5 refused: react 20.0.0 (remote) is not compatible with 19.3.1 (host)',
    );
    error.mockRestore();
  });

  it('records the version of a loaded remote and takes its menu section', async () => {
    const remoteMenu = [
      {
        key: 'places',
        items: [
          {
            key: 'planets',
            route: '/admin/settings/places/planets',
            permission: 'planets.view',
            remote: 'settings',
          },
        ],
      },
    ];
    mockedLoadRemote.mockImplementation(async (id: string) => ({
      default: id.endsWith('/menu') ? remoteMenu : [route],
    }));
    const info = { name: 'settings', version: '0.1.0-20261123', shared: { react: '19.0.0' } };
    await loader(info)('settings');
    expect(mockedLoadRemote).toHaveBeenCalledWith('settings/menu');
    expect(getLoadedRemotes().settings).toEqual(info);
    const places = getMenu().find((entry) => entry.key === 'places');
    expect(places && 'items' in places ? places.items.map((i) => i.key) : []).toEqual(['planets']);
  });

  it('loads a remote that declares nothing, with a warning', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockedLoadRemote.mockResolvedValue({ default: [route] });
    await expect(loader(null)('settings')).resolves.toEqual([route]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('declares no versions'));
    expect(getLoadedRemotes().settings).toBeNull();
    warn.mockRestore();
  });
});

describe('prepare: fetching ahead without running a remote', () => {
  const two = { ...manifest, tasks: 'https://tasks.example/mf-manifest.json' };

  it('registers each remote and fetches its manifest and entry only, with no module run and no status', async () => {
    const fetchInfo = jest.fn(async (entry: string) => ({
      name: entry.includes('tasks') ? 'tasks' : 'settings',
      version: '0.1.0',
      shared: HOST.shared,
    }));
    const load = createFederationLoader({ fetchManifest: async () => two, fetchInfo, host: HOST });
    await load.prepare?.();
    expect(mockedRegister.mock.calls).toEqual([
      [[{ name: 'settings', entry: two.settings }], { force: false }],
      [[{ name: 'tasks', entry: two.tasks }], { force: false }],
    ]);
    expect(mockedPreload.mock.calls.map(([options]) => options.map((o) => o.nameOrAlias))).toEqual([
      ['settings'],
      ['tasks'],
    ]);
    // Every file of every exposed module is filtered out: the entry alone is fetched.
    const [[{ filter }]] = mockedPreload.mock.calls[0]!;
    expect(filter?.('https://settings.example/static/js/routes.js')).toBe(false);
    expect(mockedLoadRemote).not.toHaveBeenCalled();
    expect(getRemoteStatuses()).toEqual({});

    // The load that follows starts from there: the declaration is not read again.
    mockedLoadRemote.mockResolvedValue({ default: [] });
    await load('settings');
    expect(fetchInfo).toHaveBeenCalledTimes(2);
    expect(mockedRegister).toHaveBeenCalledTimes(2);
  });

  it('leaves out an incompatible remote, and goes on past a remote that fails', async () => {
    const fetchInfo = async (entry: string): Promise<BuildInfo> =>
      entry.includes('tasks')
        ? { name: 'tasks', version: '0.1.0', shared: { react: '20.0.0' } }
        : { name: 'settings', version: '0.1.0', shared: HOST.shared };
    mockedPreload.mockRejectedValueOnce(new Error('preloadRemote failed to load 1 resource(s).'));
    const load = createFederationLoader({
      fetchManifest: async () => ({ ...two, legal: 'https://legal.example/mf-manifest.json' }),
      fetchInfo,
      host: HOST,
    });
    await expect(load.prepare?.()).resolves.toBeUndefined();
    expect(mockedPreload.mock.calls.map(([options]) => options[0]?.nameOrAlias)).toEqual([
      'settings',
      'legal',
    ]);
    expect(mockedRegister.mock.calls.map(([remotes]) => remotes[0]?.name)).toEqual(['settings', 'legal']);
  });

  it('does nothing when remotes.json cannot be read, and the next load reads it again', async () => {
    const fetchManifest = jest
      .fn<Promise<typeof manifest>, []>()
      .mockRejectedValueOnce(new Error('503'))
      .mockResolvedValue(manifest);
    mockedLoadRemote.mockResolvedValue({ default: [] });
    const load = createFederationLoader({ fetchManifest, fetchInfo, host: HOST });
    await expect(load.prepare?.()).resolves.toBeUndefined();
    expect(mockedPreload).not.toHaveBeenCalled();
    await expect(load('settings')).resolves.toEqual([]);
    expect(fetchManifest).toHaveBeenCalledTimes(2);
  });

  it('leaves a remote already loading to its load', async () => {
    mockedLoadRemote.mockReturnValue(new Promise(() => undefined));
    const load = createFederationLoader({ fetchManifest: async () => manifest, fetchInfo, host: HOST });
    void load('settings');
    await load.prepare?.();
    expect(mockedPreload).not.toHaveBeenCalled();
  });
});

describe('route checks', () => {
  it('keeps only well-formed absolute admin routes', () => {
    const good = { path: '/admin/a', permission: 'a.view', element: null };
    expect(
      validRoutes('x', [
        good,
        { path: 'admin/b', permission: 'b.view', element: null },
        { path: '/admin/c', element: null },
        null,
      ]),
    ).toEqual([good]);
  });

  it('finds the owning remote by the longest route prefix', () => {
    expect(remoteForPath('/admin/settings/places/continents')).toBe('settings');
    expect(remoteForPath('/admin/settings/places/continents/5/edit')).toBe('settings');
    expect(remoteForPath('/admin/customers/settings/types')).toBe('clients');
    expect(remoteForPath('/admin/lawsuits/tasks/3')).toBe('tasks');
    expect(remoteForPath('/admin/lawsuits/99')).toBe('legal');
    expect(remoteForPath('/admin/chats')).toBe('chat');
    expect(remoteForPath('/admin/employees/roles')).toBe('settings');
    expect(remoteForPath('/admin/dashboardish')).toBeUndefined();
  });
});

describe('parseRemotesManifest', () => {
  it('resolves relative URLs and drops malformed entries', () => {
    expect(
      parseRemotesManifest(
        { settings: '/remotes/settings/mf-manifest.json', 'bad name': '/x', legal: 42, chat: '' },
        'https://mizan.example/admin/dashboard',
      ),
    ).toEqual({ settings: 'https://mizan.example/remotes/settings/mf-manifest.json' });
  });

  it('refuses a manifest that is not an object', () => {
    expect(() => parseRemotesManifest(['settings'], 'https://mizan.example/')).toThrow('remotes.json');
  });
});
