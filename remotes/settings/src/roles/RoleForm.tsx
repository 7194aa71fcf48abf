import type { EntityFormRenderProps } from '@mizan/ui';
import { Alert, Button, Form, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionMatrix } from './PermissionMatrix';
import { usePermissionCatalog } from './usePermissionCatalog';

/** The form control of `permissionIds`: the whole catalogue as a matrix (value/onChange from Form.Item). */
export function PermissionsField({
  value,
  onChange,
}: {
  value?: number[];
  onChange?: (ids: number[]) => void;
}) {
  const { t } = useTranslation('settings');
  const catalog = usePermissionCatalog();
  if (catalog.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (catalog.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('permissions.matrix.loadError')}
        action={<Button onClick={() => void catalog.refetch()}>{t('actions.retry')}</Button>}
      />
    );
  return <PermissionMatrix permissions={catalog.data} value={value ?? []} onChange={onChange} />;
}

/**
 * The role form: the derived inputs (name, description, status), then the permission matrix in
 * place of the generic multi-select of `permissionIds`.
 */
export function RoleForm({ entity, items }: EntityFormRenderProps) {
  const { t } = useTranslation(['entities', 'settings']);
  const { permissionIds: _generic, ...rest } = items;
  return (
    <>
      {Object.values(rest)}
      <Form.Item
        name="permissionIds"
        label={t(`entities:${entity.name}.fields.permissionIds`)}
        extra={t('settings:roles.permissionsHint')}
      >
        <PermissionsField />
      </Form.Item>
    </>
  );
}
