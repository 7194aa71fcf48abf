import { EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { permissionKey, permissions } from '@mizan/contracts';
import { entityApi, entityKeys, notify, useAuth, useEntityChannel } from '@mizan/sdk';
import { matchesFolded, textCount } from '@mizan/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Modal, Result, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../common/validation';
import { useGroupLabel } from '../roles/PermissionMatrix';
import { buildMatrix, type PermissionRow } from '../roles/permissionMatrix';
import { usePermissionCatalog } from '../roles/usePermissionCatalog';

interface GroupRow {
  group: string;
  items: PermissionRow[];
}

const descriptionMax = permissions.fields.description.max ?? 255;

/** Edits the one free part of a permission: its description (keys and groups are seeded). */
function DescriptionEditor({ row, onClose }: { row: PermissionRow | null; onClose: () => void }) {
  const { t } = useTranslation(['settings', 'entities']);
  const [form] = Form.useForm<{ description: string }>();
  const client = useQueryClient();
  const label = t('entities:permissions.fields.description');
  const save = useMutation({
    mutationFn: (description: string) =>
      entityApi.update(permissions, row!.id, {
        key: row!.key,
        group: row!.group,
        description: description.trim() || null,
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: entityKeys.all(permissions.name) });
      notify.success(t('settings:permissions.list.saved'));
      onClose();
    },
  });
  return (
    <Modal
      open={row !== null}
      title={row ? t('settings:permissions.list.editTitle', { key: row.key }) : undefined}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('settings:actions.save')}
      cancelText={t('settings:actions.cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ description: row?.description ?? '' }}
        onFinish={({ description }) => save.mutate(description ?? '')}
      >
        <Form.Item name="description" label={label} rules={[rulesFor(t, label).max(descriptionMax)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} {...textCount(descriptionMax)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The permission catalogue, read-mostly: one row per entity or area with its actions, searchable;
 * descriptions are editable with `permissions.update`. Permissions themselves come from the
 * definitions, so there is no create or delete here.
 */
export function PermissionsPage() {
  const { t } = useTranslation(['settings', 'entities']);
  const { can } = useAuth();
  const groupLabel = useGroupLabel();
  const catalog = usePermissionCatalog();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<PermissionRow | null>(null);
  const canEdit = can(permissionKey(permissions, 'update'));
  useEntityChannel(permissions.name);

  const groups = useMemo<GroupRow[]>(() => {
    const rows = catalog.data ?? [];
    // Folded as every search is: "صلاحيه" finds "صلاحية", "ادارة" finds "إدارة".
    const q = search.trim();
    return buildMatrix(rows)
      .rows.map((r) => ({ group: r.group, items: rows.filter((p) => Object.values(r.cells).includes(p.id)) }))
      .map((g) => ({
        ...g,
        items:
          q && !matchesFolded(groupLabel(g.group), q)
            ? g.items.filter((p) => matchesFolded(`${p.key} ${p.description ?? ''}`, q))
            : g.items,
      }))
      .filter((g) => g.items.length > 0);
  }, [catalog.data, search, groupLabel]);

  const action = (key: string) => key.slice(key.lastIndexOf('.') + 1);
  const columns: TableColumnsType<GroupRow> = [
    {
      key: 'group',
      title: t('entities:permissions.fields.group'),
      width: 220,
      render: (_, g) => <strong>{groupLabel(g.group)}</strong>,
    },
    {
      key: 'actions',
      title: t('settings:permissions.list.actions'),
      render: (_, g) => (
        <Flex wrap gap={4}>
          {g.items.map((p) => (
            <Tooltip key={p.id} title={p.description || p.key}>
              <Tag>{t(`settings:permissions.actions.${action(p.key)}`, action(p.key))}</Tag>
            </Tooltip>
          ))}
        </Flex>
      ),
    },
  ];

  const expanded = (g: GroupRow) => (
    <Table<PermissionRow>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={g.items}
      columns={[
        {
          key: 'action',
          title: t('settings:permissions.list.action'),
          width: 160,
          render: (_, p) => t(`settings:permissions.actions.${action(p.key)}`, action(p.key)),
        },
        {
          key: 'key',
          title: t('entities:permissions.fields.key'),
          render: (_, p) => (
            <Typography.Text code dir="ltr">
              {p.key}
            </Typography.Text>
          ),
        },
        {
          key: 'description',
          title: t('entities:permissions.fields.description'),
          render: (_, p) => p.description || <Typography.Text type="secondary">—</Typography.Text>,
        },
        ...(canEdit
          ? [
              {
                key: 'edit',
                width: 60,
                render: (_: unknown, p: PermissionRow) => (
                  <Button
                    type="text"
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={t('settings:permissions.list.editTitle', { key: p.key })}
                    onClick={() => setEditing(p)}
                  />
                ),
              },
            ]
          : []),
      ]}
    />
  );

  if (catalog.isError)
    return (
      <Result
        status="error"
        title={t('settings:permissions.matrix.loadError')}
        extra={<Button onClick={() => void catalog.refetch()}>{t('settings:actions.retry')}</Button>}
      />
    );

  return (
    <Card>
      <Flex wrap gap="middle" align="center" justify="space-between" style={{ marginBottom: 16 }}>
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('entities:permissions.title')}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('settings:permissions.list.summary', {
              count: catalog.data?.length ?? 0,
              groups: groups.length,
            })}
          </Typography.Text>
        </div>
        <Flex gap={8} style={{ minWidth: 0, maxWidth: '100%' }}>
          <Input.Search
            allowClear
            aria-label={t('settings:permissions.list.search')}
            placeholder={t('settings:permissions.list.search')}
            onChange={(e) => setSearch(e.target.value)}
            // Shrinks on a phone rather than pushing the card wider than the screen.
            style={{ width: 260, maxWidth: '100%', minWidth: 0 }}
          />
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('settings:actions.refresh')}
            loading={catalog.isFetching}
            onClick={() => void catalog.refetch()}
          />
        </Flex>
      </Flex>
      <Table<GroupRow>
        rowKey="group"
        loading={catalog.isPending}
        columns={columns}
        dataSource={groups}
        expandable={{ expandedRowRender: expanded }}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      <DescriptionEditor row={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
