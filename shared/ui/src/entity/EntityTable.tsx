import type { ReactNode } from 'react';
import { Button, Empty, Flex, Popconfirm, Result, Space, Switch, Table, Tooltip } from 'antd';
import type { TableProps } from 'antd';
import { DeleteOutlined, EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { ListFilter } from '../fields/ListFilter';
import { BooleanFilter, fieldKind } from '../fields/registry';
import type { EntityRow } from '../fields/types';
import { ColumnChooser } from './ColumnChooser';
import { SearchBox } from './SearchBox';
import type { EntityList } from './useEntityList';

export interface EntityTableProps extends EntityList {
  /** Shows the edit button (with `<entity>.update`) and is called with its row. */
  onEdit?: (row: EntityRow) => void;
  /** More buttons per row, after edit and delete. */
  extraActions?: (row: EntityRow) => ReactNode;
  /** More controls at the end of the search bar (a record page's "add" button, say). */
  extra?: ReactNode;
}

/**
 * The widest a cell of a column without a width rule grows (a screen's own column): about 30 Arabic
 * letters of a name, or two or three name tags. Derived columns carry their type's (`COLUMN_WIDTHS`).
 */
const CELL_MAX = '16rem';

/**
 * Search box, filters, column chooser and the server-side paged, sorted table of one list, with
 * the row actions of the pattern (edit, delete, status and ban switches) as the user's permissions
 * allow. The columns share out the box's width by their type's width rule (`COLUMN_WIDTHS`); a
 * table whose columns do not fit even at their minimums (a phone) scrolls inside its own box, the
 * actions column kept at the reading end.
 *
 * @example
 * const list = useEntityList(courts);
 * return <EntityTable {...list} onEdit={(row) => setEditing(row)} />;
 */
export function EntityTable(props: EntityTableProps) {
  const { entity, text, query, update, clearFilters, filterKeys, list, toggle, remove, shown } = props;
  const { columns, visible, setVisible, filtered, allowed, refresh, onEdit, extraActions, extra } = props;
  const { t } = text;

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
      // However long a value, its column stays within its type's cap (`COLUMN_WIDTHS`): names
      // and tags wrap to another line, free text ends in an ellipsis (the whole of it in a
      // tooltip). Without it, one row with three long names widened its column for the whole page
      // and pushed the others out of view.
      const min = column.fit?.min ?? 0;
      return (
        <div
          style={{
            maxInlineSize: column.fit?.max ?? CELL_MAX,
            overflowWrap: 'break-word',
            // A column that gives way: its content asks for no more than the minimum when the
            // table is squeezed (a one-line ellipsis would otherwise hold its whole width), and
            // takes what the table gives it up to the cap.
            ...(min > 0
              ? { display: 'grid', gridTemplateColumns: 'minmax(0, auto)', minInlineSize: min }
              : {}),
          }}
        >
          {column.render(row)}
        </div>
      );
    },
  }));

  const canUpdate = Boolean(onEdit) && allowed('update');
  const canDelete = allowed('delete');
  if (canUpdate || canDelete || extraActions)
    tableColumns.push({
      key: 'actions',
      title: t('table.actions', { ns: 'ui' }),
      // Logical end: the left edge in Arabic, the right in English, kept in view while scrolling.
      // As wide as its buttons: a fixed width wasted the room of a column on short lists of them.
      fixed: 'end',
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
                  onClick={() => onEdit?.(row)}
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

  const onTableChange: TableProps<EntityRow>['onChange'] = (pagination, _filters, sorter, change) => {
    if (change.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      update({
        sort:
          s?.order && s.columnKey
            ? `${String(s.columnKey)}:${s.order === 'descend' ? 'desc' : 'asc'}`
            : undefined,
      });
    } else if (change.action === 'paginate') {
      if (pagination.pageSize && pagination.pageSize !== query.pageSize)
        update({ pageSize: pagination.pageSize });
      else update({ page: pagination.current ?? 1 });
    }
  };

  const filterControls = filterKeys.map((key) => {
    const value = query.filters[key];
    const onChange = (v: string | undefined) => update({ filters: { [key]: v } });
    const field = entity.fields[key];
    const declared = entity.listFilters?.[key];
    if (declared) {
      const label = t(`${entity.name}.filters.${key}`, { ns: 'entities' });
      return <ListFilter key={key} filter={declared} label={label} value={value} onChange={onChange} />;
    }
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

  return (
    // `contain: inline-size`: however wide the table's content, this box takes the width it is
    // given and the table scrolls inside it, so a wide list never widens the page.
    <div className="mizan-entity-table" style={{ minInlineSize: 0, contain: 'inline-size' }}>
      <Flex wrap gap={8} align="center" style={{ marginBlockEnd: 12 }}>
        <SearchBox
          value={query.q}
          label={t('table.search', { ns: 'ui', title: text.title })}
          onSearch={(q) => update({ q: q || undefined })}
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
        <ColumnChooser columns={columns} visible={visible} onChange={setVisible} />
        {extra}
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
          // The columns share out the box's width: each as wide as its content up to its cap,
          // squeezed (wrapping) down to its minimum when they do not all fit; only when even
          // the minimums are wider than the box (a phone) does the table scroll sideways.
          scroll={{ x: true }}
          tableLayout="auto"
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
    </div>
  );
}
