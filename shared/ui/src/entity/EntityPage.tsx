import { useState, type ReactNode } from 'react';
import { Button, Flex, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { Entity, Fields } from '@mizan/contracts';
import { ExportButton } from '../export/ExportButton';
import { EntityImport } from '../import/EntityImport';
import type { EntityRow } from '../fields/types';
import type { EntityColumn } from './columns';
import type { EntityFormRenderProps } from './EntityForm';
import { EntityFormDrawer } from './EntityFormDrawer';
import { EntityTable } from './EntityTable';
import type { FormMode } from './formValues';
import { useEntityList, type EntityListOptions } from './useEntityList';

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
  /** Where the list keeps its state and which filters are fixed (see `useEntityList`). */
  list?: Omit<EntityListOptions, 'columns'>;
}

type DrawerState = { mode: FormMode; row?: EntityRow } | null;

/**
 * The generic screen of one entity, derived from its definition: title, search, filters, column
 * chooser, server-side paged/sorted/filtered table (state in the URL), create/edit drawer,
 * delete, status and ban switches, export and import, all permission-aware, updated in real time.
 * Composed of `useEntityList` + `<EntityTable>` and `<EntityFormDrawer>`; build other screens from
 * those pieces.
 *
 * @example <Route path="countries" element={<EntityPage entity={countries} />} />
 */
export function EntityPage({
  entity,
  columns,
  formFields,
  extraActions,
  toolbar,
  renderForm,
  list: listOptions,
}: EntityPageProps) {
  const list = useEntityList(entity, { ...listOptions, columns });
  const { text, allowed, api, exportParams, shown, refresh } = list;
  const { t } = text;
  const [drawer, setDrawer] = useState<DrawerState>(null);

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
              disabled={!list.list.data?.total}
            />
          )}
          {allowed('create') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ mode: 'create' })}>
              {t('actions.createNamed', { ns: 'ui', name: text.singular })}
            </Button>
          )}
        </Space>
      </Flex>

      <EntityTable
        {...list}
        onEdit={(row) => setDrawer({ mode: 'update', row })}
        extraActions={extraActions}
      />

      <EntityFormDrawer
        entity={entity}
        open={drawer !== null}
        mode={drawer?.mode ?? 'create'}
        row={drawer?.row}
        fields={
          typeof formFields === 'function'
            ? formFields(Object.keys(entity.fields), drawer?.mode ?? 'create')
            : formFields
        }
        renderForm={renderForm}
        onClose={() => setDrawer(null)}
      />
    </div>
  );
}
