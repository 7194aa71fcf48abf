// The shared test API server (routes → answers) plus the host's per-file wiring and common answers.
import { startApiServer, type Answer, type Routes } from '@mizan/sdk/testing/apiServer';

export { startApiServer, type Answer, type Routes };

/**
 * Starts one server for the test file and points the SDK's client at it. The routes object may be
 * changed by the tests (answers are looked up per request).
 */
export function serveApiForFile(routes: Routes) {
  const handle: { server: Awaited<ReturnType<typeof startApiServer>> | null } = { server: null };
  beforeAll(async () => {
    handle.server = await startApiServer(routes);
    const { http } = await import('@mizan/sdk');
    http.defaults.baseURL = `${handle.server.url}/api`;
  });
  afterAll(() => handle.server?.close());
  return handle;
}

/** The public settings every page reads, as the server answers them. */
export const SETTINGS_ANSWER: Answer = {
  body: {
    data: {
      officeName: 'مكتب العدالة للمحاماة',
      logoUrl: null,
      faviconUrl: null,
      primaryColor: '#0f766e',
      defaultLanguage: 'ar',
      defaultTheme: 'light',
      calendar: 'gregorian',
    },
  },
};
