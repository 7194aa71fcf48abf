import { act, fireEvent, screen } from '@testing-library/react';
import type { RemoteRoute } from '@mizan/build/routes';
import { SETTINGS_ANSWER, serveApiForFile } from '../test/apiServer';
import { makeUser, renderApp, resetPage, signIn } from '../test/renderApp';
import type { RemoteRoutesLoader } from './loadRemoteRoutes';
import { RemoteUnavailableError } from './loadRemoteRoutes';

const user = makeUser(['dashboard.view', 'continents.view', 'customerTypes.view']);

serveApiForFile({
  'GET /api/auth/systemSettings': SETTINGS_ANSWER,
  'POST /api/auth/check': { body: { data: { user, token: 'test-token' } } },
});

beforeEach(async () => {
  await resetPage();
  await signIn(user);
});

const continentsRoute = {
  path: '/admin/settings/places/continents',
  permission: 'continents.view',
  element: <h1>Continents screen</h1>,
};

describe('remote screens', () => {
  it('mounts the owning remote’s routes under the host router', async () => {
    const loader = jest.fn<ReturnType<RemoteRoutesLoader>, Parameters<RemoteRoutesLoader>>(async () => [
      continentsRoute,
    ]);
    await act(async () => {
      renderApp('/admin/settings/places/continents', loader);
    });
    expect(await screen.findByRole('heading', { name: 'Continents screen' })).toBeInTheDocument();
    expect(loader).toHaveBeenCalledWith('settings', { fresh: false });
  });

  it('shows "unavailable, retry" when the remote fails, keeps the shell, and loads it on retry', async () => {
    // React reports errors caught by a boundary on the console; expected here.
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let down = true;
    const loader = jest.fn<ReturnType<RemoteRoutesLoader>, Parameters<RemoteRoutesLoader>>(async (name) => {
      if (down) throw new RemoteUnavailableError(name, 'manifest');
      return [continentsRoute];
    });
    await act(async () => {
      renderApp('/admin/settings/places/continents', loader);
    });
    expect(await screen.findByText('This section is unavailable')).toBeInTheDocument();
    expect(screen.getByText(/The settings section could not be loaded/)).toBeInTheDocument();
    // The rest of the host goes on: header and navigation are still there.
    expect(screen.getByRole('navigation')).toBeInTheDocument();
    expect(screen.getByText('Unavailable')).toBeInTheDocument();

    down = false;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    expect(await screen.findByRole('heading', { name: 'Continents screen' })).toBeInTheDocument();
    expect(loader).toHaveBeenLastCalledWith('settings', { fresh: true });
    consoleError.mockRestore();
  });

  it('contains a remote screen that crashes, and lets its sibling screens render', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(): never {
      throw new Error('bug in a remote screen');
    }
    const loader: RemoteRoutesLoader = async () => [
      { path: '/admin/settings/places/countries', permission: 'continents.view', element: <Broken /> },
      continentsRoute,
    ];
    let router!: ReturnType<typeof renderApp>['router'];
    await act(async () => {
      ({ router } = renderApp('/admin/settings/places/countries', loader));
    });
    expect(await screen.findByText('This section is unavailable')).toBeInTheDocument();
    await act(async () => {
      await router.navigate('/admin/settings/places/continents');
    });
    expect(await screen.findByRole('heading', { name: 'Continents screen' })).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('shows the 403 page for a remote route without its permission', async () => {
    const loader: RemoteRoutesLoader = async () => [
      { path: '/admin/settings/places/countries', permission: 'countries.view', element: <h1>Countries</h1> },
    ];
    await act(async () => {
      renderApp('/admin/settings/places/countries', loader);
    });
    expect(await screen.findByText('You cannot access this page')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Countries' })).not.toBeInTheDocument();
  });

  it('answers 404 for a path no remote serves', async () => {
    const loader = jest.fn<ReturnType<RemoteRoutesLoader>, Parameters<RemoteRoutesLoader>>(async () => []);
    await act(async () => {
      renderApp('/admin/nowhere/at/all', loader);
    });
    expect(await screen.findByText('The page does not exist')).toBeInTheDocument();
    expect(loader).not.toHaveBeenCalled();
  });
});

describe('moving to a screen that is still loading', () => {
  it('keeps the screen on view with a progress bar, then shows the new one (no spinner between)', async () => {
    let release: (routes: RemoteRoute[]) => void = () => undefined;
    const remote = new Promise<RemoteRoute[]>((resolve) => (release = resolve));
    let view: ReturnType<typeof renderApp> | undefined;
    await act(async () => {
      view = renderApp('/admin/dashboard', () => remote);
    });
    const welcome = await screen.findByText(/Welcome/);
    expect(screen.queryByRole('progressbar', { name: 'Loading…' })).not.toBeInTheDocument();

    await act(async () => {
      await view!.router.navigate('/admin/settings/places/continents');
    });
    // The remote has not answered: the dashboard stays, the bar says something is coming.
    expect(welcome).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading…' })).not.toBeInTheDocument();

    await act(async () => {
      release([
        {
          path: '/admin/settings/places/continents',
          permission: 'continents.view',
          element: <h1>Continents screen</h1>,
        },
      ]);
      await remote;
    });
    expect(await screen.findByRole('heading', { name: 'Continents screen' })).toBeInTheDocument();
    expect(screen.queryByText(/Welcome/)).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading…' })).not.toBeInTheDocument();
  });
});
