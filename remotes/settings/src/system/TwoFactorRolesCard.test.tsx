import { roles, AUTH_ROUTES } from '@mizan/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { TwoFactorRolesCard } from './TwoFactorRolesCard';

const path = `/api${AUTH_ROUTES.twoFactorRoles.path}`;
const roleRows = [
  { id: 1, name: 'Administrator' },
  { id: 2, name: 'Lawyer' },
  { id: 3, name: 'Secretary' },
];

describe('TwoFactorRolesCard', () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let required: number[];
  beforeAll(async () => {
    server = await startApiServer({
      [`GET ${path}`]: () => ({ body: { data: { roleIds: required } } }),
      [`PUT ${path}`]: (req) => {
        required = (JSON.parse(req.body) as { roleIds: number[] }).roleIds;
        return { body: { data: { roleIds: required } } };
      },
      [`GET /api${roles.path}`]: () => ({
        body: { data: { items: roleRows, total: roleRows.length, page: 1, pageSize: 20 } },
      }),
    });
    pointSdkAt(server.url);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    required = [1];
    server.seen.length = 0;
  });

  it('shows the roles that require it and saves the new choice', async () => {
    const toasts = captureToasts();
    signIn(['systemSettings.view', 'systemSettings.update', 'roles.view']);
    renderScreen(<TwoFactorRolesCard canEdit />);
    const box = await screen.findByRole('combobox', { name: 'Roles that require two-step verification' });
    expect(await screen.findByText('Administrator')).toBeInTheDocument();
    const saveButton = screen.getByRole('button', { name: 'Save roles' });
    expect(saveButton).toBeDisabled();
    fireEvent.mouseDown(box);
    fireEvent.click(await screen.findByText('Lawyer', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(saveButton);
    await waitFor(() =>
      expect(toasts.success).toContain('The roles that require two-step verification were saved.'),
    );
    expect(JSON.parse(server.calls('PUT', path)[0]!.body)).toEqual({ roleIds: [1, 2] });
  });

  it('is read-only without the right to change system settings', async () => {
    signIn(['systemSettings.view', 'roles.view']);
    renderScreen(<TwoFactorRolesCard canEdit={false} />);
    expect(await screen.findByText('Administrator')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save roles' })).toBeNull();
  });
});
