import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import type { RemoteRoute } from '@mizan/build/routes';
import { permissionKey, sessions } from '@mizan/contracts';

/** The hearings calendar's address, beside the hearings list it belongs to. */
export const CALENDAR_ROUTE = `${sessions.route}/calendar`;

// FullCalendar is loaded with the page, in its own chunk, not with the remote's routes.
const CalendarPage = lazy(() => import('./CalendarPage').then((m) => ({ default: m.CalendarPage })));

/** The hearings calendar, for whoever may read the hearings. */
export const calendarRoutes: RemoteRoute[] = [
  {
    path: CALENDAR_ROUTE,
    permission: permissionKey(sessions.name, 'view'),
    element: (
      <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>
        <CalendarPage />
      </Suspense>
    ),
  },
];
