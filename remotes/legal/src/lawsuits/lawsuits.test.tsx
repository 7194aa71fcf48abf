import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lawsuits, OPTIONS_ROUTES, pathOf } from '@mizan/contracts';
import { entityElement, recordElement } from '@mizan/ui';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { ALL_PERMISSIONS, BENCH, LAWSUIT, LEGAL_ENTITIES } from '../test/fixtures';
import { renderRoute, switchLanguage } from '../test/render';
import { startLegalServer, type LegalServer, type LegalServerSpec, type Row } from '../test/server';

// A drawer of twenty inputs with several selects: minutes when every package's tests share two cores.
jest.setTimeout(240_000);

let server: LegalServer;
let toasts: ReturnType<typeof captureToasts>;

async function serve(rows: Record<string, Row[]> = {}, spec: LegalServerSpec = {}) {
  server = await startLegalServer(LEGAL_ENTITIES, {
    ...spec,
    rows: { ...BENCH, lawsuits: [LAWSUIT], ...rows },
  });
  pointSdkAt(server.url);
}

const option = (text: string) => screen.findByText(text, { selector: '.ant-select-item-option-content' });
const shownOptions = () =>
  [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')]
    .flatMap((d) => [...d.querySelectorAll('.ant-select-item-option-content')])
    .map((o) => o.textContent);
const fieldItem = (scope: HTMLElement, label: string) =>
  within(scope).getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;
const openSelect = (scope: HTMLElement, label: string) =>
  fireEvent.mouseDown(within(fieldItem(scope, label)).getByRole('combobox'));
async function choose(scope: HTMLElement, label: string, text: string) {
  openSelect(scope, label);
  fireEvent.click(await option(text));
}
const selected = (scope: HTMLElement, label: string) =>
  fieldItem(scope, label).querySelector('.ant-select-content')?.textContent ?? '';
const lastQuery = (path: string) => server.to('GET', path).at(-1)?.query;

async function openCreate(spec: LegalServerSpec = {}) {
  await serve({}, spec);
  renderRoute(lawsuits.route, lawsuits.route, entityElement(lawsuits, ENTITY_OVERRIDES.lawsuits));
  await screen.findByText('2026/0007');
  fireEvent.click(screen.getByText('إضافة دعوى'));
  return (await screen.findByText('إضافة دعوى', { selector: '.ant-drawer-title' })).closest(
    '.ant-drawer',
  ) as HTMLElement;
}

beforeEach(async () => {
  localStorage.clear();
  toasts = captureToasts();
  signIn(ALL_PERMISSIONS);
  await switchLanguage('ar');
});
afterEach(() => server.close());

describe('lawsuit form', () => {
  it('lays the inputs out by sections and says a blank file number is generated', async () => {
    const drawer = await openCreate();
    const names = within(drawer)
      .getAllByRole('region')
      .map((r) => r.getAttribute('aria-labelledby') && within(r).getByRole('separator').textContent);
    expect(names).toEqual([
      'الملف والمحكمة',
      'أطراف الدعوى',
      'فريق العمل والمكتب',
      'المبالغ',
      'الموضوع والملاحظات',
    ]);
    const file = within(drawer).getByRole('region', { name: 'الملف والمحكمة' });
    expect(within(file).getByText('القاضي', { selector: 'label' })).toBeInTheDocument();
    expect(within(fieldItem(drawer, 'رقم الملف بالمكتب')).getByText(/اتركه فارغًا ليُولَّد/)).toBeInTheDocument();
    const money = within(drawer).getByRole('region', { name: 'المبالغ' });
    expect(within(money).getByText('الأتعاب المتفق عليها', { selector: 'label' })).toBeInTheDocument();
  });

  it('offers the circuits of the chosen court and the judges of the chosen circuit; another court clears both', async () => {
    const drawer = await openCreate();
    const circuitItem = fieldItem(drawer, 'الدائرة القضائية');
    expect(circuitItem.querySelector('.ant-select-disabled')).not.toBeNull();
    expect(within(circuitItem).getByText('اختر المحكمة أولًا لتظهر دوائرها')).toBeInTheDocument();

    await choose(drawer, 'المحكمة', 'محكمة شمال القاهرة');
    await waitFor(() => expect(circuitItem.querySelector('.ant-select-disabled')).toBeNull());
    openSelect(drawer, 'الدائرة القضائية');
    await waitFor(() => expect(shownOptions()).toEqual(['الدائرة الأولى مدني', 'الدائرة الثانية تجاري']));
    expect(lastQuery(BENCH_PATHS.circuits)?.get('courtId')).toBe('1');
    fireEvent.click(await option('الدائرة الأولى مدني'));

    openSelect(drawer, 'القاضي');
    await waitFor(() => expect(shownOptions()).toEqual(['المستشار حسن فؤاد']));
    expect(lastQuery(BENCH_PATHS.judges)?.get('circuitId')).toBe('11');
    fireEvent.click(await option('المستشار حسن فؤاد'));
    await waitFor(() => expect(selected(drawer, 'القاضي')).toBe('المستشار حسن فؤاد'));

    await choose(drawer, 'المحكمة', 'محكمة الجيزة');
    await waitFor(() => expect(selected(drawer, 'الدائرة القضائية')).toBe(''));
    expect(selected(drawer, 'القاضي')).toBe('');
    openSelect(drawer, 'الدائرة القضائية');
    await waitFor(() => expect(shownOptions()).toEqual(['الدائرة الخامسة جنايات']));
    expect(lastQuery(BENCH_PATHS.circuits)?.get('courtId')).toBe('2');
  });

  it('sends the chosen bench and shows a refused circuit (422) on its field', async () => {
    const drawer = await openCreate({
      save: () => ({
        status: 422,
        body: {
          message: 'تحقق من البيانات',
          code: 'validation',
          errors: { circuitId: ['الدائرة المختارة ليست من دوائر المحكمة'] },
        },
      }),
    });
    await choose(drawer, 'الموكلون', 'أحمد إبراهيم علي');
    await choose(drawer, 'المحكمة', 'محكمة شمال القاهرة');
    await waitFor(() =>
      expect(fieldItem(drawer, 'الدائرة القضائية').querySelector('.ant-select-disabled')).toBeNull(),
    );
    await choose(drawer, 'الدائرة القضائية', 'الدائرة الثانية تجاري');
    fireEvent.click(within(drawer).getByRole('button', { name: /حفظ/ }));
    expect(
      await within(fieldItem(drawer, 'الدائرة القضائية')).findByText(
        'الدائرة المختارة ليست من دوائر المحكمة',
      ),
    ).toBeInTheDocument();
    const sent = server.body(server.to('POST', lawsuits.path)[0]!);
    expect(sent).toMatchObject({ customerIds: [3], courtId: 1, circuitId: 12 });
  });
});

/** The form's circuit and judge selects read their fields' pickers, narrowed by the court or circuit. */
const BENCH_PATHS = {
  circuits: pathOf(OPTIONS_ROUTES.list.path, { entity: lawsuits.name, field: 'circuitId' }),
  judges: pathOf(OPTIONS_ROUTES.list.path, { entity: lawsuits.name, field: 'judgeId' }),
};

async function openRecord(row: Row = LAWSUIT, spec: LegalServerSpec = {}) {
  await serve({ lawsuits: [row] }, spec);
  const view = renderRoute(
    `${lawsuits.route}/${row.id}`,
    `${lawsuits.route}/:id`,
    recordElement(lawsuits, ENTITY_OVERRIDES.lawsuits),
  );
  await screen.findByRole('heading', { name: String(row.fileNumber) });
  return view;
}

describe('closing and reopening a lawsuit', () => {
  it('asks for the final case (required) and sends it with the version read; the tag shows the outcome', async () => {
    await openRecord();
    expect(screen.getAllByText('متداولة').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: /إغلاق الدعوى/ }));
    const dialog = await screen.findByRole('dialog', { name: 'إغلاق الدعوى 2026/0007' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'تأكيد الإغلاق' }));
    expect(await within(dialog).findByText('الحقل «حالة الدعوى» مطلوب')).toBeInTheDocument();
    expect(server.to('PATCH', `${lawsuits.path}/7/close`)).toHaveLength(0);

    openSelect(dialog, 'حالة الدعوى');
    fireEvent.click(await option('حكم نهائي لصالح الموكل'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'تأكيد الإغلاق' }));
    await waitFor(() => expect(server.to('PATCH', `${lawsuits.path}/7/close`)).toHaveLength(1));
    expect(server.body(server.to('PATCH', `${lawsuits.path}/7/close`)[0]!)).toEqual({
      lawsuitCaseId: 5,
      updatedAt: '2026-11-01T09:00:00.000Z',
    });
    await waitFor(() => expect(toasts.success).toContain('أُغلقت الدعوى 2026/0007'));
    // The page reads the lawsuit again: completed, with its case's outcome.
    expect((await screen.findAllByText('منتهية: حكم لصالح الموكل')).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: /إعادة فتح الدعوى/ })).toBeInTheDocument();
  });

  it('shows a refused case (422) on the field and keeps the dialog open', async () => {
    await openRecord(LAWSUIT, {
      action: () => ({
        status: 422,
        body: { message: 'تحقق', code: 'validation', errors: { lawsuitCaseId: ['لا يوجد سجل بهذا الرقم'] } },
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: /إغلاق الدعوى/ }));
    const dialog = await screen.findByRole('dialog');
    openSelect(dialog, 'حالة الدعوى');
    fireEvent.click(await option('حكم نهائي ضد الموكل'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'تأكيد الإغلاق' }));
    expect(await within(dialog).findByText('لا يوجد سجل بهذا الرقم')).toBeInTheDocument();
  });

  it('offers only final cases to close with, never one still pending', async () => {
    await openRecord(LAWSUIT);
    fireEvent.click(screen.getByRole('button', { name: /إغلاق الدعوى/ }));
    const dialog = await screen.findByRole('dialog');
    openSelect(dialog, 'حالة الدعوى');
    expect(await option('حكم نهائي لصالح الموكل')).toBeInTheDocument();
    expect(await option('حكم نهائي ضد الموكل')).toBeInTheDocument();
    expect(document.querySelector('.ant-select-item-option[title="قيد النظر"]')).toBeNull();
  });

  it('reopens a closed lawsuit after confirmation, with the version read', async () => {
    await openRecord({ ...LAWSUIT, state: 'completed', lawsuitCaseId: 6 });
    expect((await screen.findAllByText('منتهية: حكم ضد الموكل')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: /إعادة فتح الدعوى/ }));
    expect(await screen.findByText('ستعود الدعوى 2026/0007 متداولة.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'إعادة الفتح' }));
    await waitFor(() => expect(server.to('PATCH', `${lawsuits.path}/7/reopen`)).toHaveLength(1));
    expect(server.body(server.to('PATCH', `${lawsuits.path}/7/reopen`)[0]!)).toEqual({
      updatedAt: '2026-11-01T09:00:00.000Z',
    });
    expect(await screen.findByRole('button', { name: /إغلاق الدعوى/ })).toBeInTheDocument();
  });

  it('closes from the list row too, and hides the actions without their permission', async () => {
    await serve();
    const view = renderRoute(
      lawsuits.route,
      lawsuits.route,
      entityElement(lawsuits, ENTITY_OVERRIDES.lawsuits),
    );
    await screen.findByText('2026/0007');
    fireEvent.click(await screen.findByRole('button', { name: 'إغلاق الدعوى 2026/0007' }));
    expect(
      await screen.findByText('إغلاق الدعوى 2026/0007', { selector: '.ant-modal-title' }),
    ).toBeInTheDocument();
    view.unmount();

    signIn(ALL_PERMISSIONS.filter((p) => p !== 'lawsuits.close'));
    renderRoute(lawsuits.route, lawsuits.route, entityElement(lawsuits, ENTITY_OVERRIDES.lawsuits));
    await screen.findByText('2026/0007');
    expect(screen.queryByRole('button', { name: 'إغلاق الدعوى 2026/0007' })).toBeNull();
  });
});

describe('lawsuit record page', () => {
  it('has the tabs details, hearings, attachments, payments, communications and history, and the state tag in English', async () => {
    await switchLanguage('en');
    await openRecord();
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual([
      'Details',
      'Lawsuit sessions',
      'Attachments',
      'Payments and fees',
      'Communications',
      'History',
    ]);
    expect(screen.getAllByText('Active').length).toBeGreaterThan(0);
    expect(document.querySelector('.ant-tabs-rtl')).toBeNull();
    const file = screen.getByRole('region', { name: 'File and court' });
    expect(within(file).getByText('Court')).toBeInTheDocument();
  });

  it('lists each hearing of the lawsuit with the hearings it was postponed from and to', async () => {
    const user = userEvent.setup({ delay: null });
    await serve({
      sessions: [
        { id: 40, lawsuitId: 7, date: '2026-02-01', decision: 'للاطلاع', nextDate: '2026-03-01' },
        {
          id: 41,
          lawsuitId: 7,
          date: '2026-03-01',
          previousId: 40,
          previous: { id: 40, name: '2026-02-01' },
        },
      ],
    });
    renderRoute(
      `${lawsuits.route}/7?tab=sessions`,
      `${lawsuits.route}/:id`,
      recordElement(lawsuits, ENTITY_OVERRIDES.lawsuits),
    );
    const panel = await screen.findByRole('tabpanel');
    const later = (await within(panel).findByText('مؤجلة من')).closest('tr') as HTMLElement;
    const hrefs = (row: HTMLElement) =>
      within(row)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href'));
    expect(hrefs(later)).toContain('/admin/lawsuits/sessions/40');
    const earlier = within(panel).getByText('أُجِّلت إلى').closest('tr') as HTMLElement;
    expect(hrefs(earlier)).toContain('/admin/lawsuits/sessions/41');
    expect(lastQuery('/admin/lawsuits/sessions')?.get('lawsuitId')).toBe('7');
    await user.click(within(panel).getByRole('button', { name: /إضافة جلسة/ }));
    expect(await screen.findByText('إضافة جلسة', { selector: '.ant-drawer-title' })).toBeInTheDocument();
  });
});
