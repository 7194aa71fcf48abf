import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Collapse, Empty, Flex, Popconfirm, Skeleton, Space, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import {
  MAX_PAGE_SIZE,
  attachmentGroups,
  attachments,
  displayKey,
  permissionKey,
  recordTitle,
} from '@mizan/contracts';
import { entityApi, entityKeys, notify, useAuth, useEntityChannel } from '@mizan/sdk';
import {
  DualDate,
  EntityFormDrawer,
  FilesContentSearch,
  RecordFiles,
  formatNumber,
  type EntityRow,
  type FormMode,
} from '@mizan/ui';
import { ShareAttachment } from './ShareAttachment';

export interface LawsuitAttachmentsProps {
  /** The lawsuit as the record page read it. */
  lawsuit: EntityRow;
  /** Its title (file number), for the pre-filled reference of a new attachment. */
  title: string;
}

type DrawerState = { mode: FormMode; row?: EntityRow; groupId?: number } | null;

/** A group as this screen shows it: its id, name in the interface language and order. */
interface Group {
  id: number;
  name: string;
}

const GROUP_PARAMS = { page: 1, pageSize: MAX_PAGE_SIZE, sort: 'order:asc' };

/** The group's name in the interface language: its English name in English when it has one. */
export function groupName(row: { id: number; name?: unknown; nameEn?: unknown }, lng: string): string {
  const name = String(row.name ?? row.id);
  if (lng.startsWith('en') && typeof row.nameEn === 'string' && row.nameEn.trim()) return row.nameEn;
  return recordTitle(attachmentGroups.name, name, lng);
}

/**
 * A lawsuit's attachments filed by group, the groups in their own order (an attachment of a group
 * not loaded goes under "other"): per attachment its title, hearing, notes and files with inline
 * preview, download and delete, and sharing with the clients; each group's panel adds attachments of its own (several files at once,
 * each with its upload progress), and an attachment is edited or deleted in place.
 */
export function LawsuitAttachments({ lawsuit, title }: LawsuitAttachmentsProps) {
  const { t, i18n } = useTranslation('legal');
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const { can } = useAuth();
  const queryClient = useQueryClient();
  const [drawer, setDrawer] = useState<DrawerState>(null);
  // The groups unfolded: at first those holding attachments, then as the user folds them.
  const [unfolded, setUnfolded] = useState<string[] | null>(null);
  const [, setSearchParams] = useSearchParams();
  useEntityChannel(attachments.name);
  useEntityChannel(attachmentGroups.name);

  const listParams = { page: 1, pageSize: MAX_PAGE_SIZE, sort: 'createdAt:asc', lawsuitId: lawsuit.id };
  const rows = useQuery({
    queryKey: entityKeys.list(attachments.name, listParams),
    queryFn: ({ signal }) => entityApi.list(attachments, listParams, { signal, silent: true }),
  });
  const groupRows = useQuery({
    queryKey: entityKeys.list(attachmentGroups.name, GROUP_PARAMS),
    queryFn: ({ signal }) => entityApi.list(attachmentGroups, GROUP_PARAMS, { signal, silent: true }),
  });
  const remove = useMutation({
    mutationFn: (row: EntityRow) =>
      entityApi.remove(
        attachments,
        row.id,
        undefined,
        typeof row.updatedAt === 'string' ? row.updatedAt : undefined,
      ),
    onSuccess: () => notify.success(t('delete.done', { ns: 'ui' })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: entityKeys.all(attachments.name) }),
  });

  const allowed = (action: 'create' | 'update' | 'delete') => can(permissionKey(attachments, action));
  // Sharing is a message to the clients: permitted like the communications tab's one-off message.
  const canShare = can(permissionKey('customers', 'update'));
  const groups: Group[] = useMemo(
    () => (groupRows.data?.items ?? []).map((row) => ({ id: row.id, name: groupName(row, lng) })),
    [groupRows.data, lng],
  );
  const defaults = useMemo(() => {
    const lawsuitLabel = { id: lawsuit.id, name: title };
    const group = groups.find((g) => g.id === drawer?.groupId);
    return {
      lawsuitId: lawsuit.id,
      [displayKey('lawsuitId', { type: 'ref' })]: lawsuitLabel,
      ...(group ? { groupId: group.id, [displayKey('groupId', { type: 'ref' })]: group } : {}),
    };
  }, [lawsuit.id, title, groups, drawer?.groupId]);

  if (rows.isError || groupRows.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('attachments.loadFailed')}
        action={
          <Button size="small" onClick={() => void Promise.all([rows.refetch(), groupRows.refetch()])}>
            {t('actions.retry', { ns: 'ui' })}
          </Button>
        }
      />
    );
  if (!rows.data || !groupRows.data) return <Skeleton active paragraph={{ rows: 4 }} />;

  const items = rows.data.items;
  const known = new Set(groups.map((g) => g.id));
  const sections: { key: string; group: Group | null; rows: EntityRow[] }[] = groups.map((group) => ({
    key: String(group.id),
    group,
    rows: items.filter((row) => row.groupId === group.id),
  }));
  const strays = items.filter((row) => !known.has(row.groupId as number));
  if (strays.length > 0) sections.push({ key: 'other', group: null, rows: strays });
  const activeKeys = unfolded ?? sections.filter((s) => s.rows.length > 0).map((s) => s.key);

  // In a group's panel, not its header (a button in a button); named with the group, its shown
  // text first.
  const addButton = (group: Group | null) =>
    allowed('create') && (
      <Button
        size="small"
        icon={<PlusOutlined />}
        aria-label={group ? t('attachments.addTo', { group: group.name }) : undefined}
        onClick={() => setDrawer({ mode: 'create', groupId: group?.id })}
      >
        {t('attachments.add')}
      </Button>
    );

  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text type="secondary">
          {t('attachments.total', { n: formatNumber(items.length, lng) })}
        </Typography.Text>
        {groups.length === 0 && addButton(null)}
      </Flex>
      {items.length > 0 && (
        <FilesContentSearch
          entity={attachments.name}
          ownerIds={items.map((row) => row.id)}
          onOpen={(hit) => {
            // The hit's attachment unfolded, its file previewed at the page found.
            const owner = items.find((row) => row.id === hit.file.ownerId);
            const section = sections.find((s) => s.rows.some((row) => row.id === owner?.id));
            if (section && !activeKeys.includes(section.key)) setUnfolded([...activeKeys, section.key]);
            setSearchParams(
              (params) => {
                params.set('file', String(hit.id));
                params.set('page', String(hit.file.page));
                return params;
              },
              { replace: true },
            );
          }}
        />
      )}
      {sections.length === 0 ? (
        <Empty description={t('attachments.noGroups')} />
      ) : (
        <Collapse
          activeKey={activeKeys}
          onChange={(keys) => setUnfolded(keys)}
          items={sections.map(({ key, group, rows: inGroup }) => ({
            key,
            label: (
              <Space>
                <span>{group ? group.name : t('attachments.otherGroup')}</span>
                <Badge count={inGroup.length} showZero color={inGroup.length ? 'blue' : 'gray'} />
              </Space>
            ),
            children: (
              <Flex vertical gap={8}>
                {allowed('create') && <Flex justify="end">{addButton(group)}</Flex>}
                {inGroup.length === 0 ? (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('attachments.emptyGroup')} />
                ) : (
                  <ul
                    aria-label={group ? group.name : t('attachments.otherGroup')}
                    style={{ listStyle: 'none', margin: 0, padding: 0 }}
                  >
                    {inGroup.map((row) => (
                      <li
                        key={row.id}
                        style={{ borderBlockEnd: '1px solid rgba(5, 5, 5, 0.06)', paddingBlock: 12 }}
                      >
                        <AttachmentItem
                          row={row}
                          lawsuitId={lawsuit.id}
                          canShare={canShare}
                          canUpdate={allowed('update')}
                          canDelete={allowed('delete')}
                          deleting={remove.isPending && remove.variables?.id === row.id}
                          onEdit={() => setDrawer({ mode: 'update', row })}
                          onDelete={() => remove.mutateAsync(row).catch(() => undefined)}
                        />
                      </li>
                    ))}
                  </ul>
                )}
              </Flex>
            ),
          }))}
        />
      )}
      <EntityFormDrawer
        entity={attachments}
        open={drawer !== null}
        mode={drawer?.mode ?? 'create'}
        row={drawer?.row}
        defaults={defaults}
        onClose={() => setDrawer(null)}
      />
    </Flex>
  );
}

interface AttachmentItemProps {
  row: EntityRow;
  lawsuitId: number;
  canShare: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
}

/**
 * One attachment: title, the hearing it concerns, notes, its files (preview, download, delete) and
 * actions (share with the clients, edit, delete).
 */
function AttachmentItem({
  row,
  lawsuitId,
  canShare,
  canUpdate,
  canDelete,
  deleting,
  onEdit,
  onDelete,
}: AttachmentItemProps) {
  const { t } = useTranslation('legal');
  const name = String(row.title ?? row.id);
  const session = row.session as { name?: unknown } | undefined;
  return (
    <Flex vertical gap={8}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Flex vertical style={{ minInlineSize: 0 }}>
          <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
            <bdi>{name}</bdi>
          </Typography.Text>
          {typeof session?.name === 'string' && (
            <Typography.Text type="secondary">
              {t('attachments.session')} <DualDate value={session.name} primaryOnly />
            </Typography.Text>
          )}
        </Flex>
        <Space size={4}>
          {canShare && Array.isArray(row.files) && row.files.length > 0 && (
            <ShareAttachment lawsuitId={lawsuitId} attachmentId={row.id} name={name} />
          )}
          {canUpdate && (
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              aria-label={t('actions.editNamed', { ns: 'ui', name })}
              onClick={onEdit}
            />
          )}
          {canDelete && (
            <Popconfirm
              title={t('delete.title', { ns: 'ui', name: t('attachments.singular', { ns: 'entities' }) })}
              description={t('delete.confirm', { ns: 'ui', name })}
              okText={t('actions.delete', { ns: 'ui' })}
              cancelText={t('actions.cancel', { ns: 'ui' })}
              okButtonProps={{ danger: true }}
              onConfirm={onDelete}
            >
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                loading={deleting}
                aria-label={t('actions.deleteNamed', { ns: 'ui', name })}
              />
            </Popconfirm>
          )}
        </Space>
      </Flex>
      {typeof row.notes === 'string' && row.notes && (
        <Typography.Paragraph type="secondary" style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
          <bdi>{row.notes}</bdi>
        </Typography.Paragraph>
      )}
      <RecordFiles entity={attachments} row={row} />
    </Flex>
  );
}
