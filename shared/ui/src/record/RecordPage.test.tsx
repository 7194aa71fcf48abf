import type { ServerResponse } from 'node:http';
import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import arEG from 'antd/locale/ar_EG';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { json, type SeenRequest } from '@mizan/sdk/testing/apiServer';
import { createQueryClient } from '@mizan/sdk';
import { continents, countries, employees, type AuditItem } from '@mizan/contracts';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, signIn } from '../testing/render';
import { RecordPage } from './RecordPage';

jest.setTimeout(60_000);

const stamp = '2024-05-01T09:30:00.000Z';
const asia = { id: 1, name: 'آسيا', code: 'AS', status: true, createdAt: stamp, updatedAt: stamp };
const continentRows = () => [asia, { ...asia, id: 2, name: 'أفريقيا', code: 'AF' }].map((r) => ({ ...r }));
const countryRows = () =>
  [
    { id: 5, name: 'اليابان', code: 'JP', continentId: 1 },
    { id: 6, name: 'مصر', code: 'EG', continentId: 2 },
  ].map((r) => ({ ...r, nationality: null, status: true, createdAt: stamp, updatedAt: stamp }));
const withContinent = <R extends Record<string, unknown>>(row: R) => {
  const c = continentRows().find((x) => x.id === row.continentId);
  return { ...row, continent: c ? { id: c.id, name: c.name } : null };
};
const files = [
  { id: 31, originalName: 'عقد.pdf', mimeType: 'application/pdf', size: 2048, createdAt: stamp },
  { id: 32, originalName: 'صورة.png', mimeType: 'image/png', size: 1024, createdAt: stamp },
  {
    id: 33,
    originalName: 'مذكرة.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    size: 4096,
    createdAt: stamp,
  },
];
const employee = {
  id: 7,
  name: 'سارة علي',
  email: 'sara@mizan.test',
  username: 'sara',
  roleIds: [],
  roles: [],
  files,
  status: true,
  baned: false,
  createdAt: stamp,
  updatedAt: stamp,
};
const history: AuditItem[] = [
  {
    id: 2,
    employeeId: 3,
    employee: { id: 3, name: 'منى', gender: 'female' },
    entity: 'continents',
    entityId: 1,
    action: 'update',
    before: { ...asia, name: 'اسيا' },
    after: { ...asia, updatedAt: '2024-05-02T09:30:00.000Z' },
    ip: null,
    createdAt: '2024-05-02T09:30:00.000Z',
  },
  {
    id: 1,
    employeeId: null,
    employee: null,
    entity: 'continents',
    entityId: 1,
    action: 'create',
    before: null,
    after: { ...asia, name: 'اسيا' },
    ip: null,
    createdAt: stamp,
  },
];

// Twelve edits of Africa: two pages of history.
for (let n = 12; n >= 1; n -= 1)
  history.push({
    ...history[0]!,
    id: 100 + n,
    entityId: 2,
    before: { ...asia, id: 2, code: `A${n - 1}` },
    after: { ...asia, id: 2, code: `A${n}` },
    employee: { id: 3, name: `محرر ${n}` },
  });

let api: Awaited<ReturnType<typeof startApiServer>>;
let toasts: ReturnType<typeof captureToasts>;

/** The audit and file routes the page calls besides the entities' own. */
function extraRoutes(req: SeenRequest, res: ServerResponse): boolean {
  if (req.path === '/api/admin/settings/system/audit') {
    const all = history.filter(
      (e) => e.entity === req.query.get('entity') && String(e.entityId) === req.query.get('entityId'),
    );
    const page = Number(req.query.get('page') ?? 1);
    const pageSize = Number(req.query.get('pageSize') ?? 20);
    const items = all.slice((page - 1) * pageSize, page * pageSize);
    json(res, 200, { data: { items, total: all.length, page, pageSize } });
    return true;
  }
  if (req.path === '/api/files/text/states') {
    const states: Record<number, object> = {
      31: { state: 'ocr', confidence: 87.4, error: null, progress: { done: 3, total: 3 } },
      32: {
        state: 'failed',
        confidence: null,
        error: 'not readable as an image',
        progress: { done: 0, total: 1 },
      },
      33: { state: 'queued', confidence: null, error: null, progress: { done: 1, total: 4 } },
    };
    const ids = (req.query.get('ids') ?? '').split(',').map(Number);
    json(res, 200, { data: { items: ids.map((fileId) => ({ fileId, ...states[fileId] })) } });
    return true;
  }
  if (req.path === '/api/files/31/versions') {
    const version = (id: number, current: boolean, originalName: string) => ({
      id,
      current,
      originalName,
      mimeType: 'application/pdf',
      size: 2048,
      createdBy: 3,
      createdByName: 'منى',
      createdAt: stamp,
    });
    json(res, 200, { data: { items: [version(31, true, 'عقد.pdf'), version(90, false, 'عقد قديم.pdf')] } });
    return true;
  }
  if (req.path === '/api/files/31/versions/90/restore' && req.method === 'POST') {
    json(res, 200, { data: { items: [] } });
    return true;
  }
  const file = /^\/api\/files\/(\d+)$/.exec(req.path);
  if (req.method === 'GET' && file) {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(`%PDF-1.4 file ${file[1]}`);
    return true;
  }
  const removed = /^\/api\/employees\/employees\/delete\/file\/7\/(\d+)$/.exec(req.path);
  if (req.method === 'DELETE' && removed) {
    employee.files = employee.files.filter((f) => f.id !== Number(removed[1]));
    json(res, 200, { data: { id: Number(removed[1]) } });
    return true;
  }
  return false;
}

async function serve() {
  api = await startApiServer(
    [
      { entity: continents, rows: continentRows(), referenced: [1] },
      { entity: countries, rows: countryRows(), join: withContinent },
      { entity: employees, rows: [{ ...employee, files: [...files] }] },
    ],
    extraRoutes,
  );
  pointSdkAt(api.url);
}

let location = '';
function LocationProbe() {
  const l = useLocation();
  location = `${l.pathname}${l.search}`;
  return null;
}

/** The page at `path` under the route pattern the host mounts (`<route>/:id`). */
function renderRecord(path: string, element: ReactNode, pattern = `${continents.route}/:id`) {
  return render(
    <ConfigProvider direction="rtl" locale={arEG} wave={{ disabled: true }} virtual={false}>
      <App>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={pattern} element={element} />
              <Route path="*" element={<p>list page</p>} />
            </Routes>
            <LocationProbe />
          </MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
}

const actions = ['view', 'create', 'update', 'delete', 'status'];
beforeEach(async () => {
  toasts = captureToasts();
  employee.files = [...files];
  signIn([...actions.map((a) => `continents.${a}`), ...actions.map((a) => `countries.${a}`)]);
  await serve();
});
afterEach(() => api.close());

const tab = (name: string) => screen.getByRole('tab', { name });
/** Presses "delete" in the open confirmation. */
async function confirmDelete() {
  const buttons = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('.ant-popconfirm-buttons');
    expect(found).not.toBeNull();
    return found!;
  });
  fireEvent.click(within(buttons).getByText('حذف'));
}
const details = () => screen.getByRole('region', { name: 'البيانات' });

describe('RecordPage', () => {
  it('shows the fields read-only, a back link, and tabs derived from the references', async () => {
    renderRecord(`${continents.route}/1`, <RecordPage entity={continents} />);
    expect(await screen.findByRole('heading', { name: 'آسيا' })).toBeInTheDocument();
    expect(within(details()).getByText('اسم القارة')).toBeInTheDocument();
    expect(within(details()).getByText('AS')).toBeInTheDocument();
    expect(within(details()).getByText('نشط')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /العودة إلى القارات/ })).toHaveAttribute(
      'href',
      continents.route,
    );
    // Countries reference continents: their tab first, then the history; no files.
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['الدول', 'سجل التغييرات']);
    // The embedded list is fixed to this continent, and its state stays out of the URL.
    expect(await screen.findByRole('link', { name: 'اليابان' })).toHaveAttribute(
      'href',
      `${countries.route}/5`,
    );
    expect(screen.queryByText('مصر')).not.toBeInTheDocument();
    expect(api.calls(countries.path).at(-1)!.query.get('continentId')).toBe('1');
    expect(location).toBe(`${continents.route}/1`);
  });

  it("pre-fills the reference when a tab's create opens the form", async () => {
    renderRecord(`${continents.route}/1`, <RecordPage entity={continents} />);
    fireEvent.click(await screen.findByText('إضافة دولة'));
    const drawer = await screen.findByRole('dialog');
    // The select shows the record's name at once, from the defaults' joined label.
    await waitFor(() => expect(within(drawer).getByTitle('آسيا')).toBeInTheDocument());
    fireEvent.change(within(drawer).getAllByRole('textbox')[0]!, { target: { value: 'الصين' } });
    fireEvent.click(within(drawer).getByText('حفظ'));
    await waitFor(() => expect(api.calls(countries.path, 'POST')).toHaveLength(1));
    expect(JSON.parse(api.calls(countries.path, 'POST')[0]!.body)).toMatchObject({
      name: 'الصين',
      continentId: 1,
    });
  });

  it('hides the tab of an entity the user may not view, and says "not found" for an unknown id', async () => {
    signIn(['continents.view']);
    const { unmount } = renderRecord(`${continents.route}/1`, <RecordPage entity={continents} />);
    await screen.findByRole('heading', { name: 'آسيا' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['سجل التغييرات']);
    // Without the permissions, no actions.
    expect(screen.queryByRole('button', { name: /تعديل/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /حذف/ })).not.toBeInTheDocument();
    expect(screen.getByRole('switch')).toBeDisabled();
    unmount();

    const missing = renderRecord(`${continents.route}/999`, <RecordPage entity={continents} />);
    expect(await screen.findByText('لم يُعثر على قارة')).toBeInTheDocument();
    expect(toasts.error).toEqual([]);
    missing.unmount();
    const before = api.seen.length;
    renderRecord(`${continents.route}/abc`, <RecordPage entity={continents} />);
    expect(await screen.findByText('لم يُعثر على قارة')).toBeInTheDocument();
    expect(api.seen.length).toBe(before);
  });

  it("lists the record's history with field diffs, labels translated", async () => {
    renderRecord(`${continents.route}/1?tab=history`, <RecordPage entity={continents} />);
    expect(await screen.findByText('منى')).toBeInTheDocument();
    const audit = api.seen.find((r) => r.path.endsWith('/system/audit'))!;
    expect(Object.fromEntries(audit.query)).toMatchObject({ entity: 'continents', entityId: '1' });
    const panel = screen.getByRole('tabpanel');
    // What each did, the verb agreeing with who did it: "عدّلت منى", "أضاف النظام".
    expect(within(panel).getByText('عدّلت')).toBeInTheDocument();
    expect(within(panel).getByText('أضاف')).toBeInTheDocument();
    expect(within(panel).getByText('النظام')).toBeInTheDocument();
    // The update changed the name only: its label, the old value and the new one.
    const update = screen.getByText('منى').closest('li')!;
    expect(within(update).getByText('اسم القارة')).toBeInTheDocument();
    expect(within(update).getByText('اسيا')).toBeInTheDocument();
    expect(within(update).getByText('آسيا')).toBeInTheDocument();
    expect(within(update).queryByText('الرمز')).not.toBeInTheDocument();
  });

  it('pages the history', async () => {
    renderRecord(`${continents.route}/2?tab=history`, <RecordPage entity={continents} />);
    expect(await screen.findByText('محرر 12')).toBeInTheDocument();
    expect(screen.queryByText('محرر 2')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('محرر 2')).toBeInTheDocument();
    expect(screen.queryByText('محرر 12')).not.toBeInTheDocument();
    const last = api.seen.filter((r) => r.path.endsWith('/system/audit')).at(-1)!;
    expect(Object.fromEntries(last.query)).toMatchObject({ entityId: '2', page: '2', pageSize: '10' });
  });

  it('sends the version with the status switch; a stale one opens the conflict dialog', async () => {
    renderRecord(`${continents.route}/1`, <RecordPage entity={continents} />);
    await screen.findByRole('heading', { name: 'آسيا' });
    // Someone else saved the record after the page read it.
    const stored = api.table(continents).rows.find((r) => r.id === 1)!;
    stored.updatedAt = '2024-06-01T08:00:00.000Z';
    fireEvent.click(screen.getByLabelText('تفعيل: آسيا'));
    expect(await screen.findByText('عُدِّل هذا السجل (قارة) أثناء تحريرك له')).toBeInTheDocument();
    const patch = api.calls(`${continents.path}/status/1`, 'PATCH')[0]!;
    expect(JSON.parse(patch.body)).toEqual({ status: false, updatedAt: stamp });
    // Keep mine: the switch is sent again on the current version.
    fireEvent.click(screen.getByText('مراجعة الفروق'));
    fireEvent.click(await screen.findByText('الإبقاء على قيمي ومتابعة التحرير'));
    await waitFor(() => expect(api.calls(`${continents.path}/status/1`, 'PATCH')).toHaveLength(2));
    expect(JSON.parse(api.calls(`${continents.path}/status/1`, 'PATCH')[1]!.body)).toEqual({
      status: false,
      updatedAt: '2024-06-01T08:00:00.000Z',
    });
    await waitFor(() => expect(stored.status).toBe(false));
  });

  it('edits the record in the form drawer with the version read, and shows the saved values', async () => {
    renderRecord(`${continents.route}/1`, <RecordPage entity={continents} />);
    fireEvent.click(await screen.findByText('تعديل'));
    const drawer = await screen.findByRole('dialog');
    const name = within(drawer).getAllByRole('textbox')[0]!;
    await waitFor(() => expect(name).toHaveValue('آسيا'));
    fireEvent.change(name, { target: { value: 'قارة آسيا' } });
    fireEvent.click(within(drawer).getByText('حفظ'));
    await waitFor(() => expect(api.calls(continents.path, 'PUT')).toHaveLength(1));
    expect(JSON.parse(api.calls(continents.path, 'PUT')[0]!.body)).toMatchObject({
      id: 1,
      name: 'قارة آسيا',
      updatedAt: stamp,
    });
    expect(await screen.findByRole('heading', { name: 'قارة آسيا' })).toBeInTheDocument();
  });

  it('lets a remote add, replace and hide tabs', async () => {
    renderRecord(
      `${continents.route}/1`,
      <RecordPage
        entity={continents}
        tabs={(derived, { title }) => [
          { key: 'notes', label: 'ملاحظات', children: <p>ملاحظات {title}</p> },
          ...derived
            .filter((t) => t.key !== 'countries.continentId')
            .map((t) => (t.key === 'history' ? { ...t, label: 'التاريخ', children: <p>تاريخ خاص</p> } : t)),
        ]}
      />,
    );
    expect(await screen.findByText('ملاحظات آسيا')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['ملاحظات', 'التاريخ']);
    fireEvent.click(tab('التاريخ'));
    expect(await screen.findByText('تاريخ خاص')).toBeInTheDocument();
    expect(location).toContain('tab=history');
    expect(api.calls(countries.path)).toHaveLength(0);
  });

  it("shows the server's message when a delete is refused, and goes back to the list after one", async () => {
    renderRecord(`${continents.route}/1`, <RecordPage entity={continents} />);
    fireEvent.click(await screen.findByText('حذف'));
    await confirmDelete();
    await waitFor(() => expect(toasts.error).toEqual(['لا يمكن الحذف: السجل مرتبط ببيانات أخرى']));
    expect(location).toBe(`${continents.route}/1`);
    // Nothing holds it any more: deleted, and back to the list.
    api.table(continents).referenced = [];
    // The header's button comes first; the confirmation's own is in a portal at the end.
    fireEvent.click(screen.getAllByText('حذف')[0]!);
    await confirmDelete();
    await waitFor(() => expect(location).toBe(continents.route));
    expect(toasts.success).toContain('تم الحذف بنجاح');
    expect(api.table(continents).rows.map((r) => r.id)).toEqual([2]);
  });

  it('previews PDFs and images, downloads and deletes files', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return `blob:preview-${created.length}`;
    });
    URL.revokeObjectURL = jest.fn();
    signIn(['employees.view', 'employees.update']);
    renderRecord(`${employees.route}/7`, <RecordPage entity={employees} />, `${employees.route}/:id`);
    expect(await screen.findByRole('tab', { name: 'الملفات' })).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('مذكرة.docx')).toBeInTheDocument();
    // A Word file has no preview; a PDF opens in a frame of its blob, typed as stored.
    expect(screen.queryByLabelText('معاينة مذكرة.docx')).not.toBeInTheDocument();
    fireEvent.click(within(panel).getByLabelText('معاينة عقد.pdf'));
    const frame = await screen.findByTitle('معاينة عقد.pdf');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', 'blob:preview-1');
    expect(created[0]!.type).toBe('application/pdf');
    fireEvent.click(screen.getByLabelText('معاينة صورة.png'));
    expect(await screen.findByAltText('معاينة صورة.png')).toHaveAttribute('src', 'blob:preview-2');

    fireEvent.click(within(panel).getByLabelText('تنزيل عقد.pdf'));
    await waitFor(() =>
      expect(api.seen.some((r) => r.path === '/api/files/31' && r.query.get('download') === '1')).toBe(true),
    );

    fireEvent.click(within(panel).getByLabelText('حذف صورة.png'));
    await confirmDelete();
    await waitFor(() => expect(api.calls('/employees/employees/delete/file/7/32', 'DELETE')).toHaveLength(1));
    expect(toasts.success).toContain('حُذف الملف');
  });

  it('shows each file’s text state, opens a search hit at its page, and lists and restores versions', async () => {
    URL.createObjectURL = jest.fn(() => 'blob:hit');
    URL.revokeObjectURL = jest.fn();
    signIn(['employees.view', 'employees.update']);
    renderRecord(
      `${employees.route}/7?tab=files&file=31&page=3`,
      <RecordPage entity={employees} />,
      `${employees.route}/:id`,
    );
    expect(await screen.findByText('قُرئ بالتعرف الضوئي (دقة ٨٧٪)')).toBeInTheDocument();
    expect(screen.getByText('تعذّرت قراءة النص: not readable as an image')).toBeInTheDocument();
    expect(screen.getByText('تُقرأ الصفحة ١ من ٤')).toBeInTheDocument();
    // The hit's file is previewed at the page found.
    expect(await screen.findByTitle('معاينة عقد.pdf')).toHaveAttribute('src', 'blob:hit#page=3');

    fireEvent.click(screen.getByLabelText('إصدارات الملف عقد.pdf'));
    expect(await screen.findByText('عقد قديم.pdf')).toBeInTheDocument();
    expect(screen.getByText('الحالي')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /اعتماده/ }));
    await waitFor(() => expect(api.calls('/files/31/versions/90/restore', 'POST')).toHaveLength(1));
    expect(toasts.success).toContain('أصبح هذا الإصدار هو الحالي.');
  });

  it('offers no file deletion without the update permission', async () => {
    signIn(['employees.view']);
    renderRecord(`${employees.route}/7`, <RecordPage entity={employees} />, `${employees.route}/:id`);
    expect(await screen.findByLabelText('معاينة عقد.pdf')).toBeInTheDocument();
    expect(screen.queryByLabelText('حذف عقد.pdf')).not.toBeInTheDocument();
  });
});
