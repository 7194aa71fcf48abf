import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';

/** The theme stylesheet loader moves through idle → loading → loaded. */
export type StylesheetState = 'idle' | 'loading' | 'loaded';

export const stylesheetStateAtom = atom<StylesheetState>('idle');

const LINK_ID = 'mizan-theme-stylesheet';

/** URL of one theme's stylesheet (copied from host/public/themes into the build). */
export function themeStylesheetUrl(theme: 'light' | 'dark'): string {
  return `/themes/${theme}.css`;
}

/**
 * Keeps one `<link>` pointing at the current theme's stylesheet (page background, scrollbars,
 * selection colours: what antd's tokens do not reach). A failed download still ends in `loaded`:
 * antd's own theme already applies, so the page must not wait for it.
 */
export function useThemeStylesheet(theme: 'light' | 'dark'): StylesheetState {
  const setState = useSetAtom(stylesheetStateAtom);
  const state = useAtomValue(stylesheetStateAtom);
  useEffect(() => {
    const href = themeStylesheetUrl(theme);
    let link = document.getElementById(LINK_ID) as HTMLLinkElement | null;
    if (link?.getAttribute('href') === href && link.dataset.loaded === 'true') {
      setState('loaded');
      return;
    }
    if (!link) {
      link = document.createElement('link');
      link.id = LINK_ID;
      link.rel = 'stylesheet';
      document.head.appendChild(link);
    }
    const current = link;
    setState('loading');
    const done = () => {
      current.dataset.loaded = 'true';
      setState('loaded');
    };
    current.dataset.loaded = 'false';
    current.addEventListener('load', done, { once: true });
    current.addEventListener('error', done, { once: true });
    current.setAttribute('href', href);
    document.documentElement.dataset.theme = theme;
    return () => {
      current.removeEventListener('load', done);
      current.removeEventListener('error', done);
    };
  }, [theme, setState]);
  return state;
}
