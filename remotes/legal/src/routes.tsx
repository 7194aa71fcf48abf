import type { RemoteRoute } from '@mizan/build/routes';
import { entityRoutes } from '@mizan/ui';

/** This remote's screens: the generic pages of each registry entity of the legal area (lawsuits, hearings, opponents). */
export const routes: RemoteRoute[] = entityRoutes('legal');

export default routes;
