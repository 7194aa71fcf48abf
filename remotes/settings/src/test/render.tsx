import {
  configureNotifier,
  createQueryClient,
  http,
  sdkStore,
  tokenAtom,
  userAtom,
  type AuthUser,
} from '@mizan/sdk';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';

/** Signs a test user in with exactly these permission keys (no storage, no server). */
export function signIn(permissions: string[]): void {
  sdkStore.set(tokenAtom, 'test-token');
  sdkStore.set(userAtom, { id: 1, name: 'Admin', permissions, Roles: [] } as unknown as AuthUser);
}

/** Points the SDK's one HTTP client at the test server. */
export function pointSdkAt(url: string): void {
  http.defaults.baseURL = `${url}/api`;
}

/** Collects the SDK's toasts instead of showing them. */
export function captureToasts() {
  const toasts = {
    success: [] as string[],
    error: [] as string[],
    warning: [] as string[],
    info: [] as string[],
  };
  configureNotifier({
    success: (m) => toasts.success.push(m),
    error: (m) => toasts.error.push(m),
    warning: (m) => toasts.warning.push(m),
    info: (m) => toasts.info.push(m),
  });
  return toasts;
}

/** Renders a screen inside the providers the host gives it (antd, query cache, router). */
export function renderScreen(element: ReactNode) {
  const queryClient = createQueryClient();
  return render(
    // As the host's provider: no click wave, no virtual lists (seed §9).
    <ConfigProvider wave={{ disabled: true }} virtual={false}>
      <App>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter>{element}</MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
}
