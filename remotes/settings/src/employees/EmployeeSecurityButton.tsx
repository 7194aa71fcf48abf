import { SafetyOutlined } from '@ant-design/icons';
import type { LoginAttempt } from '@mizan/contracts';
import { authApi, notify } from '@mizan/sdk';
import { SessionLine, type EntityRow } from '@mizan/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Drawer, Empty, List, Popconfirm, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const securityKey = (id: number) => ['employeeSecurity', id] as const;

/**
 * The employees list's "security" row action: where the employee is signed in (each session, and
 * signing them out everywhere at once), their last sign-in attempts with the reason of each
 * failure, and their two-factor state (reset when they lost their authenticator).
 */
export function EmployeeSecurityButton({ row }: { row: EntityRow }) {
  const { t } = useTranslation('settings');
  const [open, setOpen] = useState(false);
  const name = String(row.name ?? row.id);
  return (
    <>
      <Tooltip title={t('employees.security.action')}>
        <Button
          type="text"
          size="small"
          icon={<SafetyOutlined />}
          aria-label={t('employees.security.actionNamed', { name })}
          onClick={() => setOpen(true)}
        />
      </Tooltip>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={t('employees.security.title', { name })}
        size="large"
        destroyOnHidden
      >
        {open && <EmployeeSecurity id={row.id} name={name} />}
      </Drawer>
    </>
  );
}

function EmployeeSecurity({ id, name }: { id: number; name: string }) {
  const { t, i18n } = useTranslation('settings');
  const client = useQueryClient();
  const security = useQuery({ queryKey: securityKey(id), queryFn: () => authApi.employeeSecurity(id) });
  const refresh = () => client.invalidateQueries({ queryKey: securityKey(id) });
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  const signOutEverywhere = async () => {
    const { ended } = await authApi.signOutEverywhere(id);
    notify.success(t('employees.security.signedOut', { count: ended, name }));
    await refresh();
  };
  const resetTwoFactor = async () => {
    await authApi.resetTwoFactor(id);
    notify.success(t('employees.security.twoFactorReset', { name }));
    await refresh();
  };

  if (security.isPending) return <Card loading />;
  if (security.isError) return <Alert type="error" showIcon title={security.error.message} />;
  const { sessions, history, twoFactorEnabled } = security.data;

  const columns: ColumnsType<LoginAttempt> = [
    { key: 'at', title: t('employees.security.at'), render: (_, a) => when(a.at) },
    {
      key: 'result',
      title: t('employees.security.result'),
      render: (_, a) =>
        a.success ? (
          <Tag color="green">{t('employees.security.success')}</Tag>
        ) : (
          <Tag color="red">
            {t(`employees.security.reasons.${a.reason ?? 'unknown'}`, {
              defaultValue: t('employees.security.reasons.unknown'),
            })}
          </Tag>
        ),
    },
    {
      key: 'device',
      title: t('employees.security.device'),
      render: (_, a) => a.browser ?? t('employees.security.unknownDevice'),
    },
    { key: 'ip', title: t('employees.security.ip'), render: (_, a) => <span dir="ltr">{a.ip ?? '—'}</span> },
  ];

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        size="small"
        title={t('employees.security.twoFactor')}
        extra={
          twoFactorEnabled && (
            <Popconfirm
              title={t('employees.security.resetTwoFactorConfirm', { name })}
              onConfirm={() => resetTwoFactor().catch(() => undefined)}
            >
              <Button danger>{t('employees.security.resetTwoFactor')}</Button>
            </Popconfirm>
          )
        }
      >
        <Tag color={twoFactorEnabled ? 'green' : 'default'}>
          {twoFactorEnabled ? t('employees.security.twoFactorOn') : t('employees.security.twoFactorOff')}
        </Tag>
      </Card>
      <Card
        size="small"
        title={t('employees.security.sessions', { count: sessions.length })}
        extra={
          sessions.length > 0 && (
            <Popconfirm
              title={t('employees.security.signOutConfirm', { name })}
              onConfirm={() => signOutEverywhere().catch(() => undefined)}
            >
              <Button danger>{t('employees.security.signOutEverywhere')}</Button>
            </Popconfirm>
          )
        }
      >
        {sessions.length === 0 ? (
          <Empty description={t('employees.security.noSessions')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <List
            aria-label={t('employees.security.sessions', { count: sessions.length })}
            dataSource={sessions}
            renderItem={(session) => (
              <List.Item>
                <SessionLine session={session} />
              </List.Item>
            )}
          />
        )}
      </Card>
      <Card size="small" title={t('employees.security.history')}>
        <Table
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={history}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('employees.security.noHistory') }}
        />
      </Card>
    </Space>
  );
}
