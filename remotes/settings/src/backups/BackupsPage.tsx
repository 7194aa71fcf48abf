import { CloudDownloadOutlined, DeleteOutlined, ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import {
  AREA_PERMISSIONS,
  BACKUP_ROUTES,
  pathOf,
  type BackupItem,
  SYSTEM_SETTINGS_ROUTES,
} from '@mizan/contracts';
import { api, notify, useAuth } from '@mizan/sdk';
import { DualDate, formatNumber, formatSize } from '@mizan/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { downloadFile } from '../common/download';

const KEY = ['backups'] as const;
/** How often the list is read again while a backup is being taken. */
const POLL_MS = 2000;

const STATE_COLORS = { running: 'processing', done: 'success', failed: 'error' } as const;

/**
 * The office's backups: the daily ones and those taken by hand, each with what it holds, to
 * download (the archive `npm run restore` loads into an empty database) or delete; "back up now"
 * for those who may. The schedule itself is set in the general settings.
 */
export function BackupsPage() {
  const { t, i18n } = useTranslation('settings');
  const { can } = useAuth();
  const client = useQueryClient();
  const [starting, setStarting] = useState(false);
  const backups = useQuery({
    queryKey: KEY,
    queryFn: () => api.call(BACKUP_ROUTES.list),
    // Followed while one is being taken, here or by the schedule.
    refetchInterval: (query) =>
      query.state.data?.items.some((b) => b.state === 'running') ? POLL_MS : false,
  });
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  const lng = i18n.language;
  const n = (value: number) => formatNumber(value, lng);

  const backUpNow = async () => {
    setStarting(true);
    try {
      await api.call(BACKUP_ROUTES.create);
      notify.success(t('backups.started'));
    } catch {
      // The request layer showed the reason (one already running: 409).
    } finally {
      setStarting(false);
      await refresh();
    }
  };
  const remove = async (backup: BackupItem) => {
    await api.call(BACKUP_ROUTES.remove, { params: { id: backup.id } });
    notify.success(t('backups.deleted'));
    await refresh();
  };

  const columns: ColumnsType<BackupItem> = [
    {
      key: 'startedAt',
      title: t('backups.columns.startedAt'),
      render: (_, b) => <DualDate value={b.startedAt} type="datetime" stacked />,
    },
    {
      key: 'trigger',
      title: t('backups.columns.trigger'),
      render: (_, b) =>
        b.trigger === 'scheduled'
          ? t('backups.triggers.scheduled')
          : t('backups.triggers.manualBy', { name: b.createdBy?.name ?? t('backups.someone') }),
    },
    {
      key: 'state',
      title: t('backups.columns.state'),
      render: (_, b) => {
        const tag = <Tag color={STATE_COLORS[b.state]}>{t(`backups.states.${b.state}`)}</Tag>;
        return b.state === 'failed' && b.error ? (
          <Space orientation="vertical" size={0}>
            {tag}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {b.error === 'interrupted' ? t('backups.interrupted') : <bdi>{b.error}</bdi>}
            </Typography.Text>
          </Space>
        ) : (
          tag
        );
      },
    },
    {
      key: 'contents',
      title: t('backups.columns.contents'),
      render: (_, b) =>
        b.state === 'done'
          ? [
              t('backups.tables', { count: b.tables ?? 0, n: n(b.tables ?? 0) }),
              t('backups.rows', { count: b.rows ?? 0, n: n(b.rows ?? 0) }),
              t('backups.files', { count: b.files ?? 0, n: n(b.files ?? 0) }),
            ].join(t('backups.separator'))
          : '—',
    },
    {
      key: 'size',
      title: t('backups.columns.size'),
      render: (_, b) => (b.size === null ? '—' : formatSize(b.size, lng)),
    },
    {
      key: 'actions',
      title: t('backups.columns.actions'),
      render: (_, b) => (
        <Space size={4}>
          {b.state === 'done' && (
            <Tooltip title={t('backups.download')}>
              <Button
                type="text"
                icon={<CloudDownloadOutlined />}
                aria-label={t('backups.download')}
                onClick={() =>
                  void downloadFile(pathOf(BACKUP_ROUTES.download.path, { id: b.id }), `mizan-${b.id}.tar.gz`)
                }
              />
            </Tooltip>
          )}
          {b.state !== 'running' && can(AREA_PERMISSIONS.backupsDelete) && (
            <Popconfirm title={t('backups.deleteConfirm')} onConfirm={() => remove(b).catch(() => undefined)}>
              <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('backups.delete')} />
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const schedule = backups.data?.schedule;
  const running = backups.data?.items.some((b) => b.state === 'running') ?? false;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('backups.title')}
        </Typography.Title>
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void refresh()}>
            {t('backups.refresh')}
          </Button>
          {can(AREA_PERMISSIONS.backupsCreate) && (
            <Button
              type="primary"
              icon={<SaveOutlined />}
              loading={starting || running}
              onClick={() => void backUpNow()}
            >
              {running ? t('backups.running') : t('backups.now')}
            </Button>
          )}
        </Space>
      </Flex>
      {schedule && (
        <Card size="small">
          <Space orientation="vertical" size={4}>
            <Typography.Text>
              {schedule.keep === 0
                ? t('backups.scheduleOff')
                : t('backups.schedule', {
                    time: schedule.time.replace(/\d/g, (d) => n(Number(d))),
                    count: schedule.keep,
                    n: n(schedule.keep),
                  })}
            </Typography.Text>
            {schedule.nextAt && (
              <Typography.Text type="secondary">
                {t('backups.next')} <DualDate value={schedule.nextAt} type="datetime" />
              </Typography.Text>
            )}
            {can(AREA_PERMISSIONS.systemSettingsUpdate) && (
              <Link to={SYSTEM_SETTINGS_ROUTES.get.path}>{t('backups.changeSchedule')}</Link>
            )}
          </Space>
        </Card>
      )}
      <Alert type="info" showIcon title={t('backups.restoreHint')} />
      {backups.isError ? (
        <Alert type="error" showIcon title={t('backups.loadError')} />
      ) : (
        <Table<BackupItem>
          rowKey="id"
          size="middle"
          loading={backups.isPending}
          columns={columns}
          dataSource={backups.data?.items ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('backups.empty')} /> }}
        />
      )}
    </Space>
  );
}
