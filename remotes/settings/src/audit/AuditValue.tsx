import { displayKey, findEntity, type Entity, type FieldDefinition, type Fields } from '@mizan/contracts';
import { fieldKind, type EntityRow } from '@mizan/ui';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Ltr } from '../logs/Ltr';
import { displayValue } from './diff';

/** Field kinds whose values read left to right whatever the page direction. */
const LTR_TYPES = new Set(['email', 'url', 'phone', 'password']);

/** The display keys (`continent` beside `continentId`) of an entity: the id field already shows them. */
export function displayKeys(entity: Entity<Fields> | undefined): Set<string> {
  const keys = new Set<string>(['id']);
  for (const [name, field] of Object.entries(entity?.fields ?? {}))
    if (field.type === 'ref' || field.type === 'refs') keys.add(displayKey(name, { type: field.type }));
  return keys;
}

/** A field's translated label: the entity's own labels, the system columns, or the raw name. */
export function fieldLabel(t: TFunction, entityName: string, field: string): string {
  return t(`entities:${entityName}.fields.${field}`, {
    defaultValue: t(`settings:system.general.fields.${field}`, { defaultValue: field }),
  });
}

/**
 * One audited value as the lists show it, through the field registry: yes/no, the referenced
 * row's title (the entry keeps `{ id, name }` beside the id), colour swatches, dates in the
 * office's calendar; anything else as isolated text, so codes and paths keep their order.
 */
export function AuditValue({
  entityName,
  field,
  value,
  row,
  t,
  lng,
}: {
  entityName: string;
  field: string;
  value: unknown;
  row: Record<string, unknown> | null;
  t: TFunction;
  lng: string;
}): ReactNode {
  if (value === null || value === undefined || value === '') return null;
  const entity = findEntity(entityName);
  const definition: FieldDefinition | undefined = entity?.fields[field];
  if (entity && definition && definition.type !== 'files') {
    const ctx = { entity, name: field, field: definition, label: fieldLabel(t, entityName, field), t, lng };
    const cell = fieldKind(definition).cell(value, (row ?? {}) as EntityRow, ctx);
    // Isolated either way: a code or a path inside Arabic text keeps its own order.
    return LTR_TYPES.has(definition.type) ? <Ltr>{cell}</Ltr> : <bdi>{cell}</bdi>;
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
