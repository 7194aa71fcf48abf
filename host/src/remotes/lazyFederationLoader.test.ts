import type { RemoteRoute } from '@mizan/build/routes';
import { createLazyFederationLoader } from './lazyFederationLoader';
import type { RemoteRoutesLoader } from './loadRemoteRoutes';

const routes: RemoteRoute[] = [{ path: '/admin/settings/x', permission: 'x.view', element: null }];

describe('createLazyFederationLoader', () => {
  it('downloads the federation loader at the first call only, and passes every call on', async () => {
    const remoteLoader = jest.fn<ReturnType<RemoteRoutesLoader>, Parameters<RemoteRoutesLoader>>(
      async () => routes,
    );
    const load = jest.fn(async () => ({ createFederationLoader: () => remoteLoader }));
    const loader = createLazyFederationLoader(load);
    expect(load).not.toHaveBeenCalled();
    await expect(Promise.all([loader('settings'), loader('tasks', { fresh: true })])).resolves.toEqual([
      routes,
      routes,
    ]);
    await loader('settings');
    expect(load).toHaveBeenCalledTimes(1);
    expect(remoteLoader.mock.calls).toEqual([
      ['settings', undefined],
      ['tasks', { fresh: true }],
      ['settings', undefined],
    ]);
  });

  it('tries the download again after it failed', async () => {
    const load = jest
      .fn<Promise<{ createFederationLoader: () => RemoteRoutesLoader }>, []>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValue({ createFederationLoader: () => async () => routes });
    const loader = createLazyFederationLoader(load);
    await expect(loader('settings')).rejects.toThrow('chunk failed');
    await expect(loader('settings', { fresh: true })).resolves.toBe(routes);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('passes prepare on once its code is there, and settles quietly when that code cannot be had', async () => {
    const prepare = jest.fn(async () => undefined);
    const remoteLoader: RemoteRoutesLoader = Object.assign(async () => routes, { prepare });
    const loader = createLazyFederationLoader(async () => ({ createFederationLoader: () => remoteLoader }));
    await loader.prepare?.();
    expect(prepare).toHaveBeenCalledTimes(1);

    const offline = createLazyFederationLoader(() => Promise.reject(new Error('chunk failed')));
    await expect(offline.prepare?.()).resolves.toBeUndefined();
  });
});
