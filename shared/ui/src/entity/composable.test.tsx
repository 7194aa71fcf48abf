import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { continents, countries } from '@mizan/contracts';
import { EntityForm } from './EntityForm';
import { EntityPage } from './EntityPage';
import { EntityTable } from './EntityTable';
import { useEntityForm } from './useEntityForm';
import { useEntityList } from './useEntityList';
import type { EntityRow } from '../fields/types';
import { startApiServer } from '../test/apiServer';
import { connectFakeSocket } from '../testing/fakeSocket';
import { captureToasts, renderAt, signIn, pointSdkAt } from '../testing/render';

const ROUTE = '/admin/settings/places/countries';
const stamp = '2024-05-01T09:30:00.000Z';
const later = '2024-05-02T11:00:00.000Z';
const continentRows = [
  { id: 1, name: 'آسيا', code: 'AS', status: true, createdAt: stamp, updatedAt: stamp },
  { id: 2, name: 'أفريقيا', code: 'AF', status: true, createdAt: stamp, updatedAt: stamp },
];
const country = (id: number, name: string, continentId: number) => ({
  id,
  name,
  code: name.slice(0, 2),
  nationality: null,
  continentId,
  status: true,
  createdAt: stamp,
  updatedAt: stamp,
});
const withContinent = <R extends Record<string, unknown>>(row: R) => {
  const continent = continentRows.find((c) => c.id === row.continentId);
  return { ...row, continent: continent ? { id: continent.id, name: continent.name } : null };
};
/** 25 countries: odd ids in Asia, even ids in Africa. */
const manyRows = () =>
  Array.from({ length: 25 }, (_, i) => country(i + 1, `دولة ${i + 1}`, i % 2 === 0 ? 1 : 2));

jest.setTimeout(60_000);

let api: Awaited<ReturnType<typeof startApiServer>>;
let toasts: ReturnType<typeof captureToasts>;
async function serve(rows: ReturnType<typeof country>[]) {
  api = await startApiServer([
    { entity: countries, rows, join: withContinent, changedBy: { id: 2, name: 'سارة', gender: 'female' } },
    { entity: continents, rows: continentRows },
  ]);
  pointSdkAt(api.url);
}
beforeEach(() => {
  localStorage.clear();
  toasts = captureToasts();
  signIn(['view', 'create', 'update', 'delete', 'status'].map((a) => `countries.${a}`));
});
afterEach(() => api.close());

const lists = () => api.calls(countries.path);
const section = (name: string) => screen.getByRole('region', { name });
const fieldItem = (label: string, root: HTMLElement = document.body) =>
  within(root).getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;
const input = (label: string, root?: HTMLElement) => within(fieldItem(label, root)).getByRole('textbox');

/** Two lists of one entity on one page: Asian countries (fixed filter) and all of them. */
function TwoLists({ asiaState = 'asia' as string | false }) {
  const asia = useEntityList(countries, { urlState: asiaState, fixedFilters: { continentId: 1 } });
  const all = useEntityList(countries, { urlState: 'all' });
  return (
    <>
      <section aria-label="asia">
        <EntityTable {...asia} />
      </section>
      <section aria-label="all">
        <EntityTable {...all} />
      </section>
    </>
  );
}

describe('useEntityList + EntityTable', () => {
  it('keeps two lists on one page apart in the URL', async () => {
    await serve(manyRows());
    const page = renderAt(ROUTE, <TwoLists />);
    await within(section('all')).findByText('دولة 2');

    fireEvent.click(within(section('all')).getByTitle('2'));
    await waitFor(() => expect(page.location()).toContain('all.page=2'));
    await within(section('all')).findByText('دولة 22');
    expect(page.location()).not.toContain('asia.');
    // The Asian list still shows its first page.
    expect(within(section('asia')).getByText('دولة 1')).toBeInTheDocument();

    const search = within(section('asia')).getByLabelText('بحث في الدول');
    fireEvent.change(search, { target: { value: 'دولة 1' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(page.location()).toContain('asia.q='));
    expect(page.location()).toContain('all.page=2');
    const asiaCalls = () => lists().filter((r) => r.query.get('continentId') === '1');
    await waitFor(() => expect(asiaCalls().at(-1)!.query.get('q')).toBe('دولة 1'));
    expect(asiaCalls().at(-1)!.query.get('page')).toBe('1');
    const allCalls = lists().filter((r) => !r.query.has('continentId'));
    expect(allCalls.every((r) => !r.query.has('q'))).toBe(true);
    expect(allCalls.at(-1)!.query.get('page')).toBe('2');
  });

  it('always sends the fixed filters and never shows them', async () => {
    await serve(manyRows());
    const page = renderAt(`${ROUTE}?asia.continentId=2`, <TwoLists />);
    await within(section('asia')).findByText('دولة 1');
    // Every request of the Asian list carries the fixed filter, whatever the URL says.
    const asiaCalls = lists().filter((r) => r.query.has('continentId'));
    expect(asiaCalls.length).toBeGreaterThan(0);
    expect(asiaCalls.every((r) => r.query.get('continentId') === '1')).toBe(true);
    expect(within(section('asia')).queryByText('دولة 2')).not.toBeInTheDocument();
    // No continent filter in its bar (the other list has one), and nothing to clear.
    expect(within(section('asia')).queryByRole('combobox', { name: 'القارة' })).not.toBeInTheDocument();
    expect(within(section('all')).getByRole('combobox', { name: 'القارة' })).toBeInTheDocument();
    expect(within(section('asia')).queryByText('مسح عوامل التصفية')).not.toBeInTheDocument();
    expect(page.location()).not.toContain('asia.continentId=1');
  });

  it('keeps its state out of the URL with urlState: false', async () => {
    await serve(manyRows());
    const page = renderAt(ROUTE, <TwoLists asiaState={false} />);
    await within(section('asia')).findByText('دولة 1');
    const search = within(section('asia')).getByLabelText('بحث في الدول');
    fireEvent.change(search, { target: { value: 'دولة 3' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(within(section('asia')).queryByText('دولة 1')).not.toBeInTheDocument());
    expect(page.location()).toBe(ROUTE);
  });

  it('switches a row with the version it read; a row changed since is not switched: who and when, then the list refreshes', async () => {
    await serve([country(1, 'السعودية', 1), country(2, 'مصر', 2)]);
    renderAt(ROUTE, <TwoLists />);
    await within(section('all')).findByText('مصر');
    // Saved elsewhere after the list read it: renamed, still active.
    Object.assign(api.table(countries).rows[1]!, { name: 'مصر العربية', updatedAt: later });
    const listsBefore = lists().length;
    fireEvent.click(within(section('all')).getByLabelText('تفعيل: مصر'));

    const patches = () => api.calls(`${countries.path}/status/2`, 'PATCH');
    await waitFor(() => expect(patches()).toHaveLength(1));
    expect(JSON.parse(patches()[0]!.body)).toEqual({ status: false, updatedAt: stamp });
    await waitFor(() => expect(toasts.warning).toHaveLength(1));
    expect(toasts.warning[0]).toContain('عدّلت سارة «مصر» (دولة)');
    expect(toasts.warning[0]).toContain('فلم يُطبَّق تغييرك');
    // Not the server's bare message on top of it.
    expect(toasts.error).toEqual([]);
    // The list reloads: their name, and the switch as stored (still on).
    await within(section('all')).findByText('مصر العربية');
    expect(lists().length).toBeGreaterThan(listsBefore);
    expect(within(section('all')).getByLabelText('تفعيل: مصر العربية')).toBeChecked();
    expect(api.table(countries).rows[1]!.status).toBe(true);

    // Switched again on the version now shown: applied.
    fireEvent.click(within(section('all')).getByLabelText('تفعيل: مصر العربية'));
    await waitFor(() => expect(patches()).toHaveLength(2));
    expect(JSON.parse(patches()[1]!.body)).toEqual({ status: false, updatedAt: later });
    await waitFor(() =>
      expect(within(section('all')).getByLabelText('تفعيل: مصر العربية')).not.toBeChecked(),
    );
    expect(toasts.warning).toHaveLength(1);
  });
});

/** The edit form on a page of its own, no drawer. */
function EditPage({ record }: { record: EntityRow }) {
  const form = useEntityForm(countries, { record });
  return <EntityForm {...form} buttons />;
}
const saudi = () => withContinent(country(1, 'السعودية', 1)) as unknown as EntityRow;
const puts = () => api.calls(countries.path, 'PUT').map((r) => JSON.parse(r.body) as Record<string, unknown>);
/** The open antd modal (the drawer is a dialog too). */
const dialog = () => {
  const modal = screen.getAllByRole('dialog').find((el) => el.classList.contains('ant-modal'));
  if (!modal) throw new Error('no modal open');
  return modal;
};

describe('useEntityForm + EntityForm outside a drawer', () => {
  it('saves with the version it read as updatedAt', async () => {
    await serve([country(1, 'السعودية', 1)]);
    renderAt('/edit', <EditPage record={saudi()} />);
    await waitFor(() => expect(input('اسم الدولة')).toHaveValue('السعودية'));
    fireEvent.change(input('اسم الدولة'), { target: { value: 'المملكة' } });
    fireEvent.click(screen.getByText('حفظ'));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]).toMatchObject({ id: 1, name: 'المملكة', continentId: 1, updatedAt: stamp });
    await waitFor(() => expect(toasts.success).toContain('دولة: تم حفظ التعديلات بنجاح'));
  });

  it('on a stale save takes the fields only they changed and saves again on their version', async () => {
    await serve([country(1, 'السعودية', 1)]);
    // Saved elsewhere after this form read the row.
    Object.assign(api.table(countries).rows[0]!, { name: 'المملكة العربية السعودية', updatedAt: later });
    renderAt('/edit', <EditPage record={saudi()} />);
    await waitFor(() => expect(input('رمز الدولة')).toHaveValue('ال'));
    fireEvent.change(input('رمز الدولة'), { target: { value: 'SA' } });
    fireEvent.click(screen.getByText('حفظ'));

    // Refused (409), merged with no question: their name, my code, on their version.
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[0]).toMatchObject({ code: 'SA', updatedAt: stamp });
    expect(puts()[1]).toMatchObject({ name: 'المملكة العربية السعودية', code: 'SA', updatedAt: later });
    await waitFor(() => expect(api.table(countries).rows[0]).toMatchObject({ code: 'SA' }));
    expect(api.table(countries).rows[0]!.name).toBe('المملكة العربية السعودية');
    expect(input('اسم الدولة')).toHaveValue('المملكة العربية السعودية');
    expect(toasts.error).toHaveLength(0);
  });

  it('asks for each field both changed (theirs and mine), shows what it took, then saves on their version', async () => {
    await serve([country(1, 'السعودية', 1)]);
    Object.assign(api.table(countries).rows[0]!, {
      name: 'المملكة العربية السعودية',
      code: 'KS',
      nationality: 'سعودي',
      updatedAt: later,
    });
    renderAt('/edit', <EditPage record={saudi()} />);
    await waitFor(() => expect(input('اسم الدولة')).toHaveValue('السعودية'));
    fireEvent.change(input('اسم الدولة'), { target: { value: 'السعودية الجديدة' } });
    fireEvent.change(input('رمز الدولة'), { target: { value: 'SA' } });
    fireEvent.click(screen.getByText('حفظ'));

    expect(await screen.findByText(/حفظته سارة في/)).toBeInTheDocument();
    expect(within(dialog()).getByText(/غيّرتما كلاكما حقلين/)).toBeInTheDocument();
    const tables = within(dialog()).getAllByRole('table');
    const cells = (table: HTMLElement) =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent));
    expect(cells(tables[0]!).map((row) => row.slice(0, 3))).toEqual([
      ['اسم الدولة', 'المملكة العربية السعودية', 'السعودية الجديدة'],
      ['رمز الدولة', 'KS', 'SA'],
    ]);
    expect(cells(tables[1]!)).toEqual([['الجنسية', 'سعوديأُخذت']]);
    const save = within(dialog()).getByText('حفظ بهذه الاختيارات').closest('button')!;
    // Nothing is chosen for the user.
    expect(save).toBeDisabled();
    fireEvent.click(within(within(dialog()).getByLabelText('الاختيار في اسم الدولة')).getByText('أخذ قيمته'));
    fireEvent.click(
      within(within(dialog()).getByLabelText('الاختيار في رمز الدولة')).getByText('الإبقاء على قيمتي'),
    );
    fireEvent.click(save);

    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]).toMatchObject({
      name: 'المملكة العربية السعودية',
      code: 'SA',
      nationality: 'سعودي',
      updatedAt: later,
    });
    await waitFor(() => expect(api.table(countries).rows[0]).toMatchObject({ code: 'SA' }));
    expect(toasts.error).toHaveLength(0);
  });

  it('Enter in a field never saves the form; Ctrl+Enter does', async () => {
    await serve([country(1, 'السعودية', 1)]);
    renderAt('/edit', <EditPage record={saudi()} />);
    await waitFor(() => expect(input('اسم الدولة')).toHaveValue('السعودية'));
    fireEvent.change(input('اسم الدولة'), { target: { value: 'المملكة' } });
    const enter = { key: 'Enter', code: 'Enter', keyCode: 13 };
    expect(fireEvent.keyDown(input('اسم الدولة'), enter)).toBe(false);
    // The browser would submit on Enter: the form's own submit event stays unsent too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(puts()).toHaveLength(0);
    fireEvent.keyDown(input('رمز الدولة'), { ...enter, ctrlKey: true });
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]).toMatchObject({ name: 'المملكة' });
  });
});

describe('the edit drawer', () => {
  const openEdit = async (name: string) => {
    fireEvent.click(await screen.findByLabelText(`تعديل ${name}`));
    const title = await screen.findByText('تعديل دولة', { selector: '.ant-drawer-title' });
    return title.closest('.ant-drawer') as HTMLElement;
  };
  /** The edit drawer of `name`, once its record is read into the form. */
  const openEditRead = async (name: string) => {
    const drawer = await openEdit(name);
    await waitFor(() => expect(input('اسم الدولة', drawer)).toHaveValue(name));
    return drawer;
  };
  const serveTwo = () => serve([country(1, 'السعودية', 1), country(2, 'مصر', 2)]);
  const escape = () => fireEvent.keyDown(document.body, { key: 'Escape', code: 'Escape', keyCode: 27 });
  const drawerOpen = () => document.querySelector('.ant-drawer-open') !== null;

  it('asks before closing with unsaved changes (Esc or cancel), and not without', async () => {
    await serveTwo();
    renderAt(ROUTE, <EntityPage entity={countries} />);
    await openEdit('مصر');
    escape();
    await waitFor(() => expect(drawerOpen()).toBe(false));

    const drawer = await openEditRead('مصر');
    fireEvent.change(input('اسم الدولة', drawer), { target: { value: 'مصر العربية' } });
    escape();
    await waitFor(() => expect(dialog()).toHaveTextContent('تجاهل التعديلات غير المحفوظة؟'));
    expect(dialog()).toHaveTextContent('لم تُحفظ التعديلات التي أجريتها في هذا النموذج.');
    fireEvent.click(within(dialog()).getByText('متابعة التحرير'));
    await waitFor(() => expect(screen.queryByText('متابعة التحرير')).not.toBeInTheDocument());
    expect(drawerOpen()).toBe(true);
    expect(input('اسم الدولة', drawer)).toHaveValue('مصر العربية');

    fireEvent.click(within(drawer).getByText('إلغاء'));
    await waitFor(() => expect(dialog()).toBeInTheDocument());
    fireEvent.click(within(dialog()).getByText('تجاهل التعديلات'));
    await waitFor(() => expect(drawerOpen()).toBe(false));
    expect(api.calls(countries.path, 'PUT')).toHaveLength(0);
  });

  it('tells at once when its record is changed or deleted elsewhere', async () => {
    await serveTwo();
    const ws = await connectFakeSocket();
    try {
      renderAt(ROUTE, <EntityPage entity={countries} />);
      const drawer = await openEditRead('مصر');
      // Another record's change is none of this form's business.
      ws.event('countries', 'update', { ...country(1, 'السعودية', 1), updatedAt: later });
      expect(within(drawer).queryByRole('alert')).not.toBeInTheDocument();

      // The user is typing the code; someone else saves a new name and code.
      fireEvent.change(input('رمز الدولة', drawer), { target: { value: 'EG' } });
      Object.assign(api.table(countries).rows[1]!, { name: 'جمهورية مصر', code: 'مج', updatedAt: later });
      ws.event('countries', 'update', {
        ...withContinent({ ...country(2, 'جمهورية مصر', 2), code: 'مج' }),
        updatedAt: later,
      });
      expect(await within(drawer).findByText(/حفظ مستخدم آخر هذا السجل \(دولة\)/)).toBeInTheDocument();
      // The untouched name takes their value at once; the code being typed is kept.
      await waitFor(() => expect(input('اسم الدولة', drawer)).toHaveValue('جمهورية مصر'));
      expect(input('رمز الدولة', drawer)).toHaveValue('EG');
      expect(within(drawer).getByText('حُدِّث حقل لم تغيّره بقيمته الجديدة: اسم الدولة.')).toBeInTheDocument();
      expect(within(drawer).getByText(/غيّر أيضًا حقلًا غيّرته أنت.*رمز الدولة/)).toBeInTheDocument();
      // The form keeps the version it was opened with: the save is refused and asks.
      fireEvent.click(within(drawer).getByText('حفظ'));
      await waitFor(() => expect(api.calls(countries.path, 'PUT')).toHaveLength(1));
      expect(JSON.parse(api.calls(countries.path, 'PUT')[0]!.body)).toMatchObject({ updatedAt: stamp });
      await waitFor(() => expect(within(dialog()).getByText(/غيّرتما كلاكما حقلًا واحدًا/)).toBeInTheDocument());
      fireEvent.click(within(dialog()).getByText('إلغاء'));
      await waitFor(() => expect(screen.queryByText('حفظ بهذه الاختيارات')).not.toBeInTheDocument());
      expect(input('رمز الدولة', drawer)).toHaveValue('EG');

      ws.event('countries', 'delete', { id: 2 });
      expect(
        await within(drawer).findByText('حذف مستخدم آخر هذا السجل (دولة)، فلم يعد حفظه ممكنًا.'),
      ).toBeInTheDocument();
      expect(input('اسم الدولة', drawer)).toBeDisabled();
      expect(within(drawer).getByText('حفظ').closest('button')).toBeDisabled();
    } finally {
      ws.restore();
    }
  });

  it('reads its record and the list again once the subscription is taken, for what happened before', async () => {
    await serveTwo();
    const ws = await connectFakeSocket();
    try {
      renderAt(ROUTE, <EntityPage entity={countries} />);
      const drawer = await openEditRead('مصر');
      const rows = api.table(countries).rows;
      // Changed while the connection was cut: no event came; the hub confirms the subscription again.
      Object.assign(rows[1]!, { name: 'جمهورية مصر', updatedAt: later });
      ws.socket.frame({ type: 'resubscribed', channel: 'countries' });
      expect(await within(drawer).findByText(/حفظ مستخدم آخر هذا السجل \(دولة\)/)).toBeInTheDocument();
      // Deleted before the page's first subscription was taken.
      rows.splice(1, 1);
      ws.socket.frame({ type: 'subscribed', channel: 'countries' });
      expect(
        await within(drawer).findByText('حذف مستخدم آخر هذا السجل (دولة)، فلم يعد حفظه ممكنًا.'),
      ).toBeInTheDocument();
      expect(within(drawer).getByText('حفظ').closest('button')).toBeDisabled();
      await waitFor(() => expect(screen.queryByLabelText('تعديل مصر')).not.toBeInTheDocument());
      expect(screen.getByLabelText('تعديل السعودية')).toBeInTheDocument();
    } finally {
      ws.restore();
    }
  });
});

function NewContinent() {
  const form = useEntityForm(continents);
  return <EntityForm {...form} buttons />;
}

describe('useEntityForm: a create sent again', () => {
  it('sends one Idempotency-Key per submission: the same when it got no answer, a new one for the next', async () => {
    let cut = 1;
    api = await startApiServer([{ entity: continents, rows: [...continentRows] }], (req, res) => {
      // The first create's answer is lost (the connection drops): the form shows the failure.
      if (req.method !== 'POST' || cut === 0) return false;
      cut--;
      res.destroy();
      return true;
    });
    pointSdkAt(api.url);
    renderAt('/new', <NewContinent />);
    const posts = () => api.calls(continents.path, 'POST');
    fireEvent.change(input('اسم القارة'), { target: { value: 'أوروبا' } });
    fireEvent.click(screen.getByText('حفظ'));
    await waitFor(() => expect(posts()).toHaveLength(1));
    await waitFor(() => expect(screen.getByText('حفظ').closest('button')).not.toBeDisabled());
    fireEvent.click(screen.getByText('حفظ'));
    await waitFor(() => expect(posts()).toHaveLength(2));
    await waitFor(() => expect(toasts.success).toContain('قارة: تمت الإضافة بنجاح'));
    fireEvent.change(input('اسم القارة'), { target: { value: 'أوقيانوسيا' } });
    fireEvent.click(screen.getByText('حفظ'));
    await waitFor(() => expect(posts()).toHaveLength(3));
    const keys = posts().map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
