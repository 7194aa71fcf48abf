import { initI18n, loadAppTexts } from '@mizan/i18n';
import { autoConnect, restoreSession, sdkStore, sessionEvents } from '@mizan/sdk';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { appRoutes } from './app/routes';
import { prefetchDashboardOnSignIn } from './dashboard/prefetch';
import { createLazyFederationLoader } from './remotes/lazyFederationLoader';
import { preloadScreenOf } from './remotes/preload';
import { resumeChatOutbox } from './remotes/resumeChatOutbox';
import { restoreThemeConfig } from './theme/themeConfig';

async function start(): Promise<void> {
  const loader = createLazyFederationLoader();
  preloadScreenOf(window.location.pathname, loader);
  // Stored session and theme first, so the first render already has the right language and user.
  const [session, theme] = await Promise.all([restoreSession(), restoreThemeConfig(sdkStore)]);
  prefetchDashboardOnSignIn();
  resumeChatOutbox(loader);
  // The login page gets the signed-out pages' texts only; the others come with a session.
  await initI18n(theme.locale, { app: session.token !== null });
  sessionEvents.on('established', () => void loadAppTexts().catch(() => undefined));
  // The WebSocket connects 1 s after load when a token exists, and follows the token.
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
