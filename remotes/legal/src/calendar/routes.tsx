import type { RemoteRoute } from '@mizan/build/routes';

/** The hearings calendar's routes (issue 10: being built). */
export const calendarRoutes: RemoteRoute[] = [];
