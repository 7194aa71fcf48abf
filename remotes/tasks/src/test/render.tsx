import type { ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import arEG from 'antd/locale/ar_EG';
import enUS from 'antd/locale/en_US';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { i18n } from '@mizan/i18n';
import { createQueryClient } from '@mizan/sdk';

/** Switches the interface language for one test (the setup starts in Arabic). */
export async function switchLanguage(lng: 'ar' | 'en') {
  await act(() => i18n.changeLanguage(lng));
}

/**
 * A screen at `path` under the route `pattern` inside the providers the host gives it, in the
 * current interface language: Arabic right to left, English left to right.
 */
export function renderRoute(path: string, pattern: string, element: ReactNode) {
  const arabic = (i18n.resolvedLanguage ?? i18n.language).startsWith('ar');
  return render(
    <ConfigProvider
      direction={arabic ? 'rtl' : 'ltr'}
      locale={arabic ? arEG : enUS}
      wave={{ disabled: true }}
    >
      <App>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={pattern} element={element} />
              <Route path="*" element={<p>other page</p>} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
}
