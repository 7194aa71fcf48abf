import { act, renderHook } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import type { ReactNode } from 'react';
import { stylesheetStateAtom, themeStylesheetUrl, useThemeStylesheet } from './stylesheet';

function link(): HTMLLinkElement {
  const element = document.getElementById('mizan-theme-stylesheet');
  if (!(element instanceof HTMLLinkElement)) throw new Error('no theme stylesheet link');
  return element;
}

describe('theme stylesheet loader', () => {
  it('moves idle → loading → loaded and swaps the stylesheet with the theme', () => {
    const store = createStore();
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    expect(store.get(stylesheetStateAtom)).toBe('idle');

    const { rerender } = renderHook(({ theme }: { theme: 'light' | 'dark' }) => useThemeStylesheet(theme), {
      wrapper,
      initialProps: { theme: 'light' },
    });
    expect(store.get(stylesheetStateAtom)).toBe('loading');
    expect(link().getAttribute('href')).toBe(themeStylesheetUrl('light'));
    act(() => void link().dispatchEvent(new Event('load')));
    expect(store.get(stylesheetStateAtom)).toBe('loaded');

    rerender({ theme: 'dark' });
    expect(store.get(stylesheetStateAtom)).toBe('loading');
    expect(link().getAttribute('href')).toBe('/themes/dark.css');
    expect(document.documentElement.dataset.theme).toBe('dark');
    // A stylesheet that fails still ends the wait: antd's own theme already applies.
    act(() => void link().dispatchEvent(new Event('error')));
    expect(store.get(stylesheetStateAtom)).toBe('loaded');
  });
});
