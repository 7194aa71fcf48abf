import { AREA_PERMISSIONS, SYSTEM, employees } from '@mizan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { AuditPage } from './AuditPage';
import type { AuditEntry } from './types';

const path = `/api${SYSTEM.audit}`;
const entries: AuditEntry[] = [
  {
    id: 2,
    createdAt: '2026-11-21T10:00:00.000Z',
    employeeId: 1,
    employee: { id: 1, name: 'Huda Saleh' },
    entity: 'courts',
    entityId: 5,
    action: 'update',
    before: { id: 5, name: 'Riyadh court', phone: null, updatedAt: 'a' },
    after: { id: 5, name: 'Riyadh General Court', phone: null, updatedAt: 'b' },
    ip: '127.0.0.1',
  },
  {
    id: 1,
    createdAt: '2026-11-20T09:00:00.000Z',
    employeeId: null,
    employee: null,
    entity: 'systemSettings',
    entityId: 1,
    action: 'update',
    before: { officeName: 'A' },
    after: { officeName: 'B' },
    ip: null,
  },
];

describe('AuditPage', () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer({
      [`GET ${path}`]: (req) => {
        const entity = req.query.get('entity');
        const items = entries.filter((e) => !entity || e.entity === entity);
        return { body: { data: { items, total: items.length, page: 1, pageSize: 20 } } };
      },
      [`GET /api${employees.path}`]: () => ({
        body: { data: { items: [], total: 0, page: 1, pageSize: 20 } },
      }),
    });
    pointSdkAt(server.url);
    captureToasts();
    signIn([AREA_PERMISSIONS.auditView, 'employees.view']);
  });
  afterAll(() => server.close());

  it('shows who changed what, and the field-by-field diff', async () => {
    renderScreen(<AuditPage />);
    const row = (await screen.findByText('Huda Saleh')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Courts')).toBeInTheDocument();
    expect(within(row).getByText('Edited')).toBeInTheDocument();
    const system = screen.getByText('System settings').closest('tr') as HTMLElement;
    expect(within(system).getByText('System')).toBeInTheDocument();
    fireEvent.click(within(row).getByRole('button'));
    const before = await screen.findByText('Riyadh court');
    const diff = before.closest('table') as HTMLElement;
    expect(within(diff).getByText('Riyadh General Court')).toBeInTheDocument();
    // Only the changed field, under its translated label.
    expect(within(diff).getAllByRole('row')).toHaveLength(2);
    expect(within(diff).getByText('Name')).toBeInTheDocument();
    const first = server.calls('GET', path)[0]!;
    expect(first.query.get('sort')).toBe('createdAt:desc');
  });

  it('filters by entity', async () => {
    renderScreen(<AuditPage />);
    await screen.findByText('Huda Saleh');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Record type' }));
    fireEvent.click(await screen.findByText('Courts', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(screen.queryByText('System settings', { selector: 'td' })).toBeNull());
    expect(server.calls('GET', path).at(-1)!.query.get('entity')).toBe('courts');
  });
});
