import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sdkStore, systemSettingsAtom, type SystemSettings } from '@mizan/sdk';
import { pointSdkAt, renderAt, signIn } from '@mizan/ui/testing/render';
import { formatHijri, localizeDigits, toHijri } from '@mizan/ui';
import { CalendarPage } from './CalendarPage';
import type { HearingRow } from './hearings';
import { CALENDAR_ROUTE } from './routes';
import { startCalendarServer } from './test/server';
import { fetchHearings } from './useHearings';

const stamp = '2026-01-01T09:00:00.000Z';
const OFFICE = 'مكتب المستشار سامي للمحاماة';

function hearing(id: number, date: string, patch: Partial<HearingRow> = {}): HearingRow {
  return {
    id,
    createdAt: stamp,
    updatedAt: stamp,
    lawsuitId: 100 + id,
    lawsuit: { id: 100 + id, name: `${id}/2026` },
    date,
    time: null,
    courtId: 4,
    court: { id: 4, name: 'محكمة الجيزة الابتدائية' },
    circuitId: 9,
    circuit: { id: 9, name: 'الدائرة ١٢ مدني' },
    judgeId: null,
    sessionTypeId: 2,
    sessionType: { id: 2, name: 'مرافعة' },
    attendanceId: null,
    lawyerId: 1,
    lawyer: { id: 1, name: 'سعاد حسن' },
    requirements: null,
    decision: null,
    nextDate: null,
    previousId: null,
    notes: null,
    nextId: null,
    lawsuitInfo: {
      caseNumber: String(500 + id),
      caseYear: 2025,
      customers: [{ id: 1, name: 'أحمد علي' }],
      opponents: [{ id: 2, name: 'شركة النيل' }],
    },
    ...patch,
  } as HearingRow;
}

// March 2026 starts on a Sunday: its month view runs from 1 March to 11 April (six weeks).
const HEARINGS = [
  hearing(1, '2026-03-03', { time: '10:30' }),
  hearing(2, '2026-03-03', { time: '09:00', courtId: 5, court: { id: 5, name: 'محكمة النقض' } }),
  hearing(3, '2026-03-03', {
    lawyerId: 8,
    lawyer: { id: 8, name: 'كريم فؤاد' },
    requirements: 'إعلان الخصم',
  }),
  hearing(4, '2026-03-17', { decision: 'للاطلاع', nextId: 9, nextDate: '2026-04-20' }),
  hearing(5, '2026-05-10'),
  // Attended by another lawyer, in a lawsuit the signed-in lawyer (1) is responsible for.
  hearing(6, '2026-03-05', { lawyerId: 8, lawyer: { id: 8, name: 'كريم فؤاد' } }),
];

const ADMIN = [
  'sessions.view',
  'sessions.delete',
  'lawsuits.close',
  'employees.view',
  'courts.view',
  'branches.view',
];
const LAWYER = ['sessions.view', 'lawsuits.close', 'courts.view', 'branches.view'];

let server: Awaited<ReturnType<typeof startCalendarServer>>;

async function open(query: string, permissions = ADMIN) {
  signIn(permissions, 'سعاد حسن');
  server = await startCalendarServer({
    hearings: HEARINGS,
    branchOf: { 1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 3 },
    responsibleOf: { 6: [1] },
    lists: { courts: [{ id: 4, name: 'محكمة الجيزة الابتدائية' }], branches: [{ id: 2, name: 'فرع الدقي' }] },
  });
  pointSdkAt(server.url);
  return renderAt(`${CALENDAR_ROUTE}?${query}`, <CalendarPage />);
}
const lastRequest = () => server.hearingRequests().at(-1)!.query;

beforeEach(() => {
  act(() =>
    sdkStore.set(systemSettingsAtom, {
      officeName: OFFICE,
      timeZone: 'Africa/Cairo',
      calendar: 'hijri',
    } as SystemSettings),
  );
});
afterEach(async () => {
  // Unmounted first: the page's queries end with it, before the server goes.
  cleanup();
  await server.close();
  act(() => sdkStore.set(systemSettingsAtom, null));
});

describe('hearings calendar', () => {
  it("shows the month's hearings from Sunday, in Arabic, with the Hijri day beside each day", async () => {
    const { location } = await open('date=2026-03-01');
    expect(screen.getByRole('heading', { name: 'رزنامة الجلسات' })).toBeInTheDocument();
    // Hearings at 09:00 and 10:30 and one without a time on the 3rd, one postponed on the 17th.
    expect(await screen.findByText('2/2026 · أحمد علي ضد شركة النيل')).toBeInTheDocument();
    expect(screen.getByText('1/2026 · أحمد علي ضد شركة النيل')).toBeInTheDocument();
    expect(screen.getByText('4/2026 · أحمد علي ضد شركة النيل').closest('.fc-event')).toHaveClass(
      'mizan-hearing-postponed',
    );
    expect(screen.queryByText(/^5\/2026/)).not.toBeInTheDocument();
    // One request for the six weeks shown, at the largest page size; an administrator sees everyone's.
    expect(server.hearingRequests()).toHaveLength(1);
    expect(Object.fromEntries(lastRequest())).toMatchObject({
      from: '2026-03-01',
      to: '2026-04-11',
      pageSize: '100',
      page: '1',
    });
    expect(lastRequest().has('lawyerId')).toBe(false);

    const headers = [...document.querySelectorAll('.fc-col-header-cell')].map((c) => c.textContent);
    expect(headers[0]).toBe('الأحد');
    const cell = document.querySelector('.fc-daygrid-day[data-date="2026-03-17"]')!;
    const hijri = toHijri(new Date(2026, 2, 17));
    expect(within(cell as HTMLElement).getByText(localizeDigits(String(hijri.day), 'ar'))).toHaveAttribute(
      'title',
      formatHijri(new Date(2026, 2, 17), 'ar'),
    );
    expect(within(cell as HTMLElement).getByText('١٧')).toBeInTheDocument();
    // A day holding a hearing is named by all it shows, not by its day number alone.
    expect(cell).not.toHaveAttribute('aria-labelledby');
    expect(location()).toBe(`${CALENDAR_ROUTE}?date=2026-03-01`);
  });

  it('names weekdays by their letter on a phone, the whole name on hover', async () => {
    // jsdom lays nothing out: the calendar's frame is given a phone's width, and its size is
    // reported once observed, as a browser does.
    const width = jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(358);
    const observed = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(private readonly report: ResizeObserverCallback) {}
      observe() {
        queueMicrotask(() => this.report([], this as unknown as ResizeObserver));
      }
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    try {
      await open('date=2026-03-01');
      await waitFor(() => expect(document.querySelector('.fc-col-header-cell abbr')).not.toBeNull());
      const names = [...document.querySelectorAll('.fc-col-header-cell abbr')];
      expect(names.map((n) => n.textContent)).toEqual(['ح', 'ن', 'ث', 'ر', 'خ', 'ج', 'س']);
      expect(names.map((n) => n.getAttribute('title'))).toEqual([
        'الأحد',
        'الاثنين',
        'الثلاثاء',
        'الأربعاء',
        'الخميس',
        'الجمعة',
        'السبت',
      ]);
    } finally {
      globalThis.ResizeObserver = observed;
      width.mockRestore();
    }
  });

  it('opens a hearing on click, and a day number opens that day’s roll', async () => {
    const { location } = await open('date=2026-03-01');
    await screen.findByText('1/2026 · أحمد علي ضد شركة النيل');
    const day = document.querySelector('.fc-daygrid-day[data-date="2026-03-03"] .fc-daygrid-day-number')!;
    fireEvent.click(day);
    expect(location()).toBe(`${CALENDAR_ROUTE}?date=2026-03-01&roll=2026-03-03`);
    expect(await screen.findByRole('region', { name: 'رول الجلسات' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: /العودة إلى الرزنامة/ }));
    fireEvent.click(await screen.findByText('1/2026 · أحمد علي ضد شركة النيل'));
    expect(location()).toBe('/admin/lawsuits/sessions/1');
  });

  it("shows a lawyer their own hearings by default, and everyone's once switched off", async () => {
    const { location } = await open('date=2026-03-01', LAWYER);
    await screen.findByText('1/2026 · أحمد علي ضد شركة النيل');
    // Their own: the hearings they attend and those of the lawsuits they are responsible for.
    expect(lastRequest().get('employeeId')).toBe('1');
    expect(lastRequest().has('lawyerId')).toBe(false);
    expect(screen.getByText('6/2026 · أحمد علي ضد شركة النيل')).toBeInTheDocument();
    expect(screen.queryByText('3/2026 · أحمد علي ضد شركة النيل')).not.toBeInTheDocument();
    const mine = screen.getByRole('switch', { name: 'جلساتي فقط' });
    expect(mine).toBeChecked();
    // The lawyer select reads the hearing field's picker, not the employees list a lawyer may
    // not read: shown, held on the lawyer while "mine" is on.
    expect(screen.getByRole('combobox', { name: 'المحامي الحاضر' })).toBeDisabled();

    fireEvent.click(mine);
    expect(await screen.findByText('3/2026 · أحمد علي ضد شركة النيل')).toBeInTheDocument();
    expect(lastRequest().has('lawyerId')).toBe(false);
    expect(lastRequest().has('employeeId')).toBe(false);
    expect(location()).toContain('mine=0');
    expect(screen.getByRole('combobox', { name: 'المحامي الحاضر' })).toBeEnabled();
  });

  it('sends the court and branch filters of the address', async () => {
    await open('view=week&date=2026-03-01&courtId=4&branchId=2');
    expect(await screen.findByText('1/2026 · أحمد علي ضد شركة النيل')).toBeInTheDocument();
    expect(Object.fromEntries(lastRequest())).toMatchObject({
      from: '2026-03-01',
      to: '2026-03-07',
      courtId: '4',
      branchId: '2',
    });
    // Only the hearing of court 4 in branch 2 (and 3, without a time, same court and branch).
    expect(screen.queryByText('2/2026 · أحمد علي ضد شركة النيل')).not.toBeInTheDocument();
    // The week's columns carry the Hijri date.
    expect(document.querySelector('.fc-col-header-cell[data-date="2026-03-03"]')!.textContent).toContain(
      formatHijri(new Date(2026, 2, 3), 'ar'),
    );
  });
});

describe('hearing roll', () => {
  it("lists the day's hearings by time with what the lawyer needs, under the office's name", async () => {
    const print = jest.spyOn(window, 'print').mockImplementation(() => undefined);
    const { location } = await open('roll=2026-03-03');
    const roll = screen.getByRole('region', { name: 'رول الجلسات' });
    await waitFor(() => expect(within(roll).getAllByRole('row')).toHaveLength(4));
    expect(within(roll).getByText(OFFICE)).toBeInTheDocument();
    expect(within(roll).getByText(formatHijri(new Date(2026, 2, 3), 'ar'))).toBeInTheDocument();
    expect(lastRequest().get('from')).toBe('2026-03-03');
    expect(lastRequest().get('to')).toBe('2026-03-03');

    const [, ...lines] = within(roll).getAllByRole('row');
    const cells = lines.map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
    // 09:00, 10:30, then the hearing without a time.
    expect(cells.map((c) => c[1])).toEqual(['٠٩:٠٠', '١٠:٣٠', 'بلا موعد']);
    expect(cells[0]).toEqual([
      '١',
      '٠٩:٠٠',
      'محكمة النقضالدائرة ١٢ مدني',
      '2/2026',
      '502/2025',
      'أحمد علي',
      'شركة النيل',
      'مرافعة',
      '',
      'سعاد حسن',
    ]);
    expect(cells[2]![8]).toBe('إعلان الخصم');
    expect(cells[2]![9]).toBe('كريم فؤاد');

    fireEvent.click(screen.getByRole('button', { name: /طباعة/ }));
    expect(print).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: /العودة إلى الرزنامة/ }));
    // Back to today's month, which names no day in the address.
    expect(location()).toBe(CALENDAR_ROUTE);
    await waitFor(() => expect(server.hearingRequests()).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'الفرع' })).toBeEnabled());
    print.mockRestore();
  });
});

describe('fetching a range', () => {
  it('reads every page of the list (at most 100 rows a page) into one list', async () => {
    const many = Array.from({ length: 230 }, (_, i) => hearing(i + 1, '2026-03-10'));
    server = await startCalendarServer({ hearings: many });
    pointSdkAt(server.url);
    const page = await fetchHearings({ from: '2026-03-01', to: '2026-03-31', courtId: 4 });
    expect(page.items.map((h) => h.id)).toEqual(many.map((h) => h.id));
    expect(page.total).toBe(230);
    expect(server.hearingRequests().map((r) => [r.query.get('page'), r.query.get('pageSize')])).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100'],
    ]);
    expect(server.hearingRequests().every((r) => r.query.get('courtId') === '4')).toBe(true);
  });
});
