import { ROUTES } from '@mizan/contracts';
import { notify, sdkStore, tokenAtom, userAtom, wsClient } from '@mizan/sdk';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { SETTINGS_ANSWER, serveApiForFile, type Answer } from '../test/apiServer';
import { makeUser, renderApp, resetPage, signIn } from '../test/renderApp';

const user = makeUser(['dashboard.view']);
let checkAnswer: Answer = { body: { data: { user, token: 'test-token' } } };

const api = serveApiForFile({
  'GET /api/auth/systemSettings': SETTINGS_ANSWER,
  'POST /api/auth/check': () => checkAnswer,
  'POST /api/auth/logout': { body: { data: { ok: true } } },
});

/**
 * Toasts as the SDK raises them. A toast shows for a few seconds: on a loaded machine a DOM query
 * can miss it (the page behind it renders meanwhile), so the messages are read here.
 */
const toasts: string[] = [];

beforeEach(async () => {
  await resetPage();
  api.server?.seen.splice(0);
  toasts.splice(0);
  for (const level of ['success', 'error'] as const) {
    const original = notify[level];
    jest.spyOn(notify, level).mockImplementation((content?: string) => {
      toasts.push(`${level}: ${content ?? ''}`);
      original(content);
    });
  }
});

afterEach(() => jest.restoreAllMocks());

describe('session', () => {
  it('checks the stored token on load; a failed check clears it and goes home with the message', async () => {
    checkAnswer = { status: 401, body: { message: 'Session expired' } };
    await signIn(user);
    let router!: ReturnType<typeof renderApp>['router'];
    await act(async () => {
      ({ router } = renderApp('/admin/dashboard'));
    });
    expect(await screen.findByText('Error verifying the session')).toBeInTheDocument();
    expect(sdkStore.get(tokenAtom)).toBeNull();
    expect(sdkStore.get(userAtom)).toBeNull();
    // Home, which sends a signed-out visitor on to the login page.
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.login));
  });

  it('tells a signed-in employee whose socket the server closed that the account was banned', async () => {
    checkAnswer = { body: { data: { user, token: 'test-token' } } };
    await signIn(user);
    let router!: ReturnType<typeof renderApp>['router'];
    await act(async () => {
      ({ router } = renderApp('/admin/dashboard'));
    });
    expect(await screen.findByText('Welcome, Huda Salem')).toBeInTheDocument();
    // The ban revoked the session: the hub closes the socket (4403), the check answers why.
    checkAnswer = { status: 403, body: { message: 'Your account is banned', code: 'forbidden' } };
    await act(async () => {
      wsClient.events.emit('rejected', { code: 4403, reason: 'employeeBanned' });
    });
    await waitFor(() => expect(toasts).toContain('error: Your account is banned'));
    expect(toasts.join('\n')).not.toContain('Error verifying the session');
    expect(sdkStore.get(tokenAtom)).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.login));
  });

  it('does not check again when the socket closed because this session signed out', async () => {
    checkAnswer = { body: { data: { user, token: 'test-token' } } };
    await signIn(user);
    await act(async () => {
      renderApp('/admin/dashboard');
    });
    expect(await screen.findByText('Welcome, Huda Salem')).toBeInTheDocument();
    const checks = () => api.server?.seen.filter((r) => r.path === '/api/auth/check').length ?? 0;
    const before = checks();
    await act(async () => {
      wsClient.events.emit('rejected', { code: 4403, reason: 'loggedOut' });
    });
    expect(checks()).toBe(before);
    expect(sdkStore.get(tokenAtom)).toBe('test-token');
  });

  it('signs out from the user menu: token revoked and cleared, home, "signed out successfully"', async () => {
    checkAnswer = { body: { data: { user, token: 'test-token' } } };
    await signIn(user);
    let router!: ReturnType<typeof renderApp>['router'];
    await act(async () => {
      ({ router } = renderApp('/admin/dashboard'));
    });
    expect(await screen.findByText('Welcome, Huda Salem')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Huda Salem' })[0]!);
    });
    await act(async () => {
      fireEvent.click(await screen.findByText('Sign out'));
    });
    await waitFor(() => expect(toasts).toContain('success: Signed out successfully'));
    expect(sdkStore.get(tokenAtom)).toBeNull();
    expect(
      api.server?.seen.some(
        (r) => r.path === '/api/auth/logout' && r.headers.authorization === 'Bearer test-token',
      ),
    ).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.login));
  });

  it('sends a visitor without a session to the login page, keeping the way back', async () => {
    let router!: ReturnType<typeof renderApp>['router'];
    await act(async () => {
      ({ router } = renderApp('/admin/profile?tab=password'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.login));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      '/admin/profile?tab=password',
    );
  });
});
