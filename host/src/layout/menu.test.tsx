import { AREA_PERMISSIONS, MENU, isMenuGroup } from '@mizan/contracts';
import { act, screen, within } from '@testing-library/react';
import type { AuthUser } from '@mizan/sdk';
import { SETTINGS_ANSWER, serveApiForFile } from '../test/apiServer';
import { makeUser, renderApp, resetPage, signIn } from '../test/renderApp';
import { activeItem, visibleItems, visibleMenu } from './menu';

describe('visibleMenu', () => {
  it('keeps only items the user holds the permission for and hides empty groups', () => {
    const menu = visibleMenu(
      new Set([AREA_PERMISSIONS.dashboardView, 'courts.view', 'judges.view', 'customers.view']),
    );
    expect(menu.map((entry) => entry.key)).toEqual(['dashboard', 'courts', 'clients']);
    const courts = menu.find((entry) => entry.key === 'courts');
    expect(courts && isMenuGroup(courts) ? courts.items.map((i) => i.key) : []).toEqual(['courts', 'judges']);
  });

  it('shows nothing without permissions, and every item with all of them', () => {
    expect(visibleMenu(new Set())).toEqual([]);
    const all = new Set(MENU.flatMap((e) => (isMenuGroup(e) ? e.items : [e])).map((i) => i.permission));
    expect(visibleMenu(all)).toEqual(MENU);
  });

  it('highlights the longest matching route', () => {
    const items = visibleItems(new Set(['lawsuits.view', 'tasks.view']));
    expect(activeItem('/admin/lawsuits/tasks/12', items)?.key).toBe('tasks');
    expect(activeItem('/admin/lawsuits/7', items)?.key).toBe('lawsuits');
    expect(activeItem('/admin/lawsuitsX', items)).toBeUndefined();
  });
});

describe('side navigation', () => {
  let current: AuthUser = makeUser([]);
  serveApiForFile({
    'GET /api/auth/systemSettings': SETTINGS_ANSWER,
    // The stored session is checked on load: the server confirms whoever is signed in.
    'POST /api/auth/check': () => ({ body: { data: { user: current, token: 'test-token' } } }),
  });
  beforeEach(() => resetPage());

  it('lists only the permitted screens, labelled from the menu namespace', async () => {
    current = makeUser([AREA_PERMISSIONS.dashboardView, 'continents.view', 'courts.view']);
    await signIn(current);
    await act(async () => {
      renderApp('/admin/dashboard');
    });
    const nav = await screen.findByRole('navigation');
    // Groups are collapsed submenus: their titles show, with the open group's items.
    expect(within(nav).getByText('Dashboard')).toBeInTheDocument();
    expect(within(nav).getByText('Places')).toBeInTheDocument();
    expect(within(nav).getAllByText('Courts').length).toBeGreaterThan(0);
    expect(within(nav).queryByText('Employees')).not.toBeInTheDocument();
    expect(within(nav).queryByText('Clients')).not.toBeInTheDocument();
    expect(within(nav).queryByText('Legal department')).not.toBeInTheDocument();
  });

  it('shows the 403 page for a screen without its permission', async () => {
    current = makeUser(['courts.view']);
    await signIn(current);
    await act(async () => {
      renderApp('/admin/dashboard');
    });
    expect(await screen.findByText('You cannot access this page')).toBeInTheDocument();
  });
});
