import { PEOPLE_ROUTES, pathOf } from '@mizan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { EmployeeSecurityButton } from './EmployeeSecurityButton';

const row = { id: 7, name: 'Huda Saleh', createdAt: '', updatedAt: '' };
const session = {
  id: 31,
  device: 'mobile',
  browser: 'Chrome 130 on Android',
  ip: '10.0.0.8',
  signedInAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-20T09:30:00.000Z',
  current: false,
};
const attempts = [
  {
    id: 2,
    at: '2026-11-20T08:00:00.000Z',
    ip: '10.0.0.8',
    device: 'mobile',
    browser: 'Chrome 130 on Android',
    success: true,
    reason: null,
  },
  {
    id: 1,
    at: '2026-11-20T07:59:00.000Z',
    ip: '10.0.0.8',
    device: 'mobile',
    browser: null,
    success: false,
    reason: 'wrong_code',
  },
];

describe('EmployeeSecurityButton', () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let state: { sessions: (typeof session)[]; twoFactorEnabled: boolean };
  beforeAll(async () => {
    server = await startApiServer({
      [`GET /api${pathOf(PEOPLE_ROUTES.security.path, { id: 7 })}`]: () => ({
        body: { data: { ...state, history: attempts } },
      }),
      [`POST /api${pathOf(PEOPLE_ROUTES.signOutEverywhere.path, { id: 7 })}`]: () => {
        const ended = state.sessions.length;
        state.sessions = [];
        return { body: { data: { ended } } };
      },
      [`DELETE /api${pathOf(PEOPLE_ROUTES.resetTwoFactor.path, { id: 7 })}`]: () => {
        state.twoFactorEnabled = false;
        return { body: { data: { message: 'ok' } } };
      },
    });
    pointSdkAt(server.url);
    signIn(['employees.update']);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    state = { sessions: [session], twoFactorEnabled: true };
    server.seen.length = 0;
  });

  const open = async () => {
    renderScreen(<EmployeeSecurityButton row={row} />);
    fireEvent.click(screen.getByRole('button', { name: 'Security and sessions of Huda Saleh' }));
    return screen.findByRole('dialog');
  };

  it("shows the employee's sessions, sign-in attempts with the reason of a failure, and two-step state", async () => {
    const drawer = await open();
    expect(await within(drawer).findByText('1 open session')).toBeInTheDocument();
    expect(within(drawer).getByText(/Phone — Chrome 130 on Android/)).toBeInTheDocument();
    expect(within(drawer).getByText('Wrong verification code')).toBeInTheDocument();
    expect(within(drawer).getByText('Signed in')).toBeInTheDocument();
    expect(within(drawer).getByText('On')).toBeInTheDocument();
  });

  it('signs the employee out everywhere after a confirmation, and says how many sessions ended', async () => {
    const toasts = captureToasts();
    const drawer = await open();
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Sign out everywhere' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(toasts.success).toContain('1 session of Huda Saleh was ended.'));
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toContain(
      `POST /api${pathOf(PEOPLE_ROUTES.signOutEverywhere.path, { id: 7 })}`,
    );
    expect(await within(drawer).findByText('Not signed in on any device now.')).toBeInTheDocument();
  });

  it('resets two-step verification after a confirmation', async () => {
    const toasts = captureToasts();
    const drawer = await open();
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Reset two-step verification' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(toasts.success).toContain('Two-step verification was reset for Huda Saleh.'));
    expect(await within(drawer).findByText('Off')).toBeInTheDocument();
  });
});
