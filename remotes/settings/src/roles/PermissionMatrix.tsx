import { useMemo, useSyncExternalStore } from 'react';
import { Checkbox, Empty, Flex, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  buildMatrix,
  columnState,
  matrixState,
  rowState,
  toggleAll,
  toggleCell,
  toggleColumn,
  toggleRow,
  type MatrixRow,
  type PermissionRow,
  type TriState,
} from './permissionMatrix';

export interface PermissionMatrixProps {
  permissions: readonly PermissionRow[];
  /** Selected permission ids (the role's `permissionIds`). */
  value?: readonly number[];
  onChange?: (ids: number[]) => void;
  disabled?: boolean;
  /** Force the stacked phone layout (default: on screens narrower than 768 px). */
  stacked?: boolean;
}

const NARROW = '(max-width: 767.98px)';

/** Whether the screen is phone-narrow (antd's `md` breakpoint), following rotation and resizing. */
function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const query = window.matchMedia?.(NARROW);
      query?.addEventListener('change', notify);
      return () => query?.removeEventListener('change', notify);
    },
    () => window.matchMedia?.(NARROW).matches === true,
    () => false,
  );
}

const checkProps = (s: TriState) => ({ checked: s === 'all', indeterminate: s === 'some' });

/** The label of a permission group: an entity's title, or an area of the settings namespace. */
export function useGroupLabel() {
  const { t, i18n } = useTranslation(['settings', 'entities']);
  return (group: string) =>
    i18n.exists(`entities:${group}.title`)
      ? t(`entities:${group}.title`)
      : t(`settings:permissions.groups.${group}`, group);
}

/**
 * Role permissions as a grid: one row per entity or area, one column per action. Cells, rows,
 * columns and the whole grid toggle; the value is the list of permission ids (antd Form control).
 */
export function PermissionMatrix({
  permissions,
  value = [],
  onChange,
  disabled,
  stacked,
}: PermissionMatrixProps) {
  const { t } = useTranslation('settings');
  const narrow = useNarrowScreen();
  const phone = stacked ?? narrow;
  const groupLabel = useGroupLabel();
  const matrix = useMemo(() => buildMatrix(permissions), [permissions]);
  const selected = useMemo(() => new Set(value), [value]);
  const actionLabel = (action: string) => t(`permissions.actions.${action}`, action);
  const emit = (ids: number[]) => onChange?.(ids);

  const columns: TableColumnsType<MatrixRow> = [
    {
      key: 'group',
      fixed: 'start',
      width: 180,
      title: (
        <Flex align="center" gap={8}>
          <Checkbox
            {...checkProps(matrixState(matrix, selected))}
            disabled={disabled}
            aria-label={t('permissions.matrix.selectAll')}
            onChange={() => emit(toggleAll(matrix, value))}
          />
          <span>{t('permissions.matrix.group')}</span>
        </Flex>
      ),
      render: (_, row) => (
        <Checkbox
          {...checkProps(rowState(row, selected))}
          disabled={disabled}
          aria-label={t('permissions.matrix.selectRow', { group: groupLabel(row.group) })}
          onChange={() => emit(toggleRow(value, row))}
        >
          {groupLabel(row.group)}
        </Checkbox>
      ),
    },
    ...matrix.actions.map((action) => ({
      key: action,
      align: 'center' as const,
      // Narrow columns with the label above the checkbox: the matrix must fit the form drawer.
      width: 84,
      title: (
        <Flex vertical align="center" gap={4}>
          <span style={{ whiteSpace: 'normal', lineHeight: 1.2 }}>{actionLabel(action)}</span>
          <Checkbox
            {...checkProps(columnState(matrix, action, selected))}
            disabled={disabled}
            aria-label={t('permissions.matrix.selectColumn', { action: actionLabel(action) })}
            onChange={() => emit(toggleColumn(matrix, value, action))}
          />
        </Flex>
      ),
      render: (_: unknown, row: MatrixRow) =>
        row.cells[action] === undefined ? null : (
          <Checkbox
            checked={selected.has(row.cells[action])}
            disabled={disabled}
            aria-label={t('permissions.matrix.cell', {
              group: groupLabel(row.group),
              action: actionLabel(action),
            })}
            onChange={() => emit(toggleCell(matrix, value, row, action))}
          />
        ),
    })),
  ];

  if (matrix.rows.length === 0) return <Empty description={t('permissions.matrix.empty')} />;
  return (
    <>
      <Typography.Paragraph type="secondary">
        {t('permissions.matrix.summary', { count: value.length, total: permissions.length })}
      </Typography.Paragraph>
      {phone ? (
        // On a phone a grid of eight action columns cannot fit: one block per group, its actions
        // wrapping under it, so nothing scrolls sideways.
        <Flex vertical gap={12} data-testid="permission-matrix-stacked">
          <Checkbox
            {...checkProps(matrixState(matrix, selected))}
            disabled={disabled}
            onChange={() => emit(toggleAll(matrix, value))}
          >
            {t('permissions.matrix.selectAll')}
          </Checkbox>
          {matrix.rows.map((row) => (
            <fieldset
              key={row.group}
              style={{
                border: '1px solid rgba(128,128,128,0.3)',
                borderRadius: 8,
                padding: 12,
                margin: 0,
                minWidth: 0,
              }}
            >
              <legend
                style={{ padding: '0 4px', width: 'auto', marginBottom: 0, fontSize: 'inherit', border: 0 }}
              >
                <Checkbox
                  {...checkProps(rowState(row, selected))}
                  disabled={disabled}
                  aria-label={t('permissions.matrix.selectRow', { group: groupLabel(row.group) })}
                  onChange={() => emit(toggleRow(value, row))}
                >
                  <Typography.Text strong>{groupLabel(row.group)}</Typography.Text>
                </Checkbox>
              </legend>
              <Flex wrap gap="8px 16px">
                {matrix.actions
                  .filter((action) => row.cells[action] !== undefined)
                  .map((action) => (
                    <Checkbox
                      key={action}
                      checked={selected.has(row.cells[action]!)}
                      disabled={disabled}
                      aria-label={t('permissions.matrix.cell', {
                        group: groupLabel(row.group),
                        action: actionLabel(action),
                      })}
                      onChange={() => emit(toggleCell(matrix, value, row, action))}
                    >
                      {actionLabel(action)}
                    </Checkbox>
                  ))}
              </Flex>
            </fieldset>
          ))}
        </Flex>
      ) : (
        <Table<MatrixRow>
          rowKey="group"
          size="small"
          bordered
          pagination={false}
          columns={columns}
          dataSource={matrix.rows}
          scroll={{ x: 'max-content', y: 480 }}
        />
      )}
    </>
  );
}
