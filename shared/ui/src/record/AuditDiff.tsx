import type { ReactNode } from 'react';
import { Table, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  displayKey,
  findEntity,
  type AuditItem,
  type Entity,
  type FieldDefinition,
  type Fields,
} from '@mizan/contracts';
import { fieldKind } from '../fields/registry';
import type { EntityRow } from '../fields/types';
import { diffRows, displayValue, type FieldChange } from './diff';

/** Field kinds whose values read left to right whatever the page direction. */
const LTR_TYPES = new Set(['email', 'url', 'phone', 'password']);

/** The display keys (`continent` beside `continentId`) of an entity: the id field already shows them. */
export function displayKeys(entity: Entity<Fields> | undefined): Set<string> {
  const keys = new Set<string>(['id']);
  for (const [name, field] of Object.entries(entity?.fields ?? {}))
    if (field.type === 'ref' || field.type === 'refs') keys.add(displayKey(name, { type: field.type }));
  return keys;
}

/** A field's translated label from the entity's own labels (`entities:<entity>.fields.<field>`), else its name. */
export function auditFieldLabel(t: TFunction, entityName: string, field: string): string {
  return t(`entities:${entityName}.fields.${field}`, { defaultValue: field });
}

export interface AuditValueProps {
  entityName: string;
  field: string;
  value: unknown;
  /** The whole row the value comes from (for the joined `{ id, name }` of references). */
  row: Record<string, unknown> | null;
  t: TFunction;
  lng: string;
  /** The field's label (for the registry's context). */
  label?: string;
}

/**
 * One audited value as the lists show it, through the field registry: yes/no, the referenced
 * row's title (the entry keeps `{ id, name }` beside the id), colour swatches, dates in the
 * office's calendar; anything else as isolated text, so codes and paths keep their order.
 */
export function AuditValue({ entityName, field, value, row, t, lng, label }: AuditValueProps): ReactNode {
  if (value === null || value === undefined || value === '') return null;
  const entity = findEntity(entityName);
  const definition: FieldDefinition | undefined = entity?.fields[field];
  if (entity && definition && definition.type !== 'files') {
    const ctx = {
      entity,
      name: field,
      field: definition,
      label: label ?? auditFieldLabel(t, entityName, field),
      t,
      lng,
    };
    const cell = fieldKind(definition).cell(value, (row ?? {}) as EntityRow, ctx);
    // Isolated either way: a code or a path inside Arabic text keeps its own order.
    return LTR_TYPES.has(definition.type) ? (
      <bdi dir="ltr" style={{ unicodeBidi: 'isolate' }}>
        {cell}
      </bdi>
    ) : (
      <bdi>{cell}</bdi>
    );
  }
  if (typeof value === 'boolean') {
    const key =
      field === 'status' || field === 'baned'
        ? `values.${field}.${value ? 'on' : 'off'}`
        : `values.${value ? 'yes' : 'no'}`;
    return <Tag>{t(key, { ns: 'ui' })}</Tag>;
  }
  return <bdi>{displayValue(value, lng.startsWith('ar') ? '، ' : ', ')}</bdi>;
}

export interface AuditDiffProps {
  /** One entry of the audit trail (`GET …/system/audit`). */
  entry: AuditItem;
  /** A definition list instead of a table (narrow screens). */
  stacked?: boolean;
  /** The label of a field; default the entity's own (`entities:<entity>.fields.<field>`). */
  fieldLabel?: (entityName: string, field: string) => string;
}

/**
 * The before/after of one audit entry, field by field: translated labels, values as the lists
 * show them (references by title, enums translated, dates in the office's style), bookkeeping
 * columns and the joined labels of references left out. Used by the audit screen and the
 * history tab of record pages.
 *
 * @example <AuditDiff entry={entry} stacked={narrow} />
 */
export function AuditDiff({ entry, stacked = false, fieldLabel }: AuditDiffProps) {
  const { t, i18n } = useTranslation(['ui', 'entities']);
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const labelOf = (field: string) =>
    fieldLabel ? fieldLabel(entry.entity, field) : auditFieldLabel(t, entry.entity, field);
  const hidden = displayKeys(findEntity(entry.entity));
  const changes = diffRows(entry.before, entry.after).filter((c) => !hidden.has(c.field));
  const cell = (c: FieldChange, side: 'before' | 'after') => (
    <Typography.Text
      delete={side === 'before' && entry.after !== null}
      type={side === 'before' ? 'danger' : 'success'}
    >
      <AuditValue
        entityName={entry.entity}
        field={c.field}
        value={c[side]}
        row={entry[side]}
        t={t}
        lng={lng}
        label={labelOf(c.field)}
      />
    </Typography.Text>
  );
  if (changes.length === 0)
    return <Typography.Text type="secondary">{t('record.diff.none', { ns: 'ui' })}</Typography.Text>;
  if (stacked)
    return (
      <dl style={{ margin: 0 }}>
        {changes.map((c) => (
          <div key={c.field} style={{ marginBlockEnd: 8 }}>
            <dt style={{ fontWeight: 600 }}>{labelOf(c.field)}</dt>
            <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>
              {entry.before !== null && <div>{cell(c, 'before')}</div>}
              {entry.after !== null && <div>{cell(c, 'after')}</div>}
            </dd>
          </div>
        ))}
      </dl>
    );
  return (
    <Table<FieldChange>
      size="small"
      pagination={false}
      rowKey="field"
      dataSource={changes}
      scroll={{ x: 'max-content' }}
      columns={[
        {
          key: 'field',
          title: t('record.diff.field', { ns: 'ui' }),
          render: (_, c) => labelOf(c.field),
          width: 200,
        },
        { key: 'before', title: t('record.diff.before', { ns: 'ui' }), render: (_, c) => cell(c, 'before') },
        { key: 'after', title: t('record.diff.after', { ns: 'ui' }), render: (_, c) => cell(c, 'after') },
      ]}
    />
  );
}
