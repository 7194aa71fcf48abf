import type { RemoteRoute } from '@mizan/build/routes';
import { ROUTES } from '@mizan/contracts';
import { Button, Result } from 'antd';
import {
  Component,
  lazy,
  useContext,
  useState,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes, useLocation } from 'react-router-dom';
import { RequirePermission } from '../auth/guards';
import { NotFoundPage } from '../pages/StatusPages';
import type { RemoteRoutesLoader } from './loadRemoteRoutes';
import { RemoteLoaderContext } from './remoteLoaderContext';
import { remoteForPath } from './remoteForPath';
import { setRemoteStatus } from './remoteStatus';

export { RemoteLoaderContext };

const ADMIN_PREFIX = `${ROUTES.adminBase}/`;

/** Remote routes are absolute; the area sits under `/admin/*`, so descendant paths drop `/admin/`. */
function RouteList({ routes }: { routes: RemoteRoute[] }) {
  return (
    <Routes>
      {routes.map((route) => (
        <Route
          key={route.path}
          path={route.path.slice(ADMIN_PREFIX.length)}
          element={<RequirePermission permission={route.permission}>{route.element}</RequirePermission>}
        />
      ))}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

type LazyScreens = LazyExoticComponent<ComponentType>;

/**
 * One lazy component per remote and attempt. React caches a rejected lazy result for good, so a
 * retry must build a new one; a successful one is reused across navigations.
 */
const lazyCache = new WeakMap<RemoteRoutesLoader, Map<string, { attempt: number; screens: LazyScreens }>>();

function lazyScreens(loader: RemoteRoutesLoader, name: string, attempt: number): LazyScreens {
  let byName = lazyCache.get(loader);
  if (!byName) lazyCache.set(loader, (byName = new Map()));
  const cached = byName.get(name);
  if (cached && cached.attempt === attempt) return cached.screens;
  const screens = lazy(async () => {
    try {
      const routes = await loader(name, { fresh: attempt > 0 });
      setRemoteStatus(name, 'ready');
      return { default: () => <RouteList routes={routes} /> };
    } catch (error) {
      // The menu marks the section, whichever loader failed.
      setRemoteStatus(name, 'unavailable');
      throw error;
    }
  });
  byName.set(name, { attempt, screens });
  return screens;
}

/** "Unavailable, retry": the rest of the app goes on while one remote is down. */
export function RemoteUnavailable({ name, onRetry }: { name: string; onRetry: () => void }) {
  const { t } = useTranslation('layout');
  return (
    <Result
      status="warning"
      title={t('remote.unavailableTitle')}
      subTitle={t('remote.unavailableText', { name: t(`remote.names.${name}`, { defaultValue: name }) })}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('remote.retry')}
        </Button>
      }
    />
  );
}

interface BoundaryProps {
  name: string;
  onRetry: () => void;
  children: ReactNode;
}

/** Catches a failed load and a remote screen that throws while rendering alike. */
class RemoteErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // Kept for the browser console of whoever investigates; the user sees the retry screen.
    if (process.env.NODE_ENV !== 'test')
      console.error(`Remote "${this.props.name}" failed`, error, info.componentStack);
  }

  override render() {
    if (this.state.failed) return <RemoteUnavailable name={this.props.name} onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}

function RemoteScreens({ name, loader }: { name: string; loader: RemoteRoutesLoader }) {
  const [attempt, setAttempt] = useState(0);
  const { pathname } = useLocation();
  const Screens = lazyScreens(loader, name, attempt);
  // A screen that crashed must not hide its siblings: moving to another path resets the boundary
  // (a remote that failed to load fails again at once from the cached lazy result).
  // No Suspense of its own: while the remote loads, the layout's boundary (whose spinner is up
  // while this area's own code downloads) keeps its spinner. A second boundary here would commit a
  // second spinner, and React reveals content no sooner than 300 ms after the latest spinner
  // appeared: the screen came about 300 ms later than its code (menu click to list).
  return (
    <RemoteErrorBoundary key={`${attempt}:${pathname}`} name={name} onRetry={() => setAttempt((n) => n + 1)}>
      <Screens />
    </RemoteErrorBoundary>
  );
}

/**
 * Everything under `/admin/*` that the host does not serve itself: the owning remote is found from
 * the contracts (entity routes and menu), then its `./routes` is loaded and mounted here.
 */
export function RemoteArea() {
  const loader = useContext(RemoteLoaderContext);
  const { pathname } = useLocation();
  const name = remoteForPath(pathname);
  if (!loader || !name) return <NotFoundPage />;
  return <RemoteScreens key={name} name={name} loader={loader} />;
}
