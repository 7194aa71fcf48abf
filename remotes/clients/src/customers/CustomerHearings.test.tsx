import { screen, within } from '@testing-library/react';
import { customers, lawsuits, sessions } from '@mizan/contracts';
import { recordElement } from '@mizan/ui';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import arEG from 'antd/locale/ar_EG';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createQueryClient } from '@mizan/sdk';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { startClientsServer } from '../test/server';

let server: Awaited<ReturnType<typeof startClientsServer>>;

beforeEach(() => {
  localStorage.clear();
  captureToasts();
});
afterEach(() => server.close());

async function openClient(permissions: string[]) {
  signIn(permissions);
  server = await startClientsServer([customers, lawsuits, sessions], {
    rows: {
      customers: [{ id: 3, name: 'أحمد إبراهيم علي', kind: 'person' }],
      sessions: [{ id: 40, lawsuitId: 7, lawsuit: { id: 7, name: '2026/0007' }, date: '2026-02-01' }],
    },
  });
  pointSdkAt(server.url);
  render(
    <ConfigProvider direction="rtl" locale={arEG} wave={{ disabled: true }}>
      <App>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={[`${customers.route}/3?tab=sessions.customerId`]}>
            <Routes>
              <Route
                path={`${customers.route}/:id`}
                element={recordElement(customers, ENTITY_OVERRIDES.customers)}
              />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
  await screen.findByRole('heading', { name: 'أحمد إبراهيم علي' });
}

describe('client page: hearings tab', () => {
  it('lists the hearings of the client’s lawsuits after the lawsuits tab', async () => {
    await openClient(['customers.view', 'lawsuits.view', 'sessions.view']);
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs.indexOf('جلسات الدعاوى')).toBe(tabs.indexOf('الدعاوى') + 1);
    const panel = screen.getByRole('tabpanel');
    expect(await within(panel).findByText('2026/0007')).toBeInTheDocument();
    expect(server.to('GET', sessions.path).at(-1)?.query.get('customerId')).toBe('3');
  });

  it('has no hearings tab without the permission to view hearings', async () => {
    await openClient(['customers.view', 'lawsuits.view']);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).not.toContain('جلسات الدعاوى');
  });
});
