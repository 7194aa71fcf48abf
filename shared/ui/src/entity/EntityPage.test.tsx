import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { countries, continents } from '@mizan/contracts';
import { COLUMN_WIDTHS } from './columns';
import { EntityPage } from './EntityPage';
import { startApiServer, type TableSpec } from '../test/apiServer';
import { connectFakeSocket } from '../testing/fakeSocket';
import { captureToasts, renderAt, signIn, pointSdkAt } from '../testing/render';

const ROUTE = '/admin/settings/places/countries';
const ALL = ['view', 'create', 'update', 'delete', 'status', 'export'].map((a) => `countries.${a}`);

const stamp = '2024-05-01T09:30:00.000Z';
const continentRows = [
  { id: 1, name: 'آسيا', code: 'AS', status: true, createdAt: stamp, updatedAt: stamp },
  { id: 2, name: 'أفريقيا', code: 'AF', status: true, createdAt: stamp, updatedAt: stamp },
];
const country = (id: number, name: string, continentId: number, status = true) => ({
  id,
  name,
  code: name.slice(0, 2),
  nationality: null,
  continentId,
  status,
  createdAt: stamp,
  updatedAt: stamp,
});
const countryRows = () => [country(1, 'السعودية', 1), country(2, 'مصر', 2), country(3, 'الأردن', 1, false)];
const withContinent = <R extends Record<string, unknown>>(row: R) => {
  const continent = continentRows.find((c) => c.id === row.continentId);
  return { ...row, continent: continent ? { id: continent.id, name: continent.name } : null };
};

// Each test drives a real antd page over HTTP; the first render of a component type is slow in jsdom.
jest.setTimeout(60_000);

let api: Awaited<ReturnType<typeof startApiServer>>;
let toasts: ReturnType<typeof captureToasts>;

async function serve(rows = countryRows(), spec: Partial<TableSpec> = {}) {
  api = await startApiServer([
    { entity: countries, rows, join: withContinent, referenced: [1], takenNames: ['فلسطين'], ...spec },
    { entity: continents, rows: continentRows },
  ]);
  pointSdkAt(api.url);
}

beforeEach(() => {
  localStorage.clear();
  toasts = captureToasts();
  signIn(ALL);
});
afterEach(() => api.close());

/** jsdom's Blob has no `text()`; FileReader would drop the BOM we want to see, so read bytes. */
const readBytes = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
const lists = () => api.calls(countries.path);
const lastList = () => lists().at(-1)!;
const headerTexts = (container: HTMLElement) =>
  [...container.querySelectorAll('thead th')].map((th) => th.textContent);
const drawer = () =>
  screen.getByText('إضافة دولة', { selector: '.ant-drawer-title' }).closest('.ant-drawer') as HTMLElement;
const fieldItem = (label: string) =>
  screen.getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;

describe('EntityPage built from the countries definition', () => {
  it('shows translated title, columns and joined references, fetching the first page', async () => {
    await serve();
    const { container } = renderAt(ROUTE, <EntityPage entity={countries} />);
    expect(await screen.findByText('السعودية')).toBeInTheDocument();
    expect(screen.getByText('الدول', { selector: 'h3' })).toBeInTheDocument();
    const headers = headerTexts(container);
    for (const header of ['اسم الدولة', 'رمز الدولة', 'القارة', 'الحالة', 'تاريخ الإنشاء', 'الإجراءات'])
      expect(headers).toContain(header);
    // `nationality` is declared `list: false`: hidden until chosen; `id` too.
    expect(headers).not.toContain('الجنسية');
    expect(headers).not.toContain('الرقم');
    expect(screen.getAllByText('آسيا')).toHaveLength(2);
    // Created date in Gregorian with the Umm al-Qura date beside it.
    expect(screen.getAllByText(/٢٢ شوال ١٤٤٥/).length).toBeGreaterThan(0);
    expect(lists()[0]!.query.get('page')).toBe('1');
    expect(lists()[0]!.query.get('pageSize')).toBe('20');
  });

  it("links every row's title to its page, naming the row when it has no title yet", async () => {
    await serve([...countryRows(), country(4, '', 1)]);
    renderAt(ROUTE, <EntityPage entity={countries} />);
    const titled = await screen.findByRole('link', { name: 'السعودية' });
    expect(titled).toHaveAttribute('href', expect.stringMatching(/countries\/1$/));
    const untitled = screen.getByRole('link', { name: 'فتح دولة رقم 4' });
    expect(untitled).toHaveAttribute('href', expect.stringMatching(/countries\/4$/));
  });

  it('keeps sort, search and page in the URL, sends them to the server, and steps back', async () => {
    await serve([...countryRows(), country(4, 'تونس', 2), country(5, 'قطر', 1)]);
    const page = renderAt(`${ROUTE}?pageSize=2`, <EntityPage entity={countries} />);
    await screen.findByText('السعودية');

    fireEvent.click(screen.getByText('اسم الدولة', { selector: 'th *' }));
    await waitFor(() => expect(page.location()).toContain('sort=name%3Aasc'));
    await waitFor(() => expect(lastList().query.get('sort')).toBe('name:asc'));

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastList().query.get('page')).toBe('2'));
    expect(page.location()).toContain('page=2');

    const search = screen.getByLabelText('بحث في الدول');
    fireEvent.change(search, { target: { value: 'مصر' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    // Typing on while that search is applied: the new text stays in the box (not swapped back).
    fireEvent.change(screen.getByLabelText('بحث في الدول'), { target: { value: 'قطر' } });
    await waitFor(() => expect(lastList().query.get('q')).toBe('مصر'));
    expect(page.location()).toContain(`q=${encodeURIComponent('مصر')}`);
    expect(screen.getByLabelText('بحث في الدول')).toHaveValue('قطر');
    // A new search starts again at page 1.
    expect(lastList().query.get('page')).toBe('1');
    expect(page.location()).not.toContain('page=2');
    await waitFor(() => expect(screen.queryByText('السعودية')).not.toBeInTheDocument());

    act(() => void page.back());
    expect(page.location()).toContain('page=2');
    expect(page.location()).not.toContain('q=');
    // The box follows the URL back: no search.
    expect(screen.getByLabelText('بحث في الدول')).toHaveValue('');
  });

  it('validates the drawer form with the contracts schema and translated messages', async () => {
    await serve();
    renderAt(ROUTE, <EntityPage entity={countries} />);
    await screen.findByText('السعودية');
    fireEvent.click(screen.getByText('إضافة دولة'));
    await screen.findByText('إضافة دولة', { selector: '.ant-drawer-title' });
    fireEvent.click(within(drawer()).getByText('حفظ'));
    expect(await within(fieldItem('اسم الدولة')).findByText('الحقل «اسم الدولة» مطلوب')).toBeInTheDocument();
    expect(within(fieldItem('القارة')).getByText('الحقل «القارة» مطلوب')).toBeInTheDocument();
    // Too long for `code` (max 3): the schema's max, with the label and the bound in Arabic digits.
    fireEvent.change(within(fieldItem('رمز الدولة')).getByRole('textbox'), { target: { value: 'ABCDE' } });
    expect(
      await within(fieldItem('رمز الدولة')).findByText(/رمز الدولة/, {
        selector: '.ant-form-item-explain-error',
      }),
    ).toHaveTextContent('يجب ألا يزيد «رمز الدولة» على ٣ أحرف');
    expect(api.calls(countries.path, 'POST')).toHaveLength(0);
  });

  it('puts a server 422 message on its field and creates once corrected', async () => {
    await serve();
    renderAt(ROUTE, <EntityPage entity={countries} />);
    await screen.findByText('السعودية');
    fireEvent.click(screen.getByText('إضافة دولة'));
    await screen.findByText('إضافة دولة', { selector: '.ant-drawer-title' });

    fireEvent.change(within(fieldItem('اسم الدولة')).getByRole('textbox'), { target: { value: 'فلسطين' } });
    // The continent select searches the continents list through the API.
    fireEvent.mouseDown(within(fieldItem('القارة')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('آسيا', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(drawer()).getByText('حفظ'));

    expect(await within(fieldItem('اسم الدولة')).findByText('هذا الاسم مستخدم من قبل')).toBeInTheDocument();
    const post = api.calls(countries.path, 'POST')[0]!;
    // Untouched optional fields are left out; the server stores them as null.
    expect(JSON.parse(post.body)).toEqual({ name: 'فلسطين', continentId: 1, status: true });

    fireEvent.change(within(fieldItem('اسم الدولة')).getByRole('textbox'), { target: { value: 'العراق' } });
    fireEvent.click(within(drawer()).getByText('حفظ'));
    expect(await screen.findByText('العراق')).toBeInTheDocument();
    expect(toasts.success).toContain('دولة: تمت الإضافة بنجاح');
  });

  it('asks before deleting, shows the server 409, and removes a free row', async () => {
    await serve();
    renderAt(ROUTE, <EntityPage entity={countries} />);
    await screen.findByText('السعودية');

    fireEvent.click(screen.getByLabelText('حذف السعودية'));
    const confirm = await screen.findByText('سيتم حذف «السعودية» نهائيًا ولا يمكن التراجع عن ذلك.');
    expect(api.calls(`${countries.path}/1`, 'DELETE')).toHaveLength(0);
    fireEvent.click(within(confirm.closest('.ant-popover') as HTMLElement).getByText('حذف'));
    await waitFor(() => expect(toasts.error).toContain('لا يمكن الحذف: السجل مرتبط ببيانات أخرى'));
    expect(screen.getByText('السعودية')).toBeInTheDocument();

    fireEvent.click(screen.getByLabelText('حذف مصر'));
    const second = await screen.findByText('سيتم حذف «مصر» نهائيًا ولا يمكن التراجع عن ذلك.');
    fireEvent.click(within(second.closest('.ant-popover') as HTMLElement).getByText('حذف'));
    await waitFor(() => expect(screen.queryByText('مصر')).not.toBeInTheDocument());
    expect(api.calls(`${countries.path}/2`, 'DELETE')).toHaveLength(1);
    expect(toasts.success).toContain('تم الحذف بنجاح');
  });

  it('says so when there is nothing yet, and offers a retry when loading fails', async () => {
    await serve([], { failList: true });
    renderAt(ROUTE, <EntityPage entity={countries} />);
    expect(await screen.findByText('تعذّر تحميل الدول')).toBeInTheDocument();
    expect(screen.getByText('عطل في الخادم')).toBeInTheDocument();
    api.table(countries).failList = false;
    fireEvent.click(screen.getByText('إعادة المحاولة'));
    expect(await screen.findByText('لم يُضف أي سجل إلى قائمة الدول بعد')).toBeInTheDocument();
  });

  it('shows a change made elsewhere as soon as its real-time event arrives', async () => {
    await serve();
    const { socket, event, restore } = await connectFakeSocket();
    try {
      renderAt(ROUTE, <EntityPage entity={countries} />);
      await screen.findByText('السعودية');
      await waitFor(() => expect(socket.sent).toContainEqual({ type: 'subscribe', channel: 'countries' }));
      const listCalls = lists().length;

      event('countries', 'update', { id: 2, name: 'جمهورية مصر العربية' });
      expect(await screen.findByText('جمهورية مصر العربية')).toBeInTheDocument();
      event('countries', 'delete', { id: 3 });
      await waitFor(() => expect(screen.queryByText('الأردن')).not.toBeInTheDocument());
      // Patched in the cache: no reload of the list.
      expect(lists()).toHaveLength(listCalls);
    } finally {
      restore();
    }
  });

  it('remembers the chosen columns per entity', async () => {
    await serve();
    const first = renderAt(ROUTE, <EntityPage entity={countries} />);
    await screen.findByText('السعودية');
    fireEvent.click(screen.getByText('الأعمدة'));
    fireEvent.click(await screen.findByText('الجنسية', { selector: '.ant-popover *' }));
    await waitFor(() => expect(headerTexts(first.container)).toContain('الجنسية'));
    expect(JSON.parse(localStorage.getItem('mizan.columns.countries') ?? '[]')).toContain('nationality');
    first.unmount();

    const again = renderAt(ROUTE, <EntityPage entity={countries} />);
    await screen.findByText('السعودية');
    expect(headerTexts(again.container)).toContain('الجنسية');
  });

  it("shares out the box's width by each column's type: names give way down to a minimum, dates stay whole", async () => {
    await serve([country(1, 'جمهورية '.repeat(12).trim(), 1)]);
    const { container } = renderAt(ROUTE, <EntityPage entity={countries} />);
    const name = await screen.findByText(/^جمهورية/);
    // As wide as its box (not as its content): it scrolls only when the minimums do not fit.
    const table = container.querySelector('.ant-table-content table') as HTMLElement;
    expect(table.style.width).toBe('auto');
    expect(table.style.tableLayout).toBe('auto');
    const box = (el: Element) => el.closest('td > div') as HTMLElement;
    const { string, ref, datetime } = COLUMN_WIDTHS;
    // A name wraps or ends in an ellipsis within its cap and gives way down to its minimum.
    expect(box(name).style).toMatchObject({
      maxInlineSize: `${string.max}px`,
      minInlineSize: `${string.min}px`,
      display: 'grid',
    });
    expect(box(screen.getByText('آسيا')).style).toMatchObject({
      maxInlineSize: `${ref.max}px`,
      minInlineSize: `${ref.min}px`,
    });
    // A date keeps its natural width (both calendars, one above the other), never squeezed.
    const created = box(container.querySelector('td .mizan-dual-date')!);
    expect(created.style.maxInlineSize).toBe(`${datetime.max}px`);
    expect(created.style.minInlineSize).toBe('');
    expect(created.style.display).toBe('');
    // No cell cuts its content at the column's edge: the whole name is there to wrap.
    expect(container.querySelector('td.ant-table-cell-ellipsis')).toBeNull();
  });

  it('toggles the status through PATCH /status/:id, with the version the row was read at', async () => {
    await serve();
    renderAt(ROUTE, <EntityPage entity={countries} />);
    await screen.findByText('الأردن');
    const toggle = screen.getByLabelText('تفعيل: الأردن');
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);
    await waitFor(() => expect(api.calls(`${countries.path}/status/3`, 'PATCH')).toHaveLength(1));
    expect(JSON.parse(api.calls(`${countries.path}/status/3`, 'PATCH')[0]!.body)).toEqual({
      status: true,
      updatedAt: stamp,
    });
    await waitFor(() => expect(screen.getByLabelText('تفعيل: الأردن')).toBeChecked());
  });

  it('hides or disables what the user may not do', async () => {
    await serve();
    signIn(['countries.view']);
    renderAt(ROUTE, <EntityPage entity={countries} />);
    await screen.findByText('السعودية');
    expect(screen.queryByText('إضافة دولة')).not.toBeInTheDocument();
    expect(screen.queryByText('تصدير')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('حذف السعودية')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('تعديل السعودية')).not.toBeInTheDocument();
    expect(screen.getByLabelText('تفعيل: السعودية')).toBeDisabled();
  });

  it('exports every page of the filtered list to CSV with a BOM and translated headers', async () => {
    const many = Array.from({ length: 250 }, (_, i) =>
      country(i + 1, `دولة ${i + 1}`, (i % 2) + 1, i % 5 !== 0),
    );
    await serve(many);
    const saved: Blob[] = [];
    const createObjectURL = jest.fn((blob: Blob) => (saved.push(blob), 'blob:export'));
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);

    renderAt(`${ROUTE}?status=true`, <EntityPage entity={countries} />);
    await screen.findByText('دولة 2');
    fireEvent.click(screen.getByText('تصدير'));
    fireEvent.click(await screen.findByText('ملف CSV (إكسل)'));
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
    click.mockRestore();

    const exportCalls = lists().filter((r) => r.query.get('pageSize') === '100');
    expect(exportCalls.map((r) => r.query.get('page'))).toEqual(['1', '2']);
    expect(exportCalls.every((r) => r.query.get('status') === 'true')).toBe(true);
    const bytes = new Uint8Array(await readBytes(saved[0]!));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM
    const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('اسم الدولة,رمز الدولة,القارة,الحالة,تاريخ الإنشاء');
    expect(lines).toHaveLength(1 + 200); // 250 rows, every fifth inactive
    // Dates as the screen shows them: the office's first calendar (Hijri by default), Arabic digits.
    expect(lines[1]).toMatch(/^دولة \d+,دو,(آسيا|أفريقيا),نشط,٢٢ شوال ١٤٤٥ هـ [٠-٩]{2}:٣٠ \(٥\/١\/٢٠٢٤\)$/);
    expect(toasts.success.some((m) => m.includes('200'))).toBe(true);
  });
});
