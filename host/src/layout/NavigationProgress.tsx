import { theme as antdTheme } from 'antd';
import { useAtomValue } from 'jotai';
import { useCallback, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { RouterInstanceContext, type AppRouter } from '../app/routerInstance';
import { themeConfigAtom } from '../theme/themeConfig';

/**
 * Whether a navigation is under way: the router is at a new location while React still shows the
 * previous screen. React Router renders navigations as transitions, so the screen on view stays
 * until the next one is ready (its code and its remote downloaded) instead of flashing a spinner;
 * the router's own location, read outside the transition, moves at once.
 */
export function useNavigationPending(): boolean {
  const router = useContext(RouterInstanceContext);
  const shown = useLocation();
  const subscribe = useCallback(
    (notify: () => void) => (router ? router.subscribe(() => notify()) : () => undefined),
    [router],
  );
  const latest = useSyncExternalStore<AppRouter['state']['location'] | null>(
    subscribe,
    () => router?.state.location ?? null,
  );
  return latest !== null && latest.key !== shown.key;
}

/**
 * A thin bar along the top of the window while a navigation is under way (see
 * `useNavigationPending`): the screen on view stays until the next one is ready.
 */
export function NavigationProgress() {
  const pending = useNavigationPending();
  const { t } = useTranslation('layout');
  const { token } = antdTheme.useToken();
  const rtl = useAtomValue(themeConfigAtom).direction === 'rtl';
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Grows quickly, then ever more slowly: no promise of when it ends. (jsdom has no animate.)
    const animation = bar.current?.animate?.([{ transform: 'scaleX(0)' }, { transform: 'scaleX(0.9)' }], {
      duration: 4000,
      easing: 'cubic-bezier(0.1, 0.7, 0.2, 1)',
      fill: 'forwards',
    });
    return () => animation?.cancel();
  }, [pending]);
  if (!pending) return null;
  return (
    <div
      ref={bar}
      role="progressbar"
      aria-label={t('loading')}
      style={{
        position: 'fixed',
        insetBlockStart: 0,
        insetInline: 0,
        blockSize: 3,
        background: token.colorPrimary,
        transformOrigin: rtl ? 'right' : 'left',
        transform: 'scaleX(0)',
        zIndex: token.zIndexPopupBase + 100,
        pointerEvents: 'none',
      }}
    />
  );
}
