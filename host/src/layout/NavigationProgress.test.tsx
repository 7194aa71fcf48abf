import { act, screen } from '@testing-library/react';
import type { RemoteRoute } from '@mizan/build/routes';
import { SETTINGS_ANSWER, serveApiForFile } from '../test/apiServer';
import { makeUser, renderApp, resetPage, signIn } from '../test/renderApp';

const user = makeUser(['dashboard.view', 'continents.view']);

serveApiForFile({
  'GET /api/auth/systemSettings': SETTINGS_ANSWER,
  'POST /api/auth/check': { body: { data: { user, token: 'test-token' } } },
});

beforeEach(async () => {
  await resetPage();
  await signIn(user);
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
