import { AREA_PERMISSIONS, type BackupItem, type BackupList, BACKUP_ROUTES } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { BackupsPage } from './BackupsPage';

const path = `/api${BACKUP_ROUTES.list.path}`;

const done: BackupItem = {
  id: 3,
  trigger: 'scheduled',
  state: 'done',
  startedAt: '2026-11-27T00:00:05.000Z',
  finishedAt: '2026-11-27T00:01:10.000Z',
  createdBy: null,
  size: 5 * 1024 * 1024,
  tables: 42,
  rows: 1200,
  files: 2,
  error: null,
};
const failed: BackupItem = {
  ...done,
  id: 2,
  trigger: 'manual',
  state: 'failed',
  createdBy: { id: 1, name: 'فاطمة' },
  size: null,
  tables: null,
  rows: null,
  files: null,
  error: 'stored file 0af… is listed in the database but missing',
};

let list: BackupList;
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer({
    [`GET ${path}`]: () => ({ body: { data: list } }),
    [`POST ${path}`]: () => {
      const running: BackupItem = { ...done, id: 4, trigger: 'manual', state: 'running', size: null };
      list = { ...list, items: [running, ...list.items] };
      return { status: 202, body: { data: running } };
    },
    [`DELETE ${path}/3`]: () => {
      list = { ...list, items: list.items.filter((b) => b.id !== 3) };
      return { body: { data: { id: 3 } } };
    },
  });
  pointSdkAt(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
  list = {
    items: [done, failed],
    schedule: { time: '02:00', keep: 7, nextAt: '2026-11-28T00:00:00.000Z' },
  };
  captureToasts();
});

describe('BackupsPage', () => {
  it('lists the backups with what each holds, and why one failed', async () => {
    signIn([AREA_PERMISSIONS.backupsView]);
    renderScreen(<BackupsPage />);
    const row = (await screen.findByText('Scheduled')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Done')).toBeInTheDocument();
    expect(within(row).getByText('42 tables, 1,200 rows, 2 files')).toBeInTheDocument();
    expect(within(row).getByText('5 MB')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Download backup' })).toBeInTheDocument();
    const bad = screen.getByText('By hand, by فاطمة').closest('tr') as HTMLElement;
    expect(within(bad).getByText('Failed')).toBeInTheDocument();
    expect(within(bad).getByText(/missing/)).toBeInTheDocument();
    expect(within(bad).queryByRole('button', { name: 'Download backup' })).toBeNull();
    expect(
      screen.getByText(
        'A backup is taken every day at 02:00 (office time); the latest 7 scheduled ones are kept.',
      ),
    ).toBeInTheDocument();
    // Only a reader: neither "back up now" nor delete.
    expect(screen.queryByRole('button', { name: /Back up now/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete backup' })).toBeNull();
  });

  it('takes a backup now and follows it until it is done, and deletes one', async () => {
    signIn([AREA_PERMISSIONS.backupsView, AREA_PERMISSIONS.backupsCreate, AREA_PERMISSIONS.backupsDelete]);
    renderScreen(<BackupsPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Back up now/ }));
    await screen.findByText('In progress');
    expect(server.calls('POST', path)).toHaveLength(1);
    expect(screen.getByRole('button', { name: /Taking a backup/ })).toBeInTheDocument();
    // Done on the server: the page reads the list again while one is running.
    list = {
      ...list,
      items: list.items.map((b) =>
        b.state === 'running' ? { ...done, id: 4, trigger: 'manual' as const } : b,
      ),
    };
    await waitFor(() => expect(screen.queryByText('In progress')).toBeNull(), { timeout: 5000 });

    const row = document.querySelector('tr[data-row-key="3"]') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Delete backup' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(server.calls('DELETE', `${path}/3`)).toHaveLength(1));
  });

  it('reads in Arabic with its numbers agreeing', async () => {
    signIn([AREA_PERMISSIONS.backupsView]);
    list = {
      ...list,
      items: [{ ...done, tables: 2, rows: 11, files: 1 }],
      schedule: { ...list.schedule, keep: 2 },
    };
    await act(() => i18n.changeLanguage('ar'));
    try {
      renderScreen(<BackupsPage />);
      expect(await screen.findByText('جدولان، ١١ سجلًا، ملف واحد')).toBeInTheDocument();
      expect(
        screen.getByText(
          'تُنشأ نسخة احتياطية كل يوم الساعة ٠٢:٠٠ بتوقيت المكتب، ويُحتفظ بآخر نسختين مجدولتين.',
        ),
      ).toBeInTheDocument();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
