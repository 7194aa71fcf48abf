import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { policeStations } from '@mizan/contracts';
import { EntityImport } from './EntityImport';
import { startApiServer } from '../test/apiServer';
import { captureToasts, renderAt, signIn, useServer } from '../test/renderPage';

jest.setTimeout(60_000);

const preview = {
  total: 4,
  valid: 2,
  duplicates: 1,
  errors: [{ row: 4, field: 'governorateId', message: 'المحافظة «حلب» غير موجودة' }],
  rows: [],
};
const result = {
  created: 2,
  skipped: 1,
  rejected: [{ row: 4, field: 'governorateId', message: 'المحافظة «حلب» غير موجودة' }],
};

let api: Awaited<ReturnType<typeof startApiServer>>;
beforeEach(async () => {
  api = await startApiServer([
    { entity: policeStations, rows: [], importPreview: preview, importResult: result },
  ]);
  useServer(api.url);
  signIn(['policeStations.view', 'policeStations.import']);
});
afterEach(() => api.close());

const readText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () =>
      resolve(new TextDecoder('utf-8', { ignoreBOM: true }).decode(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

const dialog = () => document.querySelector('.ant-modal') as HTMLElement;
const chooseFile = (file: File) =>
  fireEvent.change(dialog().querySelector('input[type=file]') as HTMLInputElement, {
    target: { files: [file] },
  });

describe('EntityImport (police stations)', () => {
  it('offers a template with the translated headers, required ones starred', async () => {
    const saved: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (b: Blob) => (saved.push(b), 'blob:t'),
      revokeObjectURL: () => undefined,
    });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderAt('/import', <EntityImport entity={policeStations} />);
    fireEvent.click(screen.getByText('استيراد'));
    fireEvent.click(await screen.findByText('نموذج CSV'));
    await waitFor(() => expect(saved).toHaveLength(1));
    click.mockRestore();
    expect(await readText(saved[0]!)).toBe('\uFEFFاسم القسم أو المركز*,المحافظة*,العنوان,الهاتف,الحالة\r\n');
  });

  it('refuses a file that is not CSV or XLSX without sending it', async () => {
    renderAt('/import', <EntityImport entity={policeStations} />);
    fireEvent.click(screen.getByText('استيراد'));
    await screen.findByText('نموذج CSV');
    chooseFile(new File(['%PDF'], 'stations.pdf', { type: 'application/pdf' }));
    expect(await within(dialog()).findByText('اختر ملفًا بصيغة CSV أو XLSX')).toBeInTheDocument();
    expect(api.seen.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('previews the server dry run with per-row errors, then commits and shows the result', async () => {
    const toasts = captureToasts();
    const onImported = jest.fn();
    renderAt('/import', <EntityImport entity={policeStations} onImported={onImported} />);
    fireEvent.click(screen.getByText('استيراد'));
    await screen.findByText('نموذج CSV');
    chooseFile(new File(['name,governorate\nقسم الأزبكية,القاهرة\n'], 'stations.csv', { type: 'text/csv' }));

    expect(await within(dialog()).findByText('المحافظة «حلب» غير موجودة')).toBeInTheDocument();
    const dryRun = api.calls(`${policeStations.path}/import`, 'POST')[0]!;
    expect(dryRun.query.get('dryRun')).toBe('1');
    expect(dryRun.contentType).toMatch(/^multipart\/form-data/);
    expect(dryRun.body).toContain('filename="stations.csv"');
    const errorRow = within(dialog()).getByText('المحافظة «حلب» غير موجودة').closest('tr') as HTMLElement;
    expect(within(errorRow).getByText('4')).toBeInTheDocument();
    expect(within(errorRow).getByText('المحافظة')).toBeInTheDocument();
    expect(onImported).not.toHaveBeenCalled();

    fireEvent.click(within(dialog()).getByText('استيراد صفين'));
    expect(await within(dialog()).findByText('اكتمل الاستيراد')).toBeInTheDocument();
    expect(within(dialog()).getByText('أُضيف: 2 · تُجووز لتكراره: 1 · رُفض: 1')).toBeInTheDocument();
    const commits = api.calls(`${policeStations.path}/import`, 'POST');
    expect(commits).toHaveLength(2);
    expect(commits[1]!.query.get('dryRun')).toBeNull();
    expect(onImported).toHaveBeenCalledTimes(1);
    expect(toasts.success).toContain('تم استيراد سجلين');
  });
});
