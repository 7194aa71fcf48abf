import { initI18n } from '@mizan/i18n';
import { autoConnect, restoreSession, sdkStore } from '@mizan/sdk';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { appRoutes } from './app/routes';
import { prefetchDashboardOnSignIn } from './dashboard/prefetch';
import { createFederationLoader } from './remotes/loadRemoteRoutes';
import { preloadScreenOf } from './remotes/preload';
import { restoreThemeConfig } from './theme/themeConfig';

async function start(): Promise<void> {
  const loader = createFederationLoader();
  preloadScreenOf(window.location.pathname, loader);
  // Stored session and theme first, so the first render already has the right language and user.
  const [, theme] = await Promise.all([restoreSession(), restoreThemeConfig(sdkStore)]);
  prefetchDashboardOnSignIn();
  await initI18n(theme.locale);
  // Seed §4/§9: the WebSocket connects 1 s after load when a token exists, and follows the token.
  autoConnect();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  createRoot(root).render(
    <StrictMode>
      <App router={createBrowserRouter(appRoutes)} loader={loader} />
    </StrictMode>,
  );
}

void start();
