import { AREA_PERMISSIONS, AUDIT_VERBS, employees, registry, AUDIT_ROUTES } from '@mizan/contracts';
import { createI18n, i18n } from '@mizan/i18n';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { AuditPage } from './AuditPage';
import type { AuditEntry } from './types';

const path = `/api${AUDIT_ROUTES.list.path}`;
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
    id: 3,
    createdAt: '2026-11-21T11:00:00.000Z',
    employeeId: 1,
    employee: { id: 1, name: 'Huda Saleh' },
    entity: 'countries',
    entityId: 7,
    action: 'update',
    before: {
      id: 7,
      name: 'Egypt',
      code: 'EG',
      continentId: 1,
      continent: { id: 1, name: 'Asia' },
      status: true,
    },
    after: {
      id: 7,
      name: 'Egypt',
      code: 'EGY',
      continentId: 2,
      continent: { id: 2, name: 'Africa' },
      status: false,
    },
    ip: null,
  },
  {
    id: 4,
    createdAt: '2026-11-21T12:00:00.000Z',
    employeeId: 1,
    employee: { id: 1, name: 'Huda Saleh' },
    entity: 'taskTypes',
    entityId: 9,
    action: 'delete',
    before: { id: 9, name: 'Filing', color: '#1d4ed8' },
    after: null,
    ip: null,
  },
  {
    id: 5,
    createdAt: '2026-11-21T13:00:00.000Z',
    employeeId: 2,
    employee: { id: 2, name: 'فاطمة الزهراء', gender: 'female' },
    entity: 'lawsuits',
    entityId: 11,
    action: 'close',
    before: { id: 11, state: 'open' },
    after: { id: 11, state: 'closed' },
    ip: null,
  },
  {
    id: 6,
    createdAt: '2026-11-21T14:00:00.000Z',
    employeeId: 3,
    employee: { id: 3, name: 'أحمد', gender: 'male' },
    entity: 'lawsuits',
    entityId: 12,
    action: 'reopen',
    before: { id: 12, state: 'closed' },
    after: { id: 12, state: 'open' },
    ip: null,
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

/** A viewport width for antd's breakpoints (jsdom matches no media query by itself). */
function setWidth(px: number) {
  window.matchMedia = (query: string) =>
    ({
      matches: [...query.matchAll(/(min|max)-width:\s*(\d+)/g)].every(([, kind, n]) =>
        kind === 'min' ? px >= Number(n) : px <= Number(n),
      ),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

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
    setWidth(1440);
    signIn([AREA_PERMISSIONS.auditView, 'employees.view']);
  });
  afterAll(() => server.close());

  it('shows who changed what, and the field-by-field diff', async () => {
    renderScreen(<AuditPage />);
    const row = (await screen.findByText('Courts')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Huda Saleh')).toBeInTheDocument();
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

  it('names every verb it can record in both languages, never the raw action', () => {
    const verbs = [...AUDIT_VERBS, ...registry.flatMap((entity) => Object.keys(entity.actions ?? {}))];
    expect(verbs).toEqual(expect.arrayContaining(['close', 'reopen', 'postpone', 'changeDue']));
    for (const lng of ['ar', 'en'] as const) {
      const t = createI18n(lng);
      expect(verbs.filter((verb) => !t.exists(`ui:record.history.actions.${verb}`))).toEqual([]);
    }
  });

  it('reads in Arabic with the verb agreeing with who acted', async () => {
    await act(() => i18n.changeLanguage('ar'));
    try {
      renderScreen(<AuditPage />);
      const closed = (await screen.findByText('فاطمة الزهراء')).closest('tr') as HTMLElement;
      expect(within(closed).getByText('أغلقت')).toBeInTheDocument();
      const reopened = screen.getByText('أحمد').closest('tr') as HTMLElement;
      expect(within(reopened).getByText('أعاد فتح')).toBeInTheDocument();
      expect(screen.queryByText('close')).toBeNull();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });

  it('shows values as the lists do: reference titles, yes/no, colours, codes isolated; the record linked', async () => {
    renderScreen(<AuditPage />);
    const row = (await screen.findByText('Countries')).closest('tr') as HTMLElement;
    expect(within(row).getByRole('link', { name: 'Egypt' })).toHaveAttribute(
      'href',
      '/admin/settings/places/countries/7',
    );
    fireEvent.click(within(row).getByRole('button'));
    const diff = (await screen.findByText('Africa')).closest('table') as HTMLElement;
    // The reference shows its title under the id field's label, never the id or a second "continent" row.
    expect(within(diff).getByText('Asia')).toBeInTheDocument();
    expect(within(diff).getByText('Continent')).toBeInTheDocument();
    expect(within(diff).queryByText('continent')).toBeNull();
    expect(within(diff).getByText('Inactive')).toBeInTheDocument();
    expect(within(diff).getByText('EGY').closest('bdi')).not.toBeNull();
    expect(within(diff).getAllByRole('row')).toHaveLength(4);

    const deleted = screen.getByText('Task types').closest('tr') as HTMLElement;
    // A deleted record has no page to open: its title is shown without a link.
    expect(within(deleted).getByText('Filing').closest('a')).toBeNull();
    fireEvent.click(within(deleted).getByRole('button'));
    const swatch = await screen.findByText('#1d4ed8');
    expect(swatch.closest('td')!.querySelector('span[aria-hidden]')).toHaveStyle({ background: '#1d4ed8' });
  });

  it('is a list of cards on a phone, with the changes stacked', async () => {
    setWidth(390);
    try {
      renderScreen(<AuditPage />);
      const card = (await screen.findByText('Countries')).closest('.ant-list-item') as HTMLElement;
      expect(document.querySelector('table')).toBeNull();
      fireEvent.click(within(card).getByRole('button'));
      expect(await within(card).findByText('Africa')).toBeInTheDocument();
      expect(within(card).getByText('Continent').tagName).toBe('DT');
    } finally {
      setWidth(1440);
    }
  });

  it('filters by entity', async () => {
    renderScreen(<AuditPage />);
    await screen.findByText('Courts');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Record type' }));
    fireEvent.click(await screen.findByText('Courts', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(screen.queryByText('System settings', { selector: 'td' })).toBeNull());
    expect(server.calls('GET', path).at(-1)!.query.get('entity')).toBe('courts');
  });
});
