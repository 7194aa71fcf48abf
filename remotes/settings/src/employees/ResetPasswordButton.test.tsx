import { employees } from '@mizan/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { ResetPasswordButton } from './ResetPasswordButton';
import { generateTemporaryPassword } from './temporaryPassword';

const path = `/api${employees.path}/resetPassword/7`;
const row = { id: 7, name: 'Huda Saleh', createdAt: '', updatedAt: '' };

describe('ResetPasswordButton', () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer({
      [`PUT ${path}`]: (req) => {
        const { password } = JSON.parse(req.body) as { password: string };
        // As the server's strength rules do: a weak password is a 422 on the field.
        if (!/\d/.test(password))
          return {
            status: 422,
            body: { message: 'Invalid', errors: { password: ['Must contain a digit'] } },
          };
        return { body: { data: { message: 'ok' } } };
      },
    });
    pointSdkAt(server.url);
    signIn(['employees.update']);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
  });

  const open = () =>
    fireEvent.click(screen.getByRole('button', { name: 'Reset the password of Huda Saleh' }));
  const input = () => screen.getByLabelText('Temporary password');
  const confirm = () => fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));

  it('refuses a short password without calling the server', async () => {
    renderScreen(<ResetPasswordButton row={row} />);
    open();
    fireEvent.change(input(), { target: { value: 'abc' } });
    confirm();
    expect(await screen.findByText(/at least 8/)).toBeInTheDocument();
    expect(server.seen).toHaveLength(0);
  });

  it('shows the server field message of a weak password', async () => {
    captureToasts();
    renderScreen(<ResetPasswordButton row={row} />);
    open();
    fireEvent.change(input(), { target: { value: 'abcdefghij' } });
    confirm();
    expect(await screen.findByText('Must contain a digit')).toBeInTheDocument();
  });

  it('sends the new password and shows it once to hand over', async () => {
    const toasts = captureToasts();
    renderScreen(<ResetPasswordButton row={row} />);
    open();
    fireEvent.change(input(), { target: { value: 'Temp-pass-99' } });
    confirm();
    await waitFor(() => expect(server.calls('PUT', path)).toHaveLength(1));
    expect(JSON.parse(server.calls('PUT', path)[0]!.body)).toEqual({ password: 'Temp-pass-99' });
    expect(await screen.findByText('Temp-pass-99')).toBeInTheDocument();
    expect(toasts.success).toContain('The password of Huda Saleh was reset.');
  });
});

describe('generateTemporaryPassword', () => {
  it('holds every character class and differs each time', () => {
    const samples = Array.from({ length: 50 }, () => generateTemporaryPassword());
    for (const p of samples) {
      expect(p).toHaveLength(14);
      expect(p).toMatch(/[a-z]/);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[0-9]/);
      expect(p).toMatch(/[^A-Za-z0-9]/);
    }
    expect(new Set(samples).size).toBe(50);
  });
});
