import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sessions } from '@mizan/contracts';
import { entityElement, recordElement } from '@mizan/ui';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { ALL_PERMISSIONS, BENCH, LAWSUIT, LEGAL_ENTITIES } from '../test/fixtures';
import { renderRoute, switchLanguage } from '../test/render';
import { startLegalServer, type LegalServer, type LegalServerSpec, type Row } from '../test/server';

jest.setTimeout(240_000);

let server: LegalServer;
let toasts: ReturnType<typeof captureToasts>;

/** A chain of three hearings: 40 postponed to 41, 41 to 42, 42 not yet held. */
const CHAIN: Row[] = [
  { id: 40, lawsuitId: 7, date: '2026-02-01', decision: 'للاطلاع والمستندات', nextDate: '2026-03-01' },
  {
    id: 41,
    lawsuitId: 7,
    date: '2026-03-01',
    time: '09:30',
    decision: 'للمذكرات',
    nextDate: '2026-04-05',
    previousId: 40,
    previous: { id: 40, name: '2026-02-01' },
  },
  { id: 42, lawsuitId: 7, date: '2026-04-05', previousId: 41, previous: { id: 41, name: '2026-03-01' } },
];

async function openHearing(id: number, spec: LegalServerSpec = {}, chainRows: Row[] = CHAIN) {
  server = await startLegalServer(LEGAL_ENTITIES, {
    ...spec,
    rows: { ...BENCH, lawsuits: [LAWSUIT], sessions: chainRows },
  });
  pointSdkAt(server.url);
  const view = renderRoute(
    `${sessions.route}/${id}`,
    `${sessions.route}/:id`,
    recordElement(sessions, ENTITY_OVERRIDES.sessions),
  );
  return { view, chain: await screen.findByRole('region', { name: 'سلسلة التأجيل' }) };
}
const steps = (chain: HTMLElement) => [...chain.querySelectorAll('[data-testid^="chain-"]')] as HTMLElement[];
/** A hearing's link in the chain, named by the date it shows (both calendars), not by a label of its own. */
const chainLink = (step: HTMLElement, gregorian: string) => {
  const link = within(step).getByRole('link');
  expect(link).not.toHaveAttribute('aria-label');
  expect(link).toHaveAccessibleName(expect.stringContaining(gregorian));
  return link;
};
const fieldItem = (scope: HTMLElement, label: string) =>
  within(scope).getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;

beforeEach(async () => {
  localStorage.clear();
  toasts = captureToasts();
  signIn(ALL_PERMISSIONS);
  await switchLanguage('ar');
});
afterEach(() => server.close());

describe('hearing record page', () => {
  it('shows the chain first to last, this hearing marked, the others linked, with decisions and next dates; postponed already: disabled, with the next one linked', async () => {
    const { chain } = await openHearing(41);
    await waitFor(() => expect(steps(chain)).toHaveLength(3));
    const [first, current, last] = steps(chain) as [HTMLElement, HTMLElement, HTMLElement];
    expect(current).toHaveAttribute('aria-current', 'step');
    expect(within(current).getByText('هذه الجلسة')).toBeInTheDocument();
    expect(within(current).queryByRole('link')).toBeNull();
    expect(within(current).getByText('للمذكرات')).toBeInTheDocument();
    expect(within(current).getByText('09:30')).toHaveAttribute('dir', 'ltr');
    expect(chainLink(first, '٢/١/٢٠٢٦')).toHaveAttribute('href', '/admin/lawsuits/sessions/40');
    expect(within(first).getByText('للاطلاع والمستندات')).toBeInTheDocument();
    expect(within(first).getByText('أُجِّلت إلى:')).toBeInTheDocument();
    expect(chainLink(last, '٤/٥/٢٠٢٦')).toHaveAttribute('href', '/admin/lawsuits/sessions/42');
    expect(screen.getByText(/سلسلة من ٣ جلسات/)).toBeInTheDocument();
    // Each step's number in the digits of the dates beside it.
    expect(steps(chain).map((step) => within(step).getByText(/^الجلسة /).textContent)).toEqual([
      'الجلسة ١',
      'الجلسة ٢',
      'الجلسة ٣',
    ]);

    expect(screen.getByRole('button', { name: /تسجيل تأجيل/ })).toBeDisabled();
    expect(screen.getByRole('link', { name: /الجلسة التالية/ })).toHaveAttribute(
      'href',
      '/admin/lawsuits/sessions/42',
    );
  });

  it('counts a chain of two hearings in the dual, in either language', async () => {
    const { chain } = await openHearing(41, {}, [CHAIN[0]!, { ...CHAIN[1]!, nextDate: null }]);
    await waitFor(() => expect(steps(chain)).toHaveLength(2));
    expect(screen.getByText('سلسلة من جلستين، من الأولى إلى الأخيرة')).toBeInTheDocument();
    await switchLanguage('en');
    expect(await screen.findByText('A chain of 2 sessions, first to last')).toBeInTheDocument();
    expect(within(steps(chain)[1]!).getByText('Session 2')).toBeInTheDocument();
  });

  it('records a postponement: decision and next date required, sent with the version; then the next hearing is linked', async () => {
    const { chain } = await openHearing(42);
    await waitFor(() => expect(steps(chain)).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: /تسجيل تأجيل/ }));
    const dialog = (await screen.findByText('تسجيل قرار التأجيل', { selector: '.ant-modal-title' })).closest(
      '.ant-modal',
    ) as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: 'تسجيل التأجيل' }));
    expect(await within(dialog).findByText('الحقل «القرار» مطلوب')).toBeInTheDocument();
    expect(within(dialog).getByText('الحقل «التأجيل إلى» مطلوب')).toBeInTheDocument();

    fireEvent.change(within(fieldItem(dialog, 'القرار')).getByRole('textbox'), {
      target: { value: 'للرد على المذكرات' },
    });
    const date = within(fieldItem(dialog, 'التأجيل إلى')).getByRole('textbox');
    fireEvent.mouseDown(date);
    fireEvent.change(date, { target: { value: '5/10/2026' } });
    fireEvent.keyDown(date, { key: 'Enter', code: 'Enter' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'تسجيل التأجيل' }));

    await waitFor(() => expect(server.to('PATCH', `${sessions.path}/42/postpone`)).toHaveLength(1));
    expect(server.body(server.to('PATCH', `${sessions.path}/42/postpone`)[0]!)).toEqual({
      decision: 'للرد على المذكرات',
      nextDate: '2026-05-10',
      updatedAt: '2026-11-01T09:00:00.000Z',
    });
    await waitFor(() => expect(toasts.success).toContain('سُجِّل التأجيل وأُنشئت الجلسة التالية'));
    const region = () => screen.getByRole('region', { name: 'سلسلة التأجيل' });
    await waitFor(() => expect(steps(region())).toHaveLength(4));
    expect(steps(chain)).toHaveLength(4);
    expect(await screen.findByRole('link', { name: /الجلسة التالية/ })).toHaveAttribute(
      'href',
      '/admin/lawsuits/sessions/1001',
    );
    expect(screen.getByRole('button', { name: /تسجيل تأجيل/ })).toBeDisabled();
  });

  it('shows a refused next date (422) on its field', async () => {
    await openHearing(42, {
      action: () => ({
        status: 422,
        body: {
          message: 'تحقق',
          code: 'validation',
          errors: { nextDate: ['يجب أن يكون موعد التأجيل بعد تاريخ الجلسة'] },
        },
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: /تسجيل تأجيل/ }));
    const dialog = (await screen.findByText('تسجيل قرار التأجيل', { selector: '.ant-modal-title' })).closest(
      '.ant-modal',
    ) as HTMLElement;
    fireEvent.change(within(fieldItem(dialog, 'القرار')).getByRole('textbox'), {
      target: { value: 'تأجيل' },
    });
    const date = within(fieldItem(dialog, 'التأجيل إلى')).getByRole('textbox');
    fireEvent.mouseDown(date);
    fireEvent.change(date, { target: { value: '3/1/2026' } });
    fireEvent.keyDown(date, { key: 'Enter', code: 'Enter' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'تسجيل التأجيل' }));
    expect(
      await within(fieldItem(dialog, 'التأجيل إلى')).findByText('يجب أن يكون موعد التأجيل بعد تاريخ الجلسة'),
    ).toBeInTheDocument();
  });
});

describe('hearings list', () => {
  it('flags a past hearing with no decision, links to the calendar, and filters by dates (English, left to right)', async () => {
    await switchLanguage('en');
    server = await startLegalServer(LEGAL_ENTITIES, {
      rows: {
        ...BENCH,
        sessions: [
          { id: 50, lawsuitId: 7, date: '2020-01-05', decision: null },
          { id: 51, lawsuitId: 7, date: '2020-01-06', decision: 'Reserved for judgment' },
        ],
      },
    });
    pointSdkAt(server.url);
    renderRoute(sessions.route, sessions.route, entityElement(sessions, ENTITY_OVERRIDES.sessions));
    const flagged = (await screen.findByText('No decision recorded')).closest('tr') as HTMLElement;
    expect(flagged).toHaveAttribute('data-row-key', '50');
    expect(screen.getAllByText('No decision recorded')).toHaveLength(1);
    expect(screen.getByRole('link', { name: /Open the calendar/ })).toHaveAttribute(
      'href',
      '/admin/lawsuits/sessions/calendar',
    );
    expect(screen.getByLabelText('From date')).toBeInTheDocument();
    expect(screen.getByLabelText('To date')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Past, no decision' })).toBeInTheDocument();
    expect(document.querySelector('.ant-table-rtl')).toBeNull();
  });
});
