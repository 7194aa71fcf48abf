import type { RemoteRoute } from '@mizan/build/routes';
import { entityRoutes } from '@mizan/ui';
import { calendarRoutes } from './calendar/routes';
import { ENTITY_OVERRIDES } from './entityScreens';
import { invoiceRoutes } from './invoices/routes';
import { reportRoutes } from './reports/routes';

/**
 * The legal department's screens: the hearings calendar, then every registry entity of the legal
 * area (lawsuits, hearings, opponents, attachments and their groups, payments) at its route with
 * the overrides of `ENTITY_OVERRIDES`, an invoice's print view and the finance reports. Static paths (`sessions/calendar`)
 * outrank `:id`.
 */
export const routes: RemoteRoute[] = [
  ...calendarRoutes,
  ...invoiceRoutes,
  ...reportRoutes,
  ...entityRoutes('legal', ENTITY_OVERRIDES),
];

export default routes;
