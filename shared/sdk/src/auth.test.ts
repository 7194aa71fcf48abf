import { initI18n } from '@mizan/i18n';
import { act, renderHook } from '@testing-library/react';
import {
  checkSession,
  hasPermission,
  loadSystemSettings,
  login,
  logout,
  systemSettingsAtom,
  UNREACHABLE_RETRY,
  useAuth,
} from './auth';
import { http, isApiError } from './http';
import { configureNotifier } from './notifier';
import { restoreSession, sdkStore, tokenAtom, userAtom } from './session';
import { SecureStorage, secureStorage } from './storage';
import { json, startServer } from './testing/apiServer';
import type { AuthUser } from './types';

// A token as long as the server's (43 characters): a two-letter one turns up in random ciphertext.
const TOKEN = 'q3V9xK2mL7pR4tY8wZ1nB6cF0hJ5sD2gA9eU4iO7kMx';

jest.mock('./fingerprint', () => ({
  getFingerprint: jest.fn(async () => ({ visitorId: 'v', session: 's' })),
}));

const user = {
  id: 1,
  name: 'مدير',
  email: 'admin@mizan.local',
  Roles: [{ id: 1, name: 'Administrator', Permissions: [{ id: 1, key: 'courts.view' }] }],
  permissions: ['courts.view', 'dashboard.view'],
  passwordChangeRequired: false,
} as unknown as AuthUser;

const notifier = { success: jest.fn(), error: jest.fn(), warning: jest.fn(), info: jest.fn() };
let server: Awaited<ReturnType<typeof startServer>>;
let settingsStatus = 200;
/** Answers a proxy gives before the next ones reach the server (502: an instance restarting). */
const proxyDown = { settings: 0, check: 0 };

beforeAll(async () => {
  await initI18n('ar');
  configureNotifier(notifier);
  server = await startServer((req, res) => {
    const body = req.body ? JSON.parse(req.body) : {};
    switch (req.url) {
      case '/api/auth/login':
        if (body.password === 'right')
          json(res, 200, { data: { user, token: TOKEN, passwordChangeRequired: false } });
        else if (body.password === 'change')
          json(res, 200, {
            data: {
              user: { ...user, passwordChangeRequired: true },
              token: 't2',
              passwordChangeRequired: true,
            },
          });
        else if (body.password === 'broken') json(res, 500, {});
        else json(res, 401, { message: 'البريد أو كلمة المرور غير صحيحة' });
        return;
      case '/api/auth/check':
        if (proxyDown.check > 0 && proxyDown.check--) json(res, 502, {});
        else if (req.headers.authorization === `Bearer ${TOKEN}`)
          json(res, 200, { data: { user, token: TOKEN } });
        else json(res, 401, { message: 'انتهت الجلسة' });
        return;
      case '/api/auth/logout':
        json(res, 200, { data: null });
        return;
      case '/api/auth/systemSettings':
        if (proxyDown.settings > 0 && proxyDown.settings--) json(res, 502, {});
        else
          json(res, settingsStatus, settingsStatus === 200 ? { data: { officeName: 'مكتب العدالة' } } : {});
        return;
      default:
        json(res, 404, {});
    }
  });
  http.defaults.baseURL = `${server.url}/api`;
  UNREACHABLE_RETRY.delaysMs = [20, 20];
});
afterAll(() => server.close());
beforeEach(async () => {
  jest.clearAllMocks();
  server.seen.length = 0;
  sdkStore.set(tokenAtom, null);
  sdkStore.set(userAtom, null);
  localStorage.clear();
  await secureStorage.clear();
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('login', () => {
  it('stores token and user encrypted and welcomes the user', async () => {
    const result = await login('admin@mizan.local', 'right');
    expect('token' in result && result.token).toBe(TOKEN);
    expect(sdkStore.get(tokenAtom)).toBe(TOKEN);
    expect(sdkStore.get(userAtom)).toEqual(user);
    expect(localStorage.getItem('auth_token')).not.toContain(TOKEN);
    expect(notifier.success).toHaveBeenCalledWith('مرحباً بعودتك إلى النظام');
  });

  it('warns when the password must be changed first', async () => {
    const result = await login('admin@mizan.local', 'change');
    expect('passwordChangeRequired' in result && result.passwordChangeRequired).toBe(true);
    expect(notifier.warning).toHaveBeenCalledWith('يجب عليك تغيير كلمة المرور للمتابعة');
    expect(notifier.success).not.toHaveBeenCalled();
  });

  it("shows the server's message on failure, once, and rethrows", async () => {
    const error = await login('admin@mizan.local', 'wrong').catch((e: unknown) => e);
    expect(isApiError(error) && error.status).toBe(401);
    expect(notifier.error).toHaveBeenCalledTimes(1);
    expect(notifier.error).toHaveBeenCalledWith('البريد أو كلمة المرور غير صحيحة');
    expect(sdkStore.get(tokenAtom)).toBeNull();
  });

  it("says 'error in login' when the server gives no message", async () => {
    await expect(login('admin@mizan.local', 'broken')).rejects.toBeDefined();
    expect(notifier.error).toHaveBeenCalledWith('خطأ في تسجيل الدخول');
  });
});

describe('session', () => {
  it('restoreSession puts the stored session back into the state', async () => {
    await login('admin@mizan.local', 'right');
    sdkStore.set(tokenAtom, null);
    sdkStore.set(userAtom, null);
    await expect(restoreSession()).resolves.toEqual({ token: TOKEN, user });
    expect(sdkStore.get(tokenAtom)).toBe(TOKEN);
  });

  it('follows a sign-out and a sign-in made in another tab', async () => {
    await login('admin@mizan.local', 'right');
    await restoreSession();
    const otherTab = new SecureStorage();
    const storageEvent = () =>
      window.dispatchEvent(new StorageEvent('storage', { key: 'auth_token', storageArea: localStorage }));

    await otherTab.remove('auth_token');
    await otherTab.remove('auth_user');
    storageEvent();
    await waitFor(() => sdkStore.get(tokenAtom) === null);
    expect(sdkStore.get(userAtom)).toBeNull();

    await otherTab.set('auth_token', 't9');
    await otherTab.set('auth_user', user);
    storageEvent();
    await waitFor(() => sdkStore.get(tokenAtom) === 't9');
    expect(sdkStore.get(userAtom)).toEqual(user);
  });

  it('check refreshes a valid session and clears a failed one with its toast', async () => {
    await login('admin@mizan.local', 'right');
    await expect(checkSession()).resolves.toBe(true);
    expect(server.seen.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);

    sdkStore.set(tokenAtom, 'stale');
    await expect(checkSession()).resolves.toBe(false);
    expect(sdkStore.get(tokenAtom)).toBeNull();
    expect(sdkStore.get(userAtom)).toBeNull();
    expect(notifier.error).toHaveBeenCalledTimes(1);
    expect(notifier.error).toHaveBeenCalledWith('خطأ في التحقق من الجلسة');
  });

  it('logout revokes on the server, clears everything and says so', async () => {
    await login('admin@mizan.local', 'right');
    await logout();
    expect(server.seen.at(-1)!.url).toBe('/api/auth/logout');
    expect(sdkStore.get(tokenAtom)).toBeNull();
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(localStorage.getItem('auth_user')).toBeNull();
    expect(notifier.success).toHaveBeenLastCalledWith('تم تسجيل الخروج بنجاح');
  });

  it('loads system settings without auth headers, and a failed load clears token and user', async () => {
    await login('admin@mizan.local', 'right');
    await expect(loadSystemSettings()).resolves.toEqual({ officeName: 'مكتب العدالة' });
    expect(server.seen.at(-1)!.headers.authorization).toBeUndefined();
    // Screens in the remotes read the settings (the calendar shown first) from the shared store.
    expect(sdkStore.get(systemSettingsAtom)).toEqual({ officeName: 'مكتب العدالة' });

    settingsStatus = 503;
    try {
      // The last good copy is still shown; the session is gone.
      await expect(loadSystemSettings()).resolves.toEqual({ officeName: 'مكتب العدالة' });
      expect(sdkStore.get(tokenAtom)).toBeNull();
      expect(sdkStore.get(userAtom)).toBeNull();
      expect(notifier.error).toHaveBeenCalledWith('مشكلة في الاتصال، يرجى المحاولة لاحقاً');
    } finally {
      settingsStatus = 200;
    }
  });
});

describe('a few seconds without a server', () => {
  it('a settings load and a session check that meet a 502 try again and keep the session, without a toast', async () => {
    await login('admin@mizan.local', 'right');
    jest.clearAllMocks();
    proxyDown.settings = 2;
    await expect(loadSystemSettings()).resolves.toEqual({ officeName: 'مكتب العدالة' });
    proxyDown.check = 2;
    await expect(checkSession()).resolves.toBe(true);
    expect(sdkStore.get(tokenAtom)).toBe(TOKEN);
    expect(sdkStore.get(userAtom)).toMatchObject({ id: 1 });
    expect(notifier.error).not.toHaveBeenCalled();
    expect(server.seen.filter((r) => r.url === '/api/auth/systemSettings')).toHaveLength(3);
  });

  it('a session check the proxy keeps answering 502 ends the session as a failed check', async () => {
    await login('admin@mizan.local', 'right');
    proxyDown.check = 3;
    await expect(checkSession()).resolves.toBe(false);
    expect(sdkStore.get(tokenAtom)).toBeNull();
    expect(server.seen.filter((r) => r.url === '/api/auth/check')).toHaveLength(3);
  });
});

describe('permissions', () => {
  it('hasPermission reads the flattened keys, or the roles when there are none', () => {
    expect(hasPermission(user, 'dashboard.view')).toBe(true);
    expect(hasPermission(user, 'courts.delete')).toBe(false);
    expect(hasPermission({ ...user, permissions: [] }, 'courts.view')).toBe(true);
    expect(hasPermission(null, 'courts.view')).toBe(false);
  });

  it('useAuth exposes the user and can() from the shared store', async () => {
    const { result } = renderHook(() => useAuth());
    expect(result.current.isAuthenticated).toBe(false);
    expect(result.current.can('courts.view')).toBe(false);
    await act(() => login('admin@mizan.local', 'right'));
    expect(result.current.isAuthenticated).toBe(true);
    expect(result.current.user?.name).toBe('مدير');
    expect(result.current.can('courts.view')).toBe(true);
    expect(result.current.can('employees.delete')).toBe(false);
  });
});
