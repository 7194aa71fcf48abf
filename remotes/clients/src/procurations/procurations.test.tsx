import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { customers, employees, procurationCases, procurations } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { sdkStore, systemSettingsAtom, type SystemSettings } from '@mizan/sdk';
import { EntityPage, type EntityRow } from '@mizan/ui';
import { captureToasts, pointSdkAt, renderAt, signIn } from '@mizan/ui/testing/render';
import { startClientsServer } from '../test/server';
import { procurationColumns } from './columns';
import { expiryState } from './expiry';
import { expiryText } from './ExpiryTag';

const TODAY = '2026-11-23';
const ROUTE = '/admin/customers/procurations';

describe('expiry state', () => {
  it.each([
    [null, { kind: 'open' }],
    [undefined, { kind: 'open' }],
    ['2026-12-03', { kind: 'soon', days: 10 }],
    ['2026-11-23', { kind: 'soon', days: 0 }],
    ['2026-12-23', { kind: 'soon', days: 30 }],
    ['2026-12-24', { kind: 'valid', days: 31 }],
    ['2026-11-22', { kind: 'expired', days: -1 }],
    ['2025-01-01', { kind: 'expired', days: -691 }],
    // Across the end of March (a clock change in many countries): still whole days.
    ['2027-04-02', { kind: 'valid', days: 130 }],
  ])('%s on %s', (expiry, state) => {
    expect(expiryState(expiry, TODAY)).toEqual(state);
  });

  it("flags by the office's day (its time zone in the settings), not the browser's", () => {
    jest.useFakeTimers({ now: new Date('2026-11-22T22:30:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const flag = (timeZone: string) => {
        sdkStore.set(systemSettingsAtom, { timeZone } as SystemSettings);
        const column = procurationColumns()([]).find((c) => c.key === 'expiry');
        return column?.exportValue?.(row(1, '1', '2026-11-22') as unknown as EntityRow);
      };
      // 01:30 on the 23rd in Riyadh: the power of attorney ending on the 22nd has expired.
      expect(flag('Asia/Riyadh')).toBe(expiryText({ kind: 'expired', days: -1 }, i18n.t));
      // Still the 22nd in UTC: it ends today.
      expect(flag('UTC')).toBe(expiryText({ kind: 'soon', days: 0 }, i18n.t));
    } finally {
      sdkStore.set(systemSettingsAtom, null);
      jest.useRealTimers();
    }
  });
});

const row = (id: number, number: string, expiryDate: string | null) => ({
  id,
  number,
  year: 2026,
  issueDate: '2026-01-10',
  expiryDate,
  customerIds: [1],
  customers: [{ id: 1, name: 'أحمد إبراهيم' }],
  lawyerIds: [],
  lawyers: [],
  files: [],
});

let server: Awaited<ReturnType<typeof startClientsServer>>;
beforeEach(async () => {
  localStorage.clear();
  captureToasts();
  signIn(['procurations.view']);
  server = await startClientsServer([procurations, customers, employees, procurationCases], {
    rows: {
      procurations: [
        row(1, '101', '2026-12-03'),
        row(2, '102', '2026-11-01'),
        row(3, '103', null),
        row(4, '104', '2027-06-01'),
      ],
    },
  });
  pointSdkAt(server.url);
});
afterEach(() => server.close());

const lists = () => server.to('GET', procurations.path);
const rowOf = (number: string) => screen.getByText(number).closest('tr') as HTMLElement;

describe('powers of attorney list', () => {
  it('flags rows expiring within 30 days, marks expired ones and names open-ended ones', async () => {
    const { container } = renderAt(
      ROUTE,
      <EntityPage entity={procurations} columns={procurationColumns(() => TODAY)} />,
    );
    await screen.findByText('101');
    const soon = within(rowOf('101')).getByText('ينتهي خلال 10 أيام');
    expect(soon).toHaveClass('ant-tag-warning');
    expect(within(rowOf('102')).getByText('منتهي')).toHaveClass('ant-tag-error');
    expect(within(rowOf('103')).getByText('غير محدد المدة')).toBeInTheDocument();
    expect(within(rowOf('104')).getByText('ساري')).toHaveClass('ant-tag-success');
    const headers = [...container.querySelectorAll('thead th')].map((th) => th.textContent);
    // The flag sits right after the expiry date.
    expect(headers[headers.indexOf('تاريخ الانتهاء') + 1]).toBe('الصلاحية');
  });

  it('filters by client, lawyer and case, and by the declared "expires within" and "expired" filters, in the URL', async () => {
    const page = renderAt(
      `${ROUTE}?expired=true`,
      <EntityPage entity={procurations} columns={procurationColumns(() => TODAY)} />,
    );
    await screen.findByText('101');
    // The field filters of the definition (refs and ref), derived.
    for (const label of ['الموكلون', 'المحامون الوكلاء', 'حالة التوكيل'])
      expect(screen.getByRole('combobox', { name: label })).toBeInTheDocument();
    // A declared filter read back from the URL, and sent.
    const expired = screen.getByRole('checkbox', { name: 'منتهي الصلاحية' });
    expect(expired).toBeChecked();
    expect(lists()[0]!.query.get('expired')).toBe('true');

    fireEvent.change(screen.getByRole('spinbutton', { name: 'ينتهي خلال (يومًا)' }), {
      target: { value: '٣٠' },
    });
    await waitFor(() => expect(lists().at(-1)!.query.get('expiresWithin')).toBe('30'));
    expect(page.location()).toContain('expiresWithin=30');

    fireEvent.click(expired);
    await waitFor(() => expect(page.location()).not.toContain('expired='));
    await waitFor(() => expect(lists().at(-1)!.query.has('expired')).toBe(false));
    expect(lists().at(-1)!.query.get('expiresWithin')).toBe('30');
  });
});
