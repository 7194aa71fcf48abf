import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defineEntity } from '@mizan/contracts';
import { json, startServer, type SeenRequest, type TestServer } from '@mizan/sdk/testing/apiServer';
import { toFormData } from '../data';
import { EntityForm } from '../entity/EntityForm';
import { useEntityForm, type EntityFormOptions } from '../entity/useEntityForm';
import { pointSdkAt, renderScreen, signIn, captureToasts } from '../testing/render';
import { fileFractions, formatSize, multipartLayout, settleUploads, uploadsFromProgress } from './files';

const scans = defineEntity({
  name: 'scans',
  path: '/test/scans',
  remote: 'settings',
  fields: {
    name: { type: 'string', required: true, max: 100 },
    files: { type: 'files', accept: ['application/pdf', 'text/plain'], maxSize: 1024 * 1024, maxCount: 5 },
  },
});

const file = (name: string, bytes: number, type = 'text/plain') =>
  new File(['x'.repeat(bytes)], name, { type });

describe(formatSize.name, () => {
  it('writes a size in the language: its digits and its units', () => {
    expect(formatSize(389, 'ar')).toBe('٣٨٩ بايت');
    expect(formatSize(1536, 'ar')).toBe('١٫٥ كيلوبايت');
    expect(formatSize(10 * 1024 * 1024, 'ar')).toBe('١٠ ميجابايت');
    expect(formatSize(3 * 1024 ** 3, 'ar')).toBe('٣ جيجابايت');
    expect(formatSize(389, 'en')).toBe('389 B');
    expect(formatSize(1536, 'en')).toBe('1.5 KB');
  });
});

describe('multipart byte layout', () => {
  it('places each file after the parts before it, in the order of the form data', () => {
    const a = file('a.txt', 1000);
    const b = file('عقد.pdf', 3000, 'application/pdf');
    const form = toFormData(scans, { name: 'توكيل', files: [a, b], updatedAt: 'x' });
    const layout = multipartLayout(form, 38);
    const dash = 2 + 38 + 2; // `--boundary\r\n`
    const titlePart =
      dash + 'Content-Disposition: form-data; name="name"\r\n\r\n'.length + 'توكيل'.length * 2 + 2;
    const aHead =
      dash +
      'Content-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n'
        .length;
    expect(layout.files.map((f) => [f.field, f.index, f.file])).toEqual([
      ['files', 0, a],
      ['files', 1, b],
    ]);
    expect(layout.files[0]!.start).toBe(titlePart + aHead);
    expect(layout.files[0]!.end - layout.files[0]!.start).toBe(1000);
    // The Arabic file name counts in UTF-8 bytes (two per letter here).
    const bHead =
      dash +
      'Content-Disposition: form-data; name="files"; filename=".pdf"\r\nContent-Type: application/pdf\r\n\r\n'
        .length +
      6;
    expect(layout.files[1]!.start).toBe(layout.files[0]!.end + 2 + bHead);
    const versionPart = dash + 'Content-Disposition: form-data; name="updatedAt"\r\n\r\n'.length + 1 + 2;
    expect(layout.total).toBe(layout.files[1]!.end + 2 + versionPart + 2 + 38 + 4);
  });

  it('turns bytes sent into a fraction per file, scaled to the real body length', () => {
    const layout = {
      total: 1000,
      files: [
        { field: 'files', index: 0, file: file('a', 1), start: 100, end: 500 },
        { field: 'files', index: 1, file: file('b', 1), start: 600, end: 900 },
        { field: 'files', index: 2, file: file('c', 0), start: 950, end: 950 },
      ],
    };
    expect(fileFractions(layout, 0)).toEqual([0, 0, 0]);
    expect(fileFractions(layout, 300)).toEqual([0.5, 0, 0]);
    expect(fileFractions(layout, 750)).toEqual([1, 0.5, 0]);
    expect(fileFractions(layout, 1000)).toEqual([1, 1, 1]);
    // The browser's body is twice the estimate (a longer boundary, say): positions scale with it.
    expect(fileFractions(layout, 600, 2000)).toEqual([0.5, 0, 0]);
    // Progress is held at 99 % until the server has answered.
    expect(uploadsFromProgress(layout, 1000).files!.map((u) => [u.percent, u.status])).toEqual([
      [99, 'uploading'],
      [99, 'uploading'],
      [99, 'uploading'],
    ]);
  });

  it('settles every file as done, or marks the files the server refused', () => {
    const [a, b] = [file('a', 1), file('b', 1)];
    const uploads = { files: [a, b].map((f) => ({ file: f, percent: 99, status: 'uploading' as const })) };
    expect(settleUploads(uploads).files!.map((u) => [u.percent, u.status])).toEqual([
      [100, 'done'],
      [100, 'done'],
    ]);
    const refused = settleUploads(uploads, { message: 'مرفوض', errors: { 'files.1': ['نوع غير مسموح'] } });
    expect(refused.files).toEqual([{ file: b, percent: 99, status: 'error', error: 'نوع غير مسموح' }]);
    const whole = settleUploads(uploads, { message: 'الملف أكبر من المسموح', errors: {} });
    expect(whole.files!.map((u) => u.error)).toEqual(['الملف أكبر من المسموح', 'الملف أكبر من المسموح']);
    // A 422 on another field was not the files' fault.
    expect(settleUploads(uploads, { message: 'x', errors: { name: ['مطلوب'] } })).toEqual({});
  });
});

function ScanForm({ save }: { save?: EntityFormOptions['save'] }) {
  const form = useEntityForm(scans, { save });
  return <EntityForm {...form} buttons />;
}

describe('upload progress in the form', () => {
  let server: TestServer;
  let answer: (req: SeenRequest) => { status: number; body: unknown };
  let release: () => void = () => undefined;
  beforeEach(async () => {
    captureToasts();
    signIn(['scans.create', 'scans.update']);
    server = await startServer(async (req, res) => {
      if (req.method !== 'POST') return json(res, 404, {});
      await new Promise<void>((resolve) => (release = resolve));
      const { status, body } = answer(req);
      json(res, status, body);
    });
    pointSdkAt(server.url);
  });
  afterEach(() => {
    release();
    return server.close();
  });

  async function chooseAndSave(save?: EntityFormOptions['save']) {
    const user = userEvent.setup({ delay: null });
    const view = renderScreen(<ScanForm save={save} />);
    await user.type(screen.getByLabelText('name'), 'عقد');
    const input = view.container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, [file('a.txt', 2000), file('b.pdf', 5000, 'application/pdf')]);
    await screen.findByText('b.pdf');
    fireEvent.click(screen.getByRole('button', { name: /حفظ/ }));
    if (!save) await waitFor(() => expect(server.seen).toHaveLength(1));
    return view;
  }
  const bar = (name: string) => screen.getByRole('progressbar', { name: `رفع «${name}»` });

  it('sends every file in one multipart request, a bar per file, done when the server answers', async () => {
    answer = () => ({ status: 201, body: { data: { id: 1, name: 'عقد', createdAt: '', updatedAt: '' } } });
    await chooseAndSave();
    await waitFor(() => expect(bar('b.pdf')).toHaveAttribute('aria-valuenow', '0'));
    expect(bar('a.txt')).toHaveAttribute('aria-valuenow', '0');
    const [req] = server.seen;
    expect(req!.contentType).toMatch(/^multipart\/form-data/);
    // Given this body's boundary, the layout is this body's exact byte layout.
    const boundary = req!.contentType.split('boundary=')[1]!;
    const body = req!.body;
    const sent = toFormData(scans, {
      name: 'عقد',
      status: true,
      files: [file('a.txt', 2000), file('b.pdf', 5000, 'application/pdf')],
    });
    const layout = multipartLayout(sent, boundary.length);
    expect(layout.total).toBe(Buffer.byteLength(body));
    expect(layout.files[1]!.start).toBe(Buffer.byteLength(body.slice(0, body.indexOf('x'.repeat(5000)))));
    release();
    await waitFor(() => expect(bar('b.pdf')).toHaveAttribute('aria-valuenow', '100'));
    expect(bar('a.txt')).toHaveAttribute('aria-valuenow', '100');
  });

  it('moves each bar by the bytes sent within its own file', async () => {
    let progress: ((e: { loaded: number; total?: number }) => void) | undefined;
    let layout = multipartLayout([]);
    await chooseAndSave((_mode, body, options) => {
      layout = multipartLayout(toFormData(scans, body));
      progress = options?.onUploadProgress;
      return new Promise(() => undefined);
    });
    await waitFor(() => expect(progress).toBeDefined());
    // The first file sent, the second half-way (the browser reports a body 10 % longer: scaled).
    const loaded = (layout.files[1]!.start + 2500) * 1.1;
    act(() => progress!({ loaded, total: layout.total * 1.1 }));
    expect(bar('a.txt')).toHaveAttribute('aria-valuenow', '99');
    expect(bar('b.pdf')).toHaveAttribute('aria-valuenow', '50');
  });

  it('marks the file the server refused with its message, the others not', async () => {
    answer = () => ({
      status: 415,
      body: { message: 'نوع الملف غير مسموح', errors: { 'files.1': ['نوع الملف غير مسموح'] } },
    });
    await chooseAndSave();
    release();
    // On the file the server named (and in the form's alert: the message it could not place on a field).
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('b.pdf: نوع الملف غير مسموح'),
    );
    expect(screen.queryByRole('progressbar', { name: 'رفع «a.txt»' })).not.toBeInTheDocument();
    expect(bar('b.pdf').className).toContain('exception');
  });

  it('marks only the file a 413 names (the server names it by its place and its name), not the others', async () => {
    const message = 'حجم الملف «a.txt» أكبر من المسموح (1 ميغابايت)';
    answer = () => ({
      status: 413,
      body: { message, code: 'payloadTooLarge', errors: { 'files.0': [message] } },
    });
    await chooseAndSave();
    release();
    await waitFor(() => expect(bar('a.txt').className).toContain('exception'));
    expect(screen.queryByRole('progressbar', { name: 'رفع «b.pdf»' })).not.toBeInTheDocument();
    expect(screen.getByText('b.pdf')).toBeInTheDocument();
    // The message names the file already: it is not prefixed with the name a second time.
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toContain(message);
    expect(alerts.some((text) => text?.startsWith('a.txt:'))).toBe(false);
  });

  it('marks every file with the message of a refusal naming none (413)', async () => {
    answer = () => ({ status: 413, body: { message: 'الملف أكبر من المسموح (1 ميغابايت)' } });
    await chooseAndSave();
    release();
    await waitFor(() => expect(bar('a.txt').className).toContain('exception'));
    expect(bar('b.pdf').className).toContain('exception');
    expect(screen.getAllByText(/الملف أكبر من المسموح/).length).toBeGreaterThanOrEqual(2);
  });
});
