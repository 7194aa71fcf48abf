// Test-only render helpers for screens of the ui package and the remotes: the providers the host
// gives a page, a signed-in user, the SDK pointed at a test server, toasts captured. Never imported
// by production code.
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import arEG from 'antd/locale/ar_EG';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  MemoryRouter,
  Route,
  Routes,
  useLocation,
  useNavigate,
  type NavigateFunction,
} from 'react-router-dom';
import {
  configureNotifier,
  createQueryClient,
  http,
  sdkStore,
  tokenAtom,
  userAtom,
  type AuthUser,
} from '@mizan/sdk';

/** Signs a test user in with exactly these permission keys (no storage, no server). */
export function signIn(permissions: string[], name = 'مدير'): void {
  sdkStore.set(tokenAtom, 'test-token');
  sdkStore.set(userAtom, { id: 1, name, permissions, Roles: [] } as unknown as AuthUser);
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

let lastLocation = '';
let navigate: NavigateFunction = () => undefined;
/** Exposes the router's location and navigate function to the test (the back button). */
function RouterProbe() {
  const location = useLocation();
  lastLocation = `${location.pathname}${location.search}`;
  navigate = useNavigate();
  return null;
}

/** Renders a page at a URL inside the providers the host gives it (RTL Arabic antd, query cache, router). */
export function renderAt(path: string, element: ReactNode) {
  const queryClient = createQueryClient();
  const result = render(
    <ConfigProvider direction="rtl" locale={arEG} wave={{ disabled: true }}>
      <App>
        <QueryClientProvider client={queryClient}>
          {/* A plain (non-data) router: data routers need the Fetch API's Request, absent in jsdom. */}
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={path.split('?')[0]} element={element} />
            </Routes>
            <RouterProbe />
          </MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
  return { ...result, queryClient, location: () => lastLocation, back: () => navigate(-1) };
}

/** Renders a screen inside the providers the host gives it (antd, query cache, router), English labels. */
export function renderScreen(element: ReactNode) {
  const queryClient = createQueryClient();
  return render(
    // As the host's provider: no click wave, no virtual lists.
    <ConfigProvider wave={{ disabled: true }} virtual={false}>
      <App>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter>{element}</MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
}
