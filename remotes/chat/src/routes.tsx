import type { RemoteRoute } from '@mizan/build/routes';

/** This remote's screens arrive in later issues; the host already loads and mounts this list. */
export const routes: RemoteRoute[] = [];

export default routes;
