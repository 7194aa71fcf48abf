import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MESSAGE_ROUTES, attachments, lawsuits, type SharePreview } from '@mizan/contracts';
import { recordElement } from '@mizan/ui';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { ALL_PERMISSIONS, BENCH, LAWSUIT, LEGAL_ENTITIES } from '../test/fixtures';
import { renderRoute, switchLanguage } from '../test/render';
import {
  multipartFiles,
  startLegalServer,
  type LegalServer,
  type LegalServerSpec,
  type Row,
} from '../test/server';

jest.setTimeout(240_000);

let server: LegalServer;

const GROUPS: Row[] = [
  { id: 1, name: 'صحف الدعوى', nameEn: 'Statements of claim', order: 1 },
  { id: 2, name: 'المذكرات', nameEn: 'Memoranda', order: 2 },
  { id: 3, name: 'الأحكام', nameEn: null, order: 4 },
];
const pdf = (id: number, originalName: string) => ({
  id,
  originalName,
  mimeType: 'application/pdf',
  size: 2048,
});
const ATTACHMENTS: Row[] = [
  {
    id: 80,
    lawsuitId: 7,
    groupId: 2,
    group: { id: 2, name: 'المذكرات' },
    title: 'مذكرة دفاع',
    files: [pdf(900, 'memo.pdf')],
  },
  {
    id: 81,
    lawsuitId: 7,
    groupId: 1,
    group: { id: 1, name: 'صحف الدعوى' },
    sessionId: 40,
    session: { id: 40, name: '2026-02-01' },
    title: 'صحيفة افتتاح الدعوى',
    notes: 'النسخة المعلنة',
    files: [pdf(901, 'claim.pdf'), { id: 902, originalName: 'scan.jpg', mimeType: 'image/jpeg', size: 4096 }],
  },
];

async function openAttachments(route?: LegalServerSpec['route']) {
  server = await startLegalServer(LEGAL_ENTITIES, {
    rows: { ...BENCH, lawsuits: [LAWSUIT], attachmentGroups: GROUPS, attachments: ATTACHMENTS },
    route,
  });
  pointSdkAt(server.url);
  renderRoute(
    `${lawsuits.route}/7?tab=attachments`,
    `${lawsuits.route}/:id`,
    recordElement(lawsuits, ENTITY_OVERRIDES.lawsuits),
  );
  await screen.findByText('صحيفة افتتاح الدعوى');
}
const headers = () =>
  [...document.querySelectorAll('.ant-collapse-header .ant-collapse-title')].map((h) =>
    h.textContent?.replace(/[\d٠-٩]+$/, ''),
  );

let toasts: ReturnType<typeof captureToasts>;

beforeEach(async () => {
  localStorage.clear();
  toasts = captureToasts();
  signIn(ALL_PERMISSIONS);
  await switchLanguage('ar');
});
afterEach(() => server.close());

describe('lawsuit attachments', () => {
  it('files the attachments under their groups in the groups’ order, each file with preview, download and delete', async () => {
    await openAttachments();
    expect(headers()).toEqual(['صحف الدعوى', 'المذكرات', 'الأحكام']);
    expect(server.to('GET', attachments.path).at(-1)?.query.get('lawsuitId')).toBe('7');

    const claims = screen.getByRole('list', { name: 'صحف الدعوى' });
    expect(within(claims).getByText('صحيفة افتتاح الدعوى')).toBeInTheDocument();
    expect(within(claims).getByText('النسخة المعلنة')).toBeInTheDocument();
    expect(within(claims).getByText('الجلسة:')).toBeInTheDocument();
    expect(within(claims).getByRole('button', { name: 'معاينة claim.pdf' })).toBeInTheDocument();
    expect(within(claims).getByRole('button', { name: 'معاينة scan.jpg' })).toBeInTheDocument();
    expect(within(claims).queryByText('مذكرة دفاع')).toBeNull();
    const memos = screen.getByRole('list', { name: 'المذكرات' });
    expect(within(memos).getByText('مذكرة دفاع')).toBeInTheDocument();
    fireEvent.click(screen.getByText('الأحكام', { selector: '.ant-collapse-title span' }));
    expect(await screen.findByText('لا توجد مرفقات في هذه المجموعة')).toBeInTheDocument();

    fireEvent.click(within(claims).getByRole('button', { name: /حذف scan\.jpg/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'حذف' }));
    await waitFor(() => expect(server.to('DELETE', `${attachments.path}/files/902`)).toHaveLength(1));
    await waitFor(() => expect(within(claims).queryByText('scan.jpg')).toBeNull());
    expect(within(claims).getByText('claim.pdf')).toBeInTheDocument();
  });

  it('adds an attachment of several files to a group, the lawsuit and group filled in', async () => {
    await openAttachments();
    // Each group adds its own from inside its panel (its header is a button already); the
    // empty group is folded at first.
    expect(document.querySelector('.ant-collapse-header button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'إضافة مرفق إلى الأحكام' })).toBeNull();
    fireEvent.click(screen.getByText('الأحكام', { selector: '.ant-collapse-title span' }));
    fireEvent.click(await screen.findByRole('button', { name: 'إضافة مرفق إلى الأحكام' }));
    const drawer = (await screen.findByText(/^إضافة /, { selector: '.ant-drawer-title' })).closest(
      '.ant-drawer',
    ) as HTMLElement;
    const item = (label: string) =>
      within(drawer).getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;
    expect(item('المجموعة').querySelector('.ant-select-content')?.textContent).toBe('الأحكام');
    expect(item('الدعوى').querySelector('.ant-select-content')?.textContent).toBe('2026/0007');
    fireEvent.change(within(item('العنوان')).getByRole('textbox'), { target: { value: 'حكم أول درجة' } });
    const input = drawer.querySelector('input[type="file"]') as HTMLInputElement;
    const files = [
      new File(['%PDF-1.4 one'], 'judgment.pdf', { type: 'application/pdf' }),
      new File(['%PDF-1.4 two'], 'appendix.pdf', { type: 'application/pdf' }),
    ];
    fireEvent.change(input, { target: { files } });
    await within(drawer).findByText('appendix.pdf');
    fireEvent.click(within(drawer).getByRole('button', { name: /حفظ/ }));

    await waitFor(() => expect(server.to('POST', attachments.path)).toHaveLength(1));
    const sent = server.to('POST', attachments.path)[0]!;
    expect(server.body(sent)).toMatchObject({ lawsuitId: 7, groupId: 3, title: 'حكم أول درجة' });
    expect(multipartFiles(sent).map((f) => f.name)).toEqual(['judgment.pdf', 'appendix.pdf']);
    const judgments = await screen.findByRole('list', { name: 'الأحكام' });
    expect(await within(judgments).findByText('حكم أول درجة')).toBeInTheDocument();
    expect(within(judgments).getByText('judgment.pdf')).toBeInTheDocument();
  });
});

describe('sharing an attachment with the clients', () => {
  const sharePath = (attachmentId: number) =>
    MESSAGE_ROUTES.share.path.replace(':id', '7').replace(':attachmentId', String(attachmentId));
  const PREVIEW: SharePreview = {
    files: [{ name: 'memo.pdf', size: 2048 }],
    recipients: [
      { customerId: 3, name: 'أحمد إبراهيم علي', channels: ['email', 'whatsapp'] },
      { customerId: 5, name: 'منى حسن', channels: [] },
    ],
  };
  const message = (id: number, channel: string) => ({ id, customerId: 3, channel, state: 'queued' });
  /** Share routes of the test server: the preview, and the share answering `answer`. */
  const routes =
    (answer: { status: number; body: unknown }): LegalServerSpec['route'] =>
    (req, path) => {
      if (path !== sharePath(80)) return undefined;
      return req.method === 'GET' ? { status: 200, body: { data: PREVIEW } } : answer;
    };

  it('is offered to whoever may message the clients', async () => {
    await openAttachments();
    expect(screen.queryByRole('button', { name: 'مشاركة «مذكرة دفاع» مع الموكل' })).toBeNull();
  });

  it('confirms the recipients and their channels, then queues the messages', async () => {
    signIn([...ALL_PERMISSIONS, 'customers.update']);
    await openAttachments(
      routes({ status: 201, body: { data: { items: [message(1, 'email'), message(2, 'whatsapp')] } } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'مشاركة «مذكرة دفاع» مع الموكل' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('مشاركة «مذكرة دفاع» مع الموكلين')).toBeInTheDocument();
    const list = await within(dialog).findByRole('list', { name: 'المستلمون وقنواتهم' });
    const [ahmed, mona] = within(list).getAllByRole('listitem');
    expect(within(ahmed!).getByRole('checkbox')).toBeChecked();
    expect([...ahmed!.querySelectorAll('.ant-tag')].map((tag) => tag.textContent)).toEqual([
      'البريد الإلكتروني',
      'واتساب',
    ]);
    expect(within(mona!).getByRole('checkbox')).toBeDisabled();
    expect(within(mona!).getByRole('checkbox')).not.toBeChecked();
    expect(within(mona!).getByText('لم يوافق على المراسلة عبر أي قناة')).toBeInTheDocument();
    expect(within(dialog).getByText(/^ملف واحد:/)).toBeInTheDocument();
    expect(within(dialog).getByText(/تحمل الرسالة النصية النص وحده/)).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'مشاركة' }));
    await waitFor(() => expect(toasts.success).toEqual(['أُضيفت رسالتان إلى قائمة الإرسال']));
    const sent = server.to('POST', sharePath(80));
    expect(sent.map((req) => JSON.parse(req.body))).toEqual([{ customerIds: [3] }]);
  });

  it('shows why the server refused, in English too', async () => {
    signIn([...ALL_PERMISSIONS, 'customers.update']);
    await switchLanguage('en');
    const refusal = "The attachment's files (2 MB) are over the email limit (1 MB)";
    await openAttachments(
      routes({ status: 422, body: { message: 'invalid', errors: { files: [refusal] } } }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Share مذكرة دفاع with the client' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/^One file:/)).toBeInTheDocument();
    // Nobody chosen: nothing to share.
    fireEvent.click(within(dialog).getAllByRole('checkbox')[0]!);
    expect(within(dialog).getByRole('button', { name: 'Share' })).toBeDisabled();
    fireEvent.click(within(dialog).getAllByRole('checkbox')[0]!);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(toasts.error).toEqual([refusal]));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
