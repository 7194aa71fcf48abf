import { useMemo, useState, type ReactNode } from 'react';
import {
  Button,
  Empty,
  Flex,
  Input,
  Popconfirm,
  Result,
  Space,
  Switch,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import type { TableProps } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { permissionKey, type Entity, type Fields } from '@mizan/contracts';
import { entityApi, entityKeys, notify, useCan, useEntityChannel } from '../data';
import { ExportButton } from '../export/ExportButton';
import { EntityImport } from '../import/EntityImport';
import { fieldKind, BooleanFilter } from '../fields/registry';
import type { EntityRow } from '../fields/types';
import { ColumnChooser } from './ColumnChooser';
import { deriveColumns, type EntityColumn } from './columns';
import { EntityFormDrawer, type EntityFormRenderProps } from './EntityFormDrawer';
import type { FormMode } from './formValues';
import { useEntityText } from './labels';
import { useColumnChoice } from './useColumnChoice';
import { toParams, useListState } from './useListState';

export interface EntityPageProps {
  /** The definition from `@mizan/contracts` (`registry`). */
  entity: Entity<Fields>;
  /** Adjust the derived columns (reorder, drop, add computed ones); they also drive the export. */
  columns?: (derived: EntityColumn[]) => EntityColumn[];
  /** Field names of the form (default: every field), or a function of the derived list. */
  formFields?: string[] | ((derived: string[], mode: FormMode) => string[]);
  /** More buttons per row, after edit and delete. */
  extraActions?: (row: EntityRow) => ReactNode;
  /** More buttons in the toolbar, before export. */
  toolbar?: ReactNode;
  /** Lay out or replace the form; the derived inputs come ready in `items`. */
  renderForm?: (props: EntityFormRenderProps) => ReactNode;
}

type DrawerState = { mode: FormMode; row?: EntityRow } | null;

/**
 * The generic screen of one entity, derived from its definition: title, search, filters, column
 * chooser, server-side paged/sorted/filtered table (state in the URL), create/edit drawer,
 * delete, status and ban switches, export and import, all permission-aware, updated in real time.
 *
 * @example <Route path="countries" element={<EntityPage entity={countries} />} />
 */
export function EntityPage({
  entity,
  columns: adjustColumns,
  formFields,
  extraActions,
  toolbar,
  renderForm,
}: EntityPageProps) {
  const text = useEntityText(entity);
  const { t } = text;
  const can = useCan();
  const queryClient = useQueryClient();
  const api = useMemo(() => entityApi(entity), [entity]);
  const { query, update, clearFilters, filterKeys } = useListState(entity);
  const params = toParams(query);
  const [drawer, setDrawer] = useState<DrawerState>(null);
  const allowed = (action: Parameters<typeof permissionKey>[1]) => can(permissionKey(entity, action));

  useEntityChannel(entity.name);

  const list = useQuery({
    queryKey: entityKeys.list(entity.name, params),
    queryFn: ({ signal }) => api.list(params, { signal }),
    placeholderData: keepPreviousData,
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) });
  const toggle = useMutation({
    mutationFn: ({ kind, row }: { kind: 'status' | 'baned'; row: EntityRow }) =>
      kind === 'status' ? api.setStatus(row.id, !row.status) : api.setBaned(row.id, !row.baned),
    // Wait for the refetch so the switch never flips back for a moment.
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (row: EntityRow) => api.remove(row.id),
    onSuccess: () => notify.success(t('delete.done', { ns: 'ui' })),
    onSettled: refresh,
  });

  const derived = useMemo(() => deriveColumns(entity, text), [entity, text]);
  const available = adjustColumns ? adjustColumns(derived) : derived;
  const { visible, setVisible } = useColumnChoice(
    entity.name,
    available.filter((c) => c.defaultVisible).map((c) => c.key),
  );
  const shown = available.filter((c) => visible.includes(c.key));

  const sortField = query.sort?.split(':')[0];
  const sortOrder = query.sort?.endsWith(':desc') ? 'descend' : 'ascend';
  const pending = (kind: 'status' | 'baned', row: EntityRow) =>
    toggle.isPending && toggle.variables?.kind === kind && toggle.variables.row.id === row.id;

  const tableColumns: NonNullable<TableProps<EntityRow>['columns']> = shown.map((column) => ({
    key: column.key,
    dataIndex: column.key,
    title: column.title,
    width: column.width,
    sorter: column.sortable,
    sortOrder: sortField === column.key ? sortOrder : null,
    ellipsis: column.key !== 'status' && column.key !== 'baned',
    render: (_: unknown, row: EntityRow) => {
      if (column.key === 'status' || column.key === 'baned') {
        const kind = column.key;
        return (
          <Switch
            size="small"
            checked={Boolean(row[kind])}
            loading={pending(kind, row)}
            disabled={!allowed(kind)}
            aria-label={t(`switch.${kind}`, { ns: 'ui', name: String(row[entity.titleField] ?? row.id) })}
            onChange={() => toggle.mutate({ kind, row })}
          />
        );
      }
      return column.render(row);
    },
  }));

  const canUpdate = allowed('update');
  const canDelete = allowed('delete');
  if (canUpdate || canDelete || extraActions)
    tableColumns.push({
      key: 'actions',
      title: t('table.actions', { ns: 'ui' }),
      fixed: 'end',
      width: 120,
      render: (_: unknown, row: EntityRow) => {
        const name = String(row[entity.titleField] ?? row.id);
        return (
          <Space size={4}>
            {canUpdate && (
              <Tooltip title={t('actions.edit', { ns: 'ui' })}>
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('actions.editNamed', { ns: 'ui', name })}
                  onClick={() => setDrawer({ mode: 'update', row })}
                />
              </Tooltip>
            )}
            {canDelete && (
              <Popconfirm
                title={t('delete.title', { ns: 'ui', name: text.singular })}
                description={t('delete.confirm', { ns: 'ui', name })}
                okText={t('actions.delete', { ns: 'ui' })}
                cancelText={t('actions.cancel', { ns: 'ui' })}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutateAsync(row).catch(() => undefined)}
              >
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('actions.deleteNamed', { ns: 'ui', name })}
                />
              </Popconfirm>
            )}
            {extraActions?.(row)}
          </Space>
        );
      },
    });

  const onTableChange: TableProps<EntityRow>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      update({
        sort:
          s?.order && s.columnKey
            ? `${String(s.columnKey)}:${s.order === 'descend' ? 'desc' : 'asc'}`
            : undefined,
      });
    } else if (extra.action === 'paginate') {
      if (pagination.pageSize && pagination.pageSize !== query.pageSize)
        update({ pageSize: pagination.pageSize });
      else update({ page: pagination.current ?? 1 });
    }
  };

  const filterControls = filterKeys.map((key) => {
    const value = query.filters[key];
    const onChange = (v: string | undefined) => update({ filters: { [key]: v } });
    const field = entity.fields[key];
    if (!field) {
      const kind = key as 'status' | 'baned';
      return (
        <BooleanFilter
          key={key}
          label={text.label(kind)}
          yes={t(`values.${kind}.on`, { ns: 'ui' })}
          no={t(`values.${kind}.off`, { ns: 'ui' })}
          value={value}
          onChange={onChange}
        />
      );
    }
    return <span key={key}>{fieldKind(field).filter(text.context(key), { value, onChange })}</span>;
  });
  const filtered = Boolean(query.q) || Object.keys(query.filters).length > 0;

  const exportParams = Object.fromEntries(
    Object.entries(params).filter(([k]) => k !== 'page' && k !== 'pageSize'),
  );

  return (
    <div className="mizan-entity-page" style={{ minInlineSize: 0 }}>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBlockEnd: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {text.title}
        </Typography.Title>
        <Space wrap>
          {toolbar}
          {entity.importable && allowed('import') && <EntityImport entity={entity} onImported={refresh} />}
          {allowed('export') && (
            <ExportButton<EntityRow>
              title={text.title}
              fetchRows={(onProgress, signal) => api.exportAll(exportParams, { onProgress, signal })}
              columns={shown.map((c) => ({ title: c.title, value: c.exportValue }))}
              disabled={!list.data?.total}
            />
          )}
          {allowed('create') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ mode: 'create' })}>
              {t('actions.createNamed', { ns: 'ui', name: text.singular })}
            </Button>
          )}
        </Space>
      </Flex>

      <Flex wrap gap={8} align="center" style={{ marginBlockEnd: 12 }}>
        <Input.Search
          key={query.q ?? ''}
          defaultValue={query.q}
          placeholder={t('table.search', { ns: 'ui', title: text.title })}
          aria-label={t('table.search', { ns: 'ui', title: text.title })}
          allowClear
          enterButton
          onSearch={(q) => update({ q: q || undefined })}
          style={{ inlineSize: 280, maxInlineSize: '100%' }}
        />
        {filterControls}
        {filtered && (
          <Button type="link" onClick={clearFilters}>
            {t('table.clearFilters', { ns: 'ui' })}
          </Button>
        )}
        <span style={{ marginInlineStart: 'auto' }} />
        <Tooltip title={t('actions.refresh', { ns: 'ui' })}>
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('actions.refresh', { ns: 'ui' })}
            onClick={() => void refresh()}
            loading={list.isFetching}
          />
        </Tooltip>
        <ColumnChooser columns={available} visible={visible} onChange={setVisible} />
      </Flex>

      {list.isError && !list.data ? (
        <Result
          status="error"
          title={t('states.loadFailed', { ns: 'ui', title: text.title })}
          subTitle={list.error instanceof Error ? list.error.message : undefined}
          extra={<Button onClick={() => void list.refetch()}>{t('actions.retry', { ns: 'ui' })}</Button>}
        />
      ) : (
        <Table<EntityRow>
          rowKey="id"
          size="middle"
          columns={tableColumns}
          dataSource={list.data?.items ?? []}
          loading={list.isLoading || (list.isFetching && list.isPlaceholderData)}
          onChange={onTableChange}
          // Narrow screens scroll the table sideways instead of squeezing the columns.
          scroll={{ x: 'max-content' }}
          pagination={{
            current: query.page,
            pageSize: query.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => t('table.total', { ns: 'ui', count: total }),
          }}
          locale={{
            emptyText: (
              <Empty
                description={
                  filtered
                    ? t('states.noMatches', { ns: 'ui' })
                    : t('states.empty', { ns: 'ui', title: text.title })
                }
              />
            ),
            triggerAsc: t('table.sortAsc', { ns: 'ui' }),
            triggerDesc: t('table.sortDesc', { ns: 'ui' }),
            cancelSort: t('table.sortCancel', { ns: 'ui' }),
          }}
        />
      )}

      <EntityFormDrawer
        entity={entity}
        text={text}
        open={drawer !== null}
        mode={drawer?.mode ?? 'create'}
        row={drawer?.row}
        fields={
          typeof formFields === 'function'
            ? formFields(Object.keys(entity.fields), drawer?.mode ?? 'create')
            : formFields
        }
        renderForm={renderForm}
        save={async (mode, body) => {
          if (mode === 'create') await api.create(body);
          else if (drawer?.row) await api.update(drawer.row.id, body);
          await refresh();
        }}
        onClose={() => setDrawer(null)}
      />
    </div>
  );
}
