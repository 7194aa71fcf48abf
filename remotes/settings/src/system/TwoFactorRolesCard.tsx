import { AUTH_ROUTES } from '@mizan/contracts';
import { api, isApiError, notify } from '@mizan/sdk';
import { RefSelect } from '@mizan/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const twoFactorRolesKey = ['systemSettings', 'twoFactorRoles'] as const;

/**
 * The roles whose members must sign in with two-step verification: members of a chosen role who
 * have not set it up are asked to at their next sign-in. Saved with `systemSettings.update`.
 */
export function TwoFactorRolesCard({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const client = useQueryClient();
  const query = useQuery({
    queryKey: twoFactorRolesKey,
    queryFn: () => api.call(AUTH_ROUTES.twoFactorRoles),
  });
  const [picked, setPicked] = useState<number[] | null>(null);
  const roleIds = picked ?? query.data?.roleIds ?? [];
  const save = useMutation({
    mutationFn: (ids: number[]) => api.call(AUTH_ROUTES.setTwoFactorRoles, { body: { roleIds: ids } }),
    onSuccess: (saved) => {
      client.setQueryData(twoFactorRolesKey, saved);
      setPicked(null);
      notify.success(t('system.twoFactorRoles.saved'));
    },
  });
  const error = isApiError(save.error) ? save.error.errors.roleIds?.[0] : undefined;

  return (
    <Card title={t('system.twoFactorRoles.title')} loading={query.isPending}>
      <Typography.Paragraph type="secondary">{t('system.twoFactorRoles.help')}</Typography.Paragraph>
      {query.isError && <Alert type="error" showIcon title={t('system.loadError')} />}
      <Flex wrap gap="middle" align="center">
        <RefSelect
          entity="roles"
          multiple
          aria-label={t('system.twoFactorRoles.roles')}
          placeholder={t('system.twoFactorRoles.none')}
          disabled={!canEdit}
          value={roleIds}
          onChange={(ids) => setPicked(Array.isArray(ids) ? ids : [])}
          style={{ minWidth: 280, flex: 1 }}
        />
        {canEdit && (
          <Button
            type="primary"
            disabled={picked === null}
            loading={save.isPending}
            onClick={() => save.mutateAsync(roleIds).catch(() => undefined)}
          >
            {t('system.twoFactorRoles.save')}
          </Button>
        )}
      </Flex>
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Card>
  );
}
