import type { RemoteRoute } from '@mizan/build/routes';
import { entityRoutes } from '@mizan/ui';
import { calendarRoutes } from './calendar/routes';
import { ENTITY_OVERRIDES } from './entityScreens';

/**
 * The legal department's screens: the hearings calendar, then every registry entity of the legal
 * area (lawsuits, hearings, opponents, attachments and their groups, payments) at its route with
 * the overrides of `ENTITY_OVERRIDES`. Static paths (`sessions/calendar`) outrank `:id`.
 */
export const routes: RemoteRoute[] = [...calendarRoutes, ...entityRoutes('legal', ENTITY_OVERRIDES)];

export default routes;
