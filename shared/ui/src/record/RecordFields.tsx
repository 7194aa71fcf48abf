import type { ReactNode } from 'react';
import { Button, Descriptions, Grid, Space, Tag, Typography } from 'antd';
import type { DescriptionsProps } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { findEntity, recordTitle, type Entity, type Fields, type StoredFile } from '@mizan/contracts';
import { useCan, notify } from '../data';
import { DualDate } from '../dates/DualDate';
import type { EntityText } from '../entity/labels';
import { downloadStoredFile } from '../fields/files';
import { refLabels } from '../fields/refs';
import { fieldKind } from '../fields/registry';
import type { EntityRow, FieldContext } from '../fields/types';
import { recordPath } from './paths';

/** The fields a record page shows: every readable one, in declaration order. */
export function readableFields(entity: Entity<Fields>): string[] {
  return Object.entries(entity.fields)
    .filter(([, field]) => !field.writeOnly && field.type !== 'password')
    .map(([name]) => name);
}

/** References as links to their record pages (plain names where the user may not open them). */
function RefLinks({ ctx, row }: { ctx: FieldContext; row: EntityRow }) {
  const can = useCan();
  if (ctx.field.type !== 'ref' && ctx.field.type !== 'refs') return null;
  const target = findEntity(ctx.field.entity);
  const linked = target && can(`${target.name}.view`);
  const labels = refLabels(row, ctx.name, ctx.field, ctx.lng);
  if (labels.length === 0) return null;
  return (
    <Space size={[8, 4]} wrap>
      {labels.map((ref) =>
        linked ? (
          <Link key={ref.id} to={recordPath(target, ref.id)}>
            <bdi>{ref.name}</bdi>
          </Link>
        ) : (
          <bdi key={ref.id}>{ref.name}</bdi>
        ),
      )}
    </Space>
  );
}

/** Stored files by name, each downloadable through the authorised route. */
function FileNames({ files, t }: { files: StoredFile[]; t: EntityText['t'] }) {
  if (files.length === 0) return null;
  return (
    <Space size={[8, 4]} wrap>
      {files.map((file) => (
        <Button
          key={file.id}
          type="link"
          size="small"
          icon={<DownloadOutlined />}
          style={{ paddingInline: 0 }}
          aria-label={t('files.download', { ns: 'ui', name: file.originalName })}
          onClick={() =>
            void downloadStoredFile(file).catch(() => notify.error(t('files.downloadFailed', { ns: 'ui' })))
          }
        >
          <bdi>{file.originalName}</bdi>
        </Button>
      ))}
    </Space>
  );
}

/** One field's value, read-only: the registry's list cell, with whole texts, linked references and files. */
export function FieldValue({ ctx, row }: { ctx: FieldContext; row: EntityRow }): ReactNode {
  const { field, name } = ctx;
  const value = row[name];
  if (field.type === 'ref' || field.type === 'refs') return <RefLinks ctx={ctx} row={row} />;
  if (field.type === 'files')
    return <FileNames files={(value as StoredFile[] | undefined) ?? []} t={ctx.t} />;
  if (value === null || value === undefined || value === '') return null;
  // Texts are read whole here, not cut to a table cell; codes keep the registry's left-to-right cell.
  if (field.type === 'text' || (field.type === 'string' && !field.code)) {
    const shown =
      name === ctx.entity.titleField ? recordTitle(ctx.entity.name, String(value), ctx.lng) : value;
    return (
      <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        <bdi>{String(shown)}</bdi>
      </Typography.Paragraph>
    );
  }
  return fieldKind(field).cell(value, row, ctx);
}

export interface RecordFieldsProps {
  entity: Entity<Fields>;
  text: EntityText;
  row: EntityRow;
  /** Field names to show, in order (unknown names are skipped). */
  fields: string[];
}

/**
 * Every readable field of a row in a description layout (one column on a phone, up to three on a
 * wide screen), then its status and dates. Values read as the list shows them.
 */
export function RecordFields({ entity, text, row, fields }: RecordFieldsProps) {
  // On a phone each label sits above its value: side by side, long Arabic labels squeeze the value.
  const narrow = Grid.useBreakpoint().sm === false;
  const items: NonNullable<DescriptionsProps['items']> = [];
  for (const name of fields) {
    if (!entity.fields[name]) continue;
    const ctx = text.context(name);
    items.push({
      key: name,
      label: ctx.label,
      children: <FieldValue ctx={ctx} row={row} />,
      span: ctx.field.type === 'text' || ctx.field.type === 'files' ? 'filled' : 1,
    });
  }
  if (entity.status)
    items.push({
      key: 'status',
      label: text.label('status'),
      children: (
        <Tag color={row.status ? 'green' : 'default'}>
          {text.t(`values.status.${row.status ? 'on' : 'off'}`, { ns: 'ui' })}
        </Tag>
      ),
    });
  for (const key of ['createdAt', 'updatedAt'] as const)
    items.push({ key, label: text.label(key), children: <DualDate value={row[key]} type="datetime" /> });
  return (
    <Descriptions
      bordered
      size="small"
      layout={narrow ? 'vertical' : 'horizontal'}
      column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 3, xxl: 3 }}
      items={items}
    />
  );
}
