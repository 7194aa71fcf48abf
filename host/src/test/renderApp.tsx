import type { RemoteRoute } from '@mizan/build/routes';
import { DEFAULT_THEME_CONFIG } from '@mizan/contracts';
import {
  clearSession,
  configureNotifier,
  queryClient,
  sdkStore,
  setSession,
  type AuthUser,
} from '@mizan/sdk';
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { App } from '../app/App';
import { appRoutes, resetSessionCheck } from '../app/routes';
import type { RemoteRoutesLoader } from '../remotes/loadRemoteRoutes';
import { themeConfigAtom } from '../theme/themeConfig';

/** An employee as login answers it, holding exactly `permissions`. */
export function makeUser(permissions: string[], overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    id: 1,
    name: 'Huda Salem',
    email: 'huda@office.test',
    username: 'huda',
    status: true,
    baned: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    Roles: [{ id: 1, name: 'Lawyer', Permissions: permissions.map((key, i) => ({ id: i + 1, key })) }],
    permissions,
    passwordChangeRequired: false,
    ...overrides,
  } as AuthUser;
}

/** A loader that never reaches a network: every remote answers the given routes. */
export const staticLoader =
  (routes: RemoteRoute[] = []): RemoteRoutesLoader =>
  async () =>
    routes;

/** Starts from a fresh page: no session, default theme, empty caches. */
export async function resetPage(): Promise<void> {
  await clearSession('logout');
  queryClient.clear();
  sdkStore.set(themeConfigAtom, { ...DEFAULT_THEME_CONFIG, locale: 'en' });
  resetSessionCheck();
  configureNotifier(null);
}

export async function signIn(user: AuthUser, token = 'test-token'): Promise<void> {
  await setSession(token, user);
}

/** Renders the whole host app (one memory router over the real route table) at `path`. */
export function renderApp(path: string, loader: RemoteRoutesLoader = staticLoader()) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(<App router={router} loader={loader} />);
  return { ...view, router };
}
