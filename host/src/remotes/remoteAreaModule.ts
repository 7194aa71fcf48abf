/**
 * The remote area's code, from one `import()` for every caller. Webpack builds a chunk per call
 * site and leaves out what that site's parent chunk already holds, so a second call site made a
 * second file with the same module: fetching it ahead (usePrepareRemotes) did not spare the route
 * its own download.
 */
export const loadRemoteAreaModule = () => import('./RemoteArea');
