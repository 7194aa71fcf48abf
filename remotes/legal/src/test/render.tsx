import type { ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import arEG from 'antd/locale/ar_EG';
import enUS from 'antd/locale/en_US';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { i18n } from '@mizan/i18n';
import { createQueryClient } from '@mizan/sdk';

/** Switches the interface language for one test (the setup starts in Arabic). */
export async function switchLanguage(lng: 'ar' | 'en') {
  await act(() => i18n.changeLanguage(lng));
}

let lastLocation = '';
function LocationProbe() {
  const location = useLocation();
  lastLocation = `${location.pathname}${location.search}`;
  return null;
}

/**
 * A screen at `path` under the route `pattern` (`/admin/lawsuits/:id`), inside the providers the
 * host gives it, in the current interface language: Arabic right to left, English left to right.
 * Other paths render a marker naming them, so a followed link can be seen.
 */
export function renderRoute(path: string, pattern: string, element: ReactNode) {
  const arabic = (i18n.resolvedLanguage ?? i18n.language).startsWith('ar');
  const queryClient = createQueryClient();
  const result = render(
    <ConfigProvider
      direction={arabic ? 'rtl' : 'ltr'}
      locale={arabic ? arEG : enUS}
      wave={{ disabled: true }}
      virtual={false}
    >
      <App>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={pattern} element={element} />
              <Route path="*" element={<p>other page</p>} />
            </Routes>
            <LocationProbe />
          </MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
  return { ...result, queryClient, location: () => lastLocation };
}
