import type { ReactNode } from 'react';
import {
  filterableFields,
  permissionKey,
  recordTitle,
  referencesIn,
  type Entity,
  type Fields,
  type Reference,
} from '@mizan/contracts';
import { currentDateStyle, formatDateParts } from '../dates/format';
import type { EntityText } from '../entity/labels';
import type { EntityRow } from '../fields/types';
import { RecordFiles, filesFields } from './RecordFiles';
import { RecordHistory } from './RecordHistory';
import { ReferenceList } from './ReferenceList';

/** One tab of a record page. */
export interface RecordTab {
  /**
   * Stable key, also kept in the URL (`?tab=`): `<entity>.<field>` for a reference tab
   * (`procurations.customerIds`), `files`, `history`, or a remote's own.
   */
  key: string;
  label: ReactNode;
  /** Rendered when the tab is first opened. */
  children: ReactNode;
}

/** What a `tabs` override gets besides the derived tabs. */
export interface RecordTabContext {
  entity: Entity<Fields>;
  /** The record as read (with its `updatedAt`). */
  row: EntityRow;
  /** The record's title in the interface language. */
  title: string;
  /** `can('<permission>')` for the signed-in user. */
  can: (permission: string) => boolean;
}

/**
 * The references a record page lists as tabs: every `ref`/`refs` field of another definition
 * pointing at `entity` whose list can be filtered by it (a list the server cannot filter to this
 * record would show every row) and whose rows the user may view.
 */
export function recordReferences(
  entity: Entity<Fields>,
  entities: readonly Entity<Fields>[],
  can: (permission: string) => boolean,
): Reference[] {
  return referencesIn(entity.name, entities).filter(
    (r) => filterableFields(r.entity).includes(r.field) && can(permissionKey(r.entity, 'view')),
  );
}

/**
 * The tabs of a record page derived from the registry: one embedded list per referencing entity,
 * the record's files when it has `files` fields, and its history.
 */
export function deriveRecordTabs(
  entity: Entity<Fields>,
  text: EntityText,
  context: RecordTabContext,
  entities: readonly Entity<Fields>[],
): RecordTab[] {
  const { t } = text;
  const references = recordReferences(entity, entities, context.can);
  const tabs: RecordTab[] = references.map((reference) => {
    const title = t(`${reference.entity.name}.title`, {
      ns: 'entities',
      defaultValue: reference.entity.name,
    });
    // Two fields of one entity pointing here (a case's client and opponent): the field tells them apart.
    const twice = references.filter((r) => r.entity.name === reference.entity.name).length > 1;
    const field = t(`${reference.entity.name}.fields.${reference.field}`, {
      ns: 'entities',
      defaultValue: reference.field,
    });
    return {
      key: `${reference.entity.name}.${reference.field}`,
      label: twice ? t('record.tabs.reference', { ns: 'ui', title, field }) : title,
      children: <ReferenceList reference={reference} ownerId={context.row.id} ownerTitle={context.title} />,
    };
  });
  if (filesFields(entity).length > 0)
    tabs.push({
      key: 'files',
      label: t('record.tabs.files', { ns: 'ui' }),
      children: <RecordFiles entity={entity} row={context.row} />,
    });
  tabs.push({
    key: 'history',
    label: t('record.tabs.history', { ns: 'ui' }),
    children: <RecordHistory entity={entity} id={context.row.id} />,
  });
  return tabs;
}

/**
 * The record's title as the list shows it (seeded rows in the interface language; a date in the
 * office's first calendar, a hearing's say), else `#id`.
 */
export function titleOf(entity: Entity<Fields>, row: EntityRow, lng: string): string {
  const value = row[entity.titleField];
  const type = entity.fields[entity.titleField]?.type;
  if (typeof value === 'string' && value && (type === 'date' || type === 'datetime')) {
    const parts = formatDateParts(value, type, { ...currentDateStyle(), lng });
    if (parts) return parts.primary;
  }
  if (typeof value === 'string' && value) return recordTitle(entity.name, value, lng);
  if (typeof value === 'number') return String(value);
  return `#${row.id}`;
}
