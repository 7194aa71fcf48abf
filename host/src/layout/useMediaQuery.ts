import { BREAKPOINTS } from '@mizan/contracts';
import { useSyncExternalStore } from 'react';

function subscribeTo(query: string) {
  return (onChange: () => void) => {
    if (typeof window.matchMedia !== 'function') return () => undefined;
    const list = window.matchMedia(query);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  };
}

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    subscribeTo(query),
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}

/** The product's breakpoints: mobile up to 768px, desktop from 1400px, large laptop from 1600px. */
export function useBreakpoints() {
  return {
    mobile: useMediaQuery(`(max-width: ${BREAKPOINTS.mobileMax}px)`),
    desktop: useMediaQuery(`(min-width: ${BREAKPOINTS.desktop}px)`),
    largeLaptop: useMediaQuery(`(min-width: ${BREAKPOINTS.largeLaptop}px)`),
  };
}
