import {
  AREA_PERMISSIONS,
  DEFAULT_THEME_CONFIG,
  notificationChannel,
  type NotificationRow,
} from '@mizan/contracts';
import { createI18n } from '@mizan/i18n';
import { sdkStore } from '@mizan/sdk';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SeenRequest } from '@mizan/sdk/testing/apiServer';
import { connectFakeSocket } from '@mizan/ui/testing/fakeSocket';
import { SETTINGS_ANSWER, serveApiForFile, type Routes } from '../test/apiServer';
import { makeUser, renderApp, resetPage, signIn } from '../test/renderApp';
import { themeConfigAtom } from '../theme/themeConfig';

const user = makeUser([AREA_PERMISSIONS.dashboardView]);

const row = (id: number, readAt: string | null = null): NotificationRow => ({
  id,
  kind: 'hearingTomorrow',
  params: { fileNumber: `${id}/2026`, date: '2026-11-24', time: '09:30', court: 'North Cairo' },
  link: `/admin/lawsuits/sessions/${id}`,
  readAt,
  createdAt: `2026-11-23T1${id % 10}:00:00.000Z`,
});

/** The server's rows for employee 1, newest first; the routes below answer from them. */
let rows: NotificationRow[] = [];
const unreadOf = () => rows.filter((r) => !r.readAt).length;
const READ_AT = '2026-11-23T18:00:00.000Z';
/** The office's reminder times and power-of-attorney thresholds the preferences answer carries. */
const SCHEDULE = { evening: '19:00', morning: '08:00', procurationDays: [30, 7] };

const routes: Routes = {
  'GET /api/auth/systemSettings': SETTINGS_ANSWER,
  'POST /api/auth/check': () => ({ body: { data: { user, token: 'test-token' } } }),
  'GET /api/notifications/unread-count': () => ({ body: { data: { unread: unreadOf() } } }),
  'GET /api/notifications': (req: SeenRequest) => {
    const page = Number(req.query.get('page') ?? 1);
    const pageSize = Number(req.query.get('pageSize') ?? 20);
    const kept = req.query.get('unread') === 'true' ? rows.filter((r) => !r.readAt) : rows;
    return {
      body: {
        data: {
          items: kept.slice((page - 1) * pageSize, page * pageSize),
          total: kept.length,
          page,
          pageSize,
          unread: unreadOf(),
        },
      },
    };
  },
  'PATCH /api/notifications/read-all': () => {
    const marked = unreadOf();
    rows = rows.map((r) => (r.readAt ? r : { ...r, readAt: READ_AT }));
    return { body: { data: { item: null, marked, unread: 0 } } };
  },
  'GET /api/notifications/preferences': {
    body: {
      data: {
        emailAvailable: true,
        schedule: SCHEDULE,
        preferences: {
          hearingTomorrow: 'app',
          hearingToday: 'app',
          hearingNoDecision: 'app',
          procurationExpiring: 'app',
        },
      },
    },
  },
  'PUT /api/notifications/preferences': (req: SeenRequest) => ({
    body: {
      data: {
        emailAvailable: true,
        schedule: SCHEDULE,
        preferences: {
          hearingTomorrow: 'app',
          hearingToday: 'app',
          hearingNoDecision: 'app',
          procurationExpiring: 'app',
          ...(JSON.parse(req.body) as object),
        },
      },
    },
  }),
  'GET /api/employees/employees/profile': { body: { data: user } },
};
for (const id of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
  routes[`PATCH /api/notifications/${id}/read`] = () => {
    rows = rows.map((r) => (r.id === id && !r.readAt ? { ...r, readAt: READ_AT } : r));
    return { body: { data: { item: rows.find((r) => r.id === id), marked: 1, unread: unreadOf() } } };
  };
}

// Whole-app renders on a busy machine: allow for it.
jest.setTimeout(90_000);
const SLOW = { timeout: 20_000 };

/** The bell once it shows `count` (a selector: role queries over the whole page are slow here). */
async function bell(count: number, lang: 'ar' | 'en' = 'en'): Promise<HTMLElement> {
  const name = createI18n(lang).t('notifications:bell', { count });
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = document.querySelector<HTMLElement>(`header button[aria-label="${name}"]`);
    expect(found).not.toBeNull();
  }, SLOW);
  return found!;
}

describe('notification centre', () => {
  const server = serveApiForFile(routes);
  beforeEach(async () => {
    rows = [3, 2, 1].map((id) => row(id, id === 1 ? READ_AT : null));
    await resetPage();
    await signIn(user);
  });

  it('shows the unread count, lists newest first with unread bold, and marks one and all read', async () => {
    await act(async () => {
      renderApp('/admin/profile');
    });
    fireEvent.click(await bell(2));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    const list = await within(dialog).findByRole('list', { name: 'Notifications' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringContaining('Hearing tomorrow in case 3/2026'),
      expect.stringContaining('Hearing tomorrow in case 2/2026'),
      expect.stringContaining('Hearing tomorrow in case 1/2026'),
    ]);
    expect(items.map((li) => li.getAttribute('data-unread'))).toEqual(['true', 'true', null]);
    expect(items[0]).toHaveTextContent(
      'Case 3/2026 has a hearing tomorrow, 11/24/2026 (14 Jumada II 1448 AH) at 09:30, before North Cairo.',
    );
    expect(within(items[0]!).getByText('Hearing tomorrow in case 3/2026').tagName).toBe('STRONG');

    fireEvent.click(
      within(items[1]!).getByRole('button', { name: 'Mark read: Hearing tomorrow in case 2/2026' }),
    );
    await waitFor(
      () => expect(server.server!.calls('PATCH', '/api/notifications/2/read')).toHaveLength(1),
      SLOW,
    );
    await bell(1);
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('listitem')
          .map((li) => li.getAttribute('data-unread')),
      ).toEqual(['true', null, null]),
    );

    fireEvent.click(within(dialog).getByRole('button', { name: /Mark all read/ }));
    await bell(0);
    expect(server.server!.calls('PATCH', '/api/notifications/read-all')).toHaveLength(1);
  });

  it('pages the list and filters the unread ones', async () => {
    rows = Array.from({ length: 12 }, (_, i) => row(12 - i));
    await act(async () => {
      renderApp('/admin/profile');
    });
    fireEvent.click(await bell(12));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    const items = () =>
      within(within(dialog).getByRole('list', { name: 'Notifications' })).getAllByRole('listitem');
    await waitFor(() => expect(items()).toHaveLength(10), SLOW);
    fireEvent.click(within(dialog).getByTitle('Next Page'));
    await waitFor(() => expect(items()).toHaveLength(2), SLOW);
    expect(items()[0]).toHaveTextContent('case 2/2026');

    rows = rows.map((r) => (r.id > 1 ? { ...r, readAt: READ_AT } : r));
    fireEvent.click(within(dialog).getByText('Unread'));
    await waitFor(() => expect(items()).toHaveLength(1), SLOW);
    expect(
      server.server!.seen.some((r) => r.path === '/api/notifications' && r.query.get('unread') === 'true'),
    ).toBe(true);
  });

  it('opens the record a notification links to and marks it read', async () => {
    let router!: ReturnType<typeof renderApp>['router'];
    await act(async () => {
      ({ router } = renderApp('/admin/profile'));
    });
    fireEvent.click(await bell(2));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(await within(dialog).findByRole('link', { name: 'Hearing tomorrow in case 3/2026' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lawsuits/sessions/3'), SLOW);
    await waitFor(() => expect(server.server!.calls('PATCH', '/api/notifications/3/read')).toHaveLength(1));
  });

  it('follows the employee’s own channel: a new notification and reads in another tab', async () => {
    const { socket, restore } = await connectFakeSocket();
    try {
      await act(async () => {
        renderApp('/admin/profile');
      });
      await bell(2);
      await waitFor(() =>
        expect(socket.sent).toContainEqual({ type: 'subscribe', channel: notificationChannel(user.id) }),
      );
      rows = [row(4), ...rows];
      socket.frame({ type: 'notification', channel: notificationChannel(user.id), data: row(4) });
      await bell(3);
      socket.frame({
        type: 'notificationsRead',
        channel: notificationChannel(user.id),
        data: { ids: null, unread: 0, readAt: READ_AT },
      });
      await bell(0);
    } finally {
      act(() => restore());
    }
  });

  it('reads in Arabic, right to left', async () => {
    sdkStore.set(themeConfigAtom, { ...DEFAULT_THEME_CONFIG, locale: 'ar', direction: 'rtl' });
    await act(async () => {
      renderApp('/admin/profile');
    });
    fireEvent.click(await bell(2, 'ar'));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(await within(dialog).findByText('جلسة غدًا في القضية 3/2026')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /تحديد الكل كمقروء/ })).toBeInTheDocument();
  });

  it('writes in Arabic: the verb agrees with who acted, dates and times as on every screen, never ISO', async () => {
    rows = [
      {
        id: 9,
        kind: 'taskAssigned',
        params: { title: 'مراجعة المذكرة', by: 'فاطمة الزهراء', gender: 'female', dueAt: '2026-11-25 14:00' },
        link: '/admin/lawsuits/tasks/9',
        readAt: null,
        createdAt: '2026-11-23T10:00:00.000Z',
      },
      { ...row(3), params: { ...row(3).params, by: 'أحمد' } },
    ];
    sdkStore.set(themeConfigAtom, { ...DEFAULT_THEME_CONFIG, locale: 'ar', direction: 'rtl' });
    await act(async () => {
      renderApp('/admin/profile');
    });
    fireEvent.click(await bell(2, 'ar'));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    const list = await within(dialog).findByRole('list', { name: 'الإشعارات' });
    const [task, hearing] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(task).toHaveTextContent(
      /كلّفتك فاطمة الزهراء بالمهمة «مراجعة المذكرة»\. موعد الاستحقاق: .*٢٠٢٦ ١٤:٠٠/,
    );
    expect(hearing).toHaveTextContent(
      /جلسة القضية رقم 3\/2026 غدًا ١١\/٢٤\/٢٠٢٦ \(١٤ جمادى الآخرة ١٤٤٨ هـ\) الساعة ٠٩:٣٠ أمام North Cairo\./,
    );
    for (const item of [task, hearing]) {
      expect(item.textContent).not.toMatch(/2026-11-2\d|T\d\d:/);
      expect(item.textContent).not.toMatch(/\d{2}:\d{2}/);
    }
    expect(document.querySelector('.ant-drawer-rtl, .ant-drawer-content-wrapper')).not.toBeNull();
  });

  it('lets the employee choose per kind on the profile page', async () => {
    await act(async () => {
      renderApp('/admin/profile');
    });
    const group = await screen.findByRole('radiogroup', { name: 'Power of attorney expiring' });
    expect(screen.getByTestId('notification-when-procurationExpiring')).toHaveTextContent(
      'Comes in the morning at 08:00, when 30 days or 7 days are left before the power of attorney expires',
    );
    expect(screen.getByTestId('notification-when-hearingTomorrow')).toHaveTextContent(
      'Comes the evening before the hearing, at 19:00',
    );
    fireEvent.click(within(group).getByLabelText('By email'));
    await waitFor(() =>
      expect(server.server!.calls('PUT', '/api/notifications/preferences')).toHaveLength(1),
    );
    expect(JSON.parse(server.server!.calls('PUT', '/api/notifications/preferences')[0]!.body)).toEqual({
      procurationExpiring: 'email',
    });
    await waitFor(() => expect(within(group).getByLabelText('By email')).toBeChecked());
  });
});
