import { SYSTEM_SETTINGS_CHANNEL } from '@mizan/contracts';
import { clearSession, sdkStore, setSession, tokenAtom } from '@mizan/sdk';
import { connectFakeSocket } from '@mizan/ui/testing/fakeSocket';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SETTINGS_ANSWER, serveApiForFile, type Answer } from '../test/apiServer';
import { makeUser } from '../test/renderApp';
import { SYSTEM_SETTINGS_KEY, useSystemSettings, useSystemSettingsChannel } from './systemSettings';

let settingsAnswer: Answer = SETTINGS_ANSWER;
const api = serveApiForFile({ 'GET /api/auth/systemSettings': () => settingsAnswer });
const loads = () => api.server!.seen.filter((r) => r.path === '/api/auth/systemSettings').length;

afterEach(async () => {
  settingsAnswer = SETTINGS_ANSWER;
  await clearSession('logout');
});

describe('the system settings channel', () => {
  it("reloads the settings on a change, not on the hub's answer to a (re)subscription", async () => {
    await setSession('test-token', makeUser(['dashboard.view']));
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { socket, event, restore } = await connectFakeSocket();
    try {
      const { result } = renderHook(
        () => {
          useSystemSettingsChannel(true);
          return useSystemSettings();
        },
        { wrapper },
      );
      await waitFor(() => expect(result.current.officeName).toBe('مكتب العدالة للمحاماة'));
      const before = loads();

      // The socket is back after a rolling restart while the proxy still has no instance to hand
      // a request to: a load of the settings now would fail, and a failed load ends the session.
      settingsAnswer = { status: 502, body: { message: 'Bad Gateway' } };
      socket.frame({ type: 'subscribed', channel: SYSTEM_SETTINGS_CHANNEL });
      socket.frame({ type: 'resubscribed', channel: SYSTEM_SETTINGS_CHANNEL });
      expect(client.isFetching({ queryKey: SYSTEM_SETTINGS_KEY })).toBe(0);

      // An administrator's change is loaded.
      const changed = { ...(SETTINGS_ANSWER.body as { data: object }).data, officeName: 'مكتب النخبة' };
      settingsAnswer = { body: { data: changed } };
      event(SYSTEM_SETTINGS_CHANNEL, 'update', changed);
      await waitFor(() => expect(result.current.officeName).toBe('مكتب النخبة'));
      expect(loads()).toBe(before + 1);
      expect(sdkStore.get(tokenAtom)).toBe('test-token');
    } finally {
      restore();
    }
  });
});
