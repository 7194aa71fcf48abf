import { permissions, roles } from '@mizan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { entityScreen } from '../entityScreens';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';

const rolesPath = `/api${roles.path}`;
const permissionsPath = `/api${permissions.path}`;
const catalog = [
  { id: 1, key: 'courts.view', group: 'courts' },
  { id: 2, key: 'courts.create', group: 'courts' },
  { id: 3, key: 'judges.view', group: 'judges' },
];
const page = <T,>(items: T[]) => ({ body: { data: { items, total: items.length, page: 1, pageSize: 20 } } });

describe('roles screen', () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer({
      [`GET ${rolesPath}`]: () => page([]),
      [`GET ${permissionsPath}`]: () => ({
        body: { data: { items: catalog, total: catalog.length, page: 1, pageSize: 100 } },
      }),
      [`POST ${rolesPath}`]: (req) => {
        const body = JSON.parse(req.body) as Record<string, unknown>;
        return {
          status: 201,
          body: { data: { id: 9, status: true, createdAt: '', updatedAt: '', ...body } },
        };
      },
    });
    pointSdkAt(server.url);
    captureToasts();
    signIn(['roles.view', 'roles.create', 'roles.update']);
  });
  afterAll(() => server.close());

  it('creates a role with the permissions ticked in the matrix', async () => {
    renderScreen(entityScreen(roles));
    fireEvent.click(await screen.findByText('Add Role'));
    await screen.findByText('Add Role', { selector: '.ant-drawer-title' });
    const drawer = screen
      .getByText('Add Role', { selector: '.ant-drawer-title' })
      .closest('.ant-drawer') as HTMLElement;
    const nameItem = within(drawer)
      .getByText('Role name', { selector: 'label' })
      .closest('.ant-form-item') as HTMLElement;
    fireEvent.change(within(nameItem).getByRole('textbox'), { target: { value: 'Court clerk' } });
    fireEvent.click(await within(drawer).findByLabelText('Courts: Create'));
    fireEvent.click(within(drawer).getByLabelText('Judges: View'));
    fireEvent.click(within(drawer).getByText('Save'));
    await waitFor(() => expect(server.calls('POST', rolesPath)).toHaveLength(1));
    const body = JSON.parse(server.calls('POST', rolesPath)[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'Court clerk', permissionIds: [1, 2, 3] });
  });
});
