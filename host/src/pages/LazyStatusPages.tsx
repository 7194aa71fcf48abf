import { lazy, Suspense } from 'react';

// The status pages draw antd's Result (its illustrations, ~12 KB gzip); the login page never shows
// them, so they load when first shown (login page weight).
const load = () => import('./StatusPages');
const Forbidden = lazy(() => load().then((m) => ({ default: m.ForbiddenPage })));
const NotFound = lazy(() => load().then((m) => ({ default: m.NotFoundPage })));
const RouteError = lazy(() => load().then((m) => ({ default: m.RouteErrorPage })));

/** `ForbiddenPage` of ./StatusPages, loaded when first shown. */
export function ForbiddenPage() {
  return (
    <Suspense fallback={null}>
      <Forbidden />
    </Suspense>
  );
}

/** `NotFoundPage` of ./StatusPages, loaded when first shown. */
export function NotFoundPage() {
  return (
    <Suspense fallback={null}>
      <NotFound />
    </Suspense>
  );
}

/** `RouteErrorPage` of ./StatusPages, loaded when first shown. */
export function RouteErrorPage() {
  return (
    <Suspense fallback={null}>
      <RouteError />
    </Suspense>
  );
}
