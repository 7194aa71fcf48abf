import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { policeStations } from '@mizan/contracts';
import { EntityImport } from './EntityImport';
import { startApiServer, type TableSpec } from '../test/apiServer';
import { captureToasts, renderAt, signIn, pointSdkAt } from '../testing/render';

jest.setTimeout(60_000);

const columns = [
  { header: 'اسم القسم أو المركز', field: 'name' },
  { header: 'المحافظة', field: 'governorateId' },
];
const cleanPreview = {
  total: 3,
  valid: 2,
  duplicates: 1,
  invalid: 0,
  errors: [],
  duplicateRows: [{ row: 3, field: 'name', message: 'مكرر في الملف' }],
  ignoredColumns: ['ملاحظات'],
  columns,
  sample: [
    { row: 2, name: 'قسم الأزبكية', governorateId: 1, governorate: { id: 1, name: 'القاهرة' } },
    { row: 4, name: 'قسم العجوزة', governorateId: 2, governorate: { id: 2, name: 'الجيزة' } },
  ],
};
const invalidPreview = {
  ...cleanPreview,
  valid: 1,
  invalid: 1,
  errors: [{ row: 4, field: 'governorateId', message: 'المحافظة «حلب» غير موجودة' }],
};

let api: Awaited<ReturnType<typeof startApiServer>>;
async function serve(spec: Partial<TableSpec>) {
  api = await startApiServer([{ entity: policeStations, rows: [], ...spec }]);
  pointSdkAt(api.url);
}
beforeEach(() => signIn(['policeStations.view', 'policeStations.import']));
afterEach(() => api.close());

const readText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () =>
      resolve(new TextDecoder('utf-8', { ignoreBOM: true }).decode(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

const dialog = () => document.querySelector('.ant-modal') as HTMLElement;
const open = async () => {
  fireEvent.click(screen.getByText('استيراد'));
  await screen.findByText('نموذج CSV');
};
const chooseFile = (file: File) =>
  fireEvent.change(dialog().querySelector('input[type=file]') as HTMLInputElement, {
    target: { files: [file] },
  });
const csvFile = () =>
  new File(['name,governorate\nقسم الأزبكية,القاهرة\n'], 'stations.csv', { type: 'text/csv' });

describe('EntityImport (police stations)', () => {
  it('downloads the server template in the chosen format', async () => {
    await serve({ importTemplate: 'اسم القسم أو المركز*,المحافظة*,العنوان,الهاتف,الحالة' });
    const saved: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (b: Blob) => (saved.push(b), 'blob:t'),
      revokeObjectURL: () => undefined,
    });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderAt('/import', <EntityImport entity={policeStations} />);
    await open();
    fireEvent.click(screen.getByText('نموذج CSV'));
    await waitFor(() => expect(saved).toHaveLength(1));
    click.mockRestore();
    expect(api.calls(`${policeStations.path}/import/template`)[0]!.query.get('format')).toBe('csv');
    expect(await readText(saved[0]!)).toBe('\uFEFFاسم القسم أو المركز*,المحافظة*,العنوان,الهاتف,الحالة\r\n');
  });

  it('refuses a file that is not CSV or XLSX without sending it', async () => {
    await serve({});
    renderAt('/import', <EntityImport entity={policeStations} />);
    await open();
    chooseFile(new File(['%PDF'], 'stations.pdf', { type: 'application/pdf' }));
    expect(await within(dialog()).findByText('اختر ملفًا بصيغة CSV أو XLSX')).toBeInTheDocument();
    expect(api.seen.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('shows per-row errors of the dry run and does not allow committing such a file', async () => {
    await serve({ importPreview: invalidPreview });
    renderAt('/import', <EntityImport entity={policeStations} />);
    await open();
    chooseFile(csvFile());
    const message = await within(dialog()).findByText('المحافظة «حلب» غير موجودة');
    const row = message.closest('tr') as HTMLElement;
    expect(within(row).getByText('4')).toBeInTheDocument();
    expect(within(row).getByText('المحافظة')).toBeInTheDocument();
    const dryRun = api.calls(`${policeStations.path}/import`, 'POST')[0]!;
    expect(dryRun.query.get('dryRun')).toBe('1');
    expect(dryRun.contentType).toMatch(/^multipart\/form-data/);
    expect(dryRun.body).toContain('filename="stations.csv"');
    expect(within(dialog()).getByText('استيراد صف واحد').closest('button')).toBeDisabled();
  });

  it('previews a clean file (sample, duplicates, ignored columns), commits it and shows the result', async () => {
    await serve({ importPreview: cleanPreview, importResult: { created: 2, skipped: 1, rejected: [] } });
    const toasts = captureToasts();
    const onImported = jest.fn();
    renderAt('/import', <EntityImport entity={policeStations} onImported={onImported} />);
    await open();
    chooseFile(csvFile());
    expect(await within(dialog()).findByText('قسم العجوزة')).toBeInTheDocument();
    expect(within(dialog()).getByText('الجيزة')).toBeInTheDocument();
    expect(within(dialog()).getByText('مكرر في الملف')).toBeInTheDocument();
    expect(within(dialog()).getByText('أعمدة لم يُتعرّف عليها ولن تُقرأ: ملاحظات')).toBeInTheDocument();
    expect(onImported).not.toHaveBeenCalled();

    fireEvent.click(within(dialog()).getByText('استيراد صفين'));
    expect(await within(dialog()).findByText('اكتمل الاستيراد')).toBeInTheDocument();
    expect(within(dialog()).getByText('أُضيف: 2 · تُجووز لتكراره: 1 · رُفض: 0')).toBeInTheDocument();
    const posts = api.calls(`${policeStations.path}/import`, 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]!.query.get('dryRun')).toBeNull();
    expect(onImported).toHaveBeenCalledTimes(1);
    expect(toasts.success).toContain('تم استيراد سجلين');
  });

  /** The number shown beside a summary label of the preview. */
  const summary = (label: string) =>
    (within(dialog()).getByText(label).closest('.ant-descriptions-item') as HTMLElement).querySelector(
      '.ant-descriptions-item-content',
    )?.textContent;

  it('counts rows, not messages, so the summary adds up to the file', async () => {
    // Four rows: two good, row 4 with two errors, row 5 with one (as the server answers it).
    await serve({
      importPreview: {
        total: 4,
        valid: 2,
        duplicates: 0,
        invalid: 2,
        errors: [
          { row: 4, field: 'name', message: 'اسم القسم أو المركز مطلوب' },
          { row: 4, field: 'phone', message: 'صيغة الهاتف غير صحيحة' },
          { row: 5, field: 'governorateId', message: 'المحافظة «الغربية» غير موجودة' },
        ],
        duplicateRows: [],
        ignoredColumns: [],
        columns,
        sample: [],
      },
    });
    renderAt('/import', <EntityImport entity={policeStations} />);
    await open();
    chooseFile(csvFile());
    await within(dialog()).findByText('صيغة الهاتف غير صحيحة');
    expect(summary('عدد الصفوف')).toBe('4');
    expect(summary('جاهزة للاستيراد')).toBe('2');
    expect(summary('مكررة (ستُتجاوز)')).toBe('0');
    expect(summary('صفوف بها أخطاء')).toBe('2');
  });

  it('shows the rows to be added as active, as the commit saves them', async () => {
    await serve({
      importPreview: {
        ...cleanPreview,
        duplicates: 0,
        duplicateRows: [],
        total: 2,
        invalid: 0,
        // The file has a status column; a blank cell (no status in the row) is saved active.
        columns: [...columns, { header: 'الحالة', field: 'status' }],
        sample: [cleanPreview.sample[0], { ...cleanPreview.sample[1], status: false }],
      },
    });
    renderAt('/import', <EntityImport entity={policeStations} />);
    await open();
    chooseFile(csvFile());
    const first = (await within(dialog()).findByText('قسم الأزبكية')).closest('tr') as HTMLElement;
    expect(within(first).getByText('نشط')).toBeInTheDocument();
    const second = within(dialog()).getByText('قسم العجوزة').closest('tr') as HTMLElement;
    expect(within(second).getByText('غير نشط')).toBeInTheDocument();
    expect(summary('صفوف بها أخطاء')).toBe('0');
  });
});
