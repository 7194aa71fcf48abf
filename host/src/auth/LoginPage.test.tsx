import { AREA_PERMISSIONS, ROUTES } from '@mizan/contracts';
import { http, sdkStore, tokenAtom, userAtom } from '@mizan/sdk';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { makeUser, renderApp, resetPage } from '../test/renderApp';

const OFFICE = 'مكتب العدالة للمحاماة';
const settings = {
  officeName: OFFICE,
  logoUrl: null,
  faviconUrl: null,
  primaryColor: '#0f766e',
  defaultLanguage: 'ar',
  defaultTheme: 'light',
  calendar: 'gregorian',
};
const lawyer = makeUser([AREA_PERMISSIONS.dashboardView, 'courts.view']);

let server: Awaited<ReturnType<typeof startApiServer>>;

beforeAll(async () => {
  server = await startApiServer({
    'GET /api/auth/systemSettings': { body: { data: settings } },
    'PUT /api/employees/employees/changePassword': { body: { data: {} } },
    'POST /api/auth/login': (req) => {
      const { email, password } = JSON.parse(req.body) as { email: string; password: string };
      if (password !== 'correct horse') return { status: 401, body: { message: 'Wrong email or password' } };
      const forced = email === 'new@office.test';
      const user = { ...lawyer, email, passwordChangeRequired: forced };
      return { body: { data: { user, token: `token-for-${email}`, passwordChangeRequired: forced } } };
    },
    'GET /api/employees/employees/profile': { body: { data: lawyer } },
  });
  http.defaults.baseURL = `${server.url}/api`;
});
afterAll(() => server.close());
beforeEach(async () => {
  await resetPage();
  server.seen.length = 0;
});

async function signInWith(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Email or username'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  });
}

describe('login page', () => {
  it("shows the office's name from the public system settings", async () => {
    renderApp(ROUTES.login);
    expect(await screen.findByText(OFFICE)).toBeInTheDocument();
    const call = server.seen.find((r) => r.path === '/api/auth/systemSettings');
    // Public call: no bearer token, no fingerprint.
    expect(call?.headers.authorization).toBeUndefined();
    await waitFor(() => expect(document.title).toBe(OFFICE));
  });

  it('signs in and follows the redirect parameter', async () => {
    const { router } = renderApp(`${ROUTES.login}?redirect=${encodeURIComponent('/admin/profile?tab=1')}`);
    await signInWith('huda@office.test', 'correct horse');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/profile'));
    expect(router.state.location.search).toBe('?tab=1');
    expect(sdkStore.get(tokenAtom)).toBe('token-for-huda@office.test');
    expect(await screen.findByText('Welcome back to the system')).toBeInTheDocument();
  });

  it('ignores a redirect that leaves the application', async () => {
    const { router } = renderApp(`${ROUTES.login}?redirect=${encodeURIComponent('//evil.example/phish')}`);
    await signInWith('huda@office.test', 'correct horse');
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.dashboard));
  });

  it('sends an employee who must change the password to change-password, with the warning', async () => {
    const { router } = renderApp(`${ROUTES.login}?redirect=/admin/profile`);
    await signInWith('new@office.test', 'correct horse');
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.changePassword));
    const warnings = await screen.findAllByText('You must change your password to continue');
    expect(warnings.length).toBeGreaterThan(0);
    // The signed-in area stays closed until the password is changed.
    await act(async () => {
      await router.navigate(ROUTES.dashboard);
    });
    expect(router.state.location.pathname).toBe(ROUTES.changePassword);
  });

  it('once the password is changed, takes its warning down: the next page loads without it', async () => {
    const { router } = renderApp(`${ROUTES.login}?redirect=/admin/profile`);
    await signInWith('new@office.test', 'correct horse');
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.changePassword));
    const toastText = () =>
      [...document.querySelectorAll('.ant-message-notice')].map((n) => n.textContent ?? '');
    await waitFor(() =>
      expect(toastText()).toEqual(expect.arrayContaining(['You must change your password to continue'])),
    );
    fireEvent.change(await screen.findByLabelText('Current password'), {
      target: { value: 'correct horse' },
    });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'correct horse 2' } });
    fireEvent.change(screen.getByLabelText('Confirm the new password'), {
      target: { value: 'correct horse 2' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    });
    await waitFor(() => expect(toastText()).toEqual(expect.arrayContaining(['Your password was changed'])));
    expect(toastText()).not.toContain('You must change your password to continue');
    expect(screen.queryByText('You must change your password to continue')).toBeNull();
  });

  it("shows the server's message when sign-in fails and stores nothing", async () => {
    const { router } = renderApp(ROUTES.login);
    await signInWith('huda@office.test', 'wrong');
    expect(await screen.findByText('Wrong email or password')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(ROUTES.login);
    expect(sdkStore.get(tokenAtom)).toBeNull();
    expect(sdkStore.get(userAtom)).toBeNull();
  });

  it('asks for both fields before calling the server', async () => {
    renderApp(ROUTES.login);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    });
    expect(await screen.findByText('Enter your email or username')).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    expect(server.seen.some((r) => r.path === '/api/auth/login')).toBe(false);
  });
});
