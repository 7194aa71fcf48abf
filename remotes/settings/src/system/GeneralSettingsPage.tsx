import { AREA_PERMISSIONS, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { api, isApiError, notify, useAuth } from '@mizan/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Popconfirm, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { GeneralSettingsForm } from './GeneralSettingsForm';
import { MessagingCard } from './MessagingCard';
import { TwoFactorRolesCard } from './TwoFactorRolesCard';
import type { GeneralSettingsPayload } from './generalSettings';

export const generalSettingsKey = ['systemSettings', 'general'] as const;
/**
 * The host's query of the public settings (`GET /auth/systemSettings`: name, logo, colour). Saving
 * refreshes it at once on this page; other pages follow the server's `systemSettings` event.
 */
export const HOST_SETTINGS_KEY = ['systemSettings'] as const;

/** `/admin/settings/system/general`: read with `systemSettings.view`, saved with `.update`. */
export function GeneralSettingsPage() {
  const { t } = useTranslation('settings');
  const { can } = useAuth();
  const canEdit = can(AREA_PERMISSIONS.systemSettingsUpdate);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: generalSettingsKey,
    queryFn: () => api.call(SYSTEM_SETTINGS_ROUTES.get),
  });
  const save = useMutation({
    mutationFn: (values: GeneralSettingsPayload) => api.call(SYSTEM_SETTINGS_ROUTES.update, { body: values }),
    onSuccess: (saved) => {
      client.setQueryData(generalSettingsKey, saved);
      void client.invalidateQueries({ queryKey: HOST_SETTINGS_KEY, exact: true });
      notify.success(t('system.general.saved'));
    },
  });
  // `DELETE /general/1`: the one settings row back to its defaults (seed: GET, PUT, DELETE /{id}).
  const restore = useMutation({
    mutationFn: () => api.call(SYSTEM_SETTINGS_ROUTES.reset, { params: { id: query.data?.id ?? 1 } }),
    onSuccess: (saved) => {
      client.setQueryData(generalSettingsKey, saved);
      void client.invalidateQueries({ queryKey: HOST_SETTINGS_KEY, exact: true });
      notify.success(t('system.general.resetDone'));
    },
  });
  const fieldErrors = isApiError(save.error) && save.error.status === 422 ? save.error.errors : undefined;

  if (query.isError)
    return (
      <Result
        status="error"
        title={t('system.loadError')}
        extra={<Button onClick={() => void query.refetch()}>{t('actions.retry')}</Button>}
      />
    );

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card>
        <Flex wrap gap="middle" align="center" justify="space-between">
          <div>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('system.general.title')}
            </Typography.Title>
            <Typography.Text type="secondary">{t('system.general.description')}</Typography.Text>
          </div>
          {canEdit && (
            <Popconfirm
              title={t('system.general.resetDefaults')}
              description={t('system.general.resetConfirm')}
              okText={t('system.general.resetDefaults')}
              cancelText={t('actions.cancel')}
              okButtonProps={{ danger: true, loading: restore.isPending }}
              onConfirm={() => restore.mutateAsync().catch(() => undefined)}
            >
              <Button danger disabled={!query.data}>
                {t('system.general.resetDefaults')}
              </Button>
            </Popconfirm>
          )}
        </Flex>
      </Card>
      {!canEdit && <Alert type="info" showIcon title={t('system.readOnly')} />}
      {query.data ? (
        <GeneralSettingsForm
          initialValues={query.data}
          canEdit={canEdit}
          saving={save.isPending}
          fieldErrors={fieldErrors}
          error={save.error}
          // The http client already toasts the failure; the promise settles so the form stays usable.
          onSubmit={(values) => save.mutateAsync(values).catch(() => undefined)}
        />
      ) : (
        <Card loading />
      )}
      <TwoFactorRolesCard canEdit={canEdit} />
      <MessagingCard canEdit={canEdit} />
    </Space>
  );
}
