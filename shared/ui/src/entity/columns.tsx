import type { ReactNode } from 'react';
import { Tag } from 'antd';
import { Link } from 'react-router-dom';
import {
  recordTitle,
  sortableFields,
  type Entity,
  type FieldDefinition,
  type Fields,
  type FieldType,
} from '@mizan/contracts';
import { DualDate } from '../dates/DualDate';
import { fieldKind } from '../fields/registry';
import type { EntityRow } from '../fields/types';
import { exportDate } from '../dates/format';
import type { ExportValue } from '../export/exportFile';
import { recordPath } from '../record/paths';
import type { EntityText } from './labels';

/**
 * One list column: how it shows in the table and what it writes to an export. Derived from the
 * definition; `EntityPage`'s `columns` override receives and returns these.
 */
export interface EntityColumn {
  key: string;
  title: string;
  render: (row: EntityRow) => ReactNode;
  /** Value written to CSV/XLSX. */
  exportValue: (row: EntityRow) => ExportValue;
  sortable: boolean;
  /** Shown until the user changes the column chooser. */
  defaultVisible: boolean;
  /** Fixed width in pixels (the id, the status switches). */
  width?: number;
  /**
   * The width a cell's content may take, in pixels (see `COLUMN_WIDTHS`): it never grows past
   * `max` (longer text wraps or ends in an ellipsis) and is squeezed no narrower than `min` when
   * the table shares out a narrow screen. Absent: `EntityTable`'s default cap and no minimum.
   */
  fit?: ColumnFit;
}

/** The narrowest and widest a column's content goes, in pixels. */
export interface ColumnFit {
  min: number;
  max: number;
}

/**
 * The width rule of list columns, by field type: dates, numbers, amounts, enums and yes/no are
 * narrow (their whole value shows on one or two lines); names and references wrap within a cap and
 * give way down to a minimum so that a list's default columns fit a 1,440 px desktop beside the
 * side menu; free text ends in an ellipsis with the whole of it in a tooltip. Codes (file numbers)
 * are short single words.
 */
export const COLUMN_WIDTHS: Readonly<Record<FieldType, ColumnFit>> = {
  string: { min: 80, max: 224 },
  text: { min: 80, max: 240 },
  email: { min: 96, max: 224 },
  url: { min: 96, max: 224 },
  phone: { min: 0, max: 144 },
  password: { min: 0, max: 0 },
  color: { min: 0, max: 128 },
  integer: { min: 0, max: 112 },
  number: { min: 0, max: 128 },
  money: { min: 0, max: 160 },
  duration: { min: 0, max: 144 },
  boolean: { min: 0, max: 96 },
  enum: { min: 0, max: 144 },
  date: { min: 0, max: 160 },
  datetime: { min: 0, max: 160 },
  ref: { min: 80, max: 192 },
  refs: { min: 96, max: 224 },
  files: { min: 0, max: 80 },
};

/** An identifier or code's column: as wide as its value, which has no spaces to wrap at. */
const CODE_WIDTH: ColumnFit = { min: 0, max: 160 };

/** The width rule of one field's column (`COLUMN_WIDTHS`, codes narrower). */
export function columnFit(field: FieldDefinition): ColumnFit {
  return field.code && (field.type === 'string' || field.type === 'text')
    ? CODE_WIDTH
    : COLUMN_WIDTHS[field.type];
}

const statusText = (text: EntityText, on: unknown, kind: 'status' | 'baned') =>
  text.t(`values.${kind}.${on ? 'on' : 'off'}`, { ns: 'ui' });

/** Every column the definition allows, in declaration order, system columns around the fields. */
export function deriveColumns(entity: Entity<Fields>, text: EntityText): EntityColumn[] {
  const sortable = new Set(sortableFields(entity));
  const columns: EntityColumn[] = [
    {
      key: 'id',
      title: text.label('id'),
      render: (row) => row.id,
      exportValue: (row) => row.id,
      sortable: true,
      defaultVisible: false,
      width: 80,
    },
  ];
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.writeOnly || field.type === 'password') continue;
    const kind = fieldKind(field);
    const ctx = text.context(name);
    // The title reads in the interface language where the data has a translation (seeded roles).
    const shown = (row: EntityRow) =>
      name === entity.titleField && typeof row[name] === 'string'
        ? recordTitle(entity.name, row[name], ctx.lng)
        : row[name];
    columns.push({
      key: name,
      title: ctx.label,
      // The title opens the row's record page (a real link: keyboard, new tab, middle click).
      render: (row) =>
        name === entity.titleField ? (
          <Link
            to={recordPath(entity, row.id)}
            // A row without a title yet (a draft invoice's number) still names what the link opens.
            aria-label={
              row[name] === null || row[name] === undefined || row[name] === ''
                ? text.t('table.openUntitled', { ns: 'ui', singular: text.singular, id: row.id })
                : undefined
            }
          >
            {kind.cell(shown(row), row, ctx)}
          </Link>
        ) : (
          kind.cell(shown(row), row, ctx)
        ),
      exportValue: (row) => kind.text(shown(row), row, ctx),
      sortable: sortable.has(name),
      defaultVisible: field.list !== false,
      fit: columnFit(field),
    });
  }
  for (const kind of ['status', 'baned'] as const) {
    if (!entity[kind]) continue;
    columns.push({
      key: kind,
      title: text.label(kind),
      render: (row) => (
        <Tag color={row[kind] ? (kind === 'status' ? 'green' : 'red') : 'default'}>
          {statusText(text, row[kind], kind)}
        </Tag>
      ),
      exportValue: (row) => statusText(text, row[kind], kind),
      sortable: sortable.has(kind),
      defaultVisible: true,
      width: 110,
    });
  }
  for (const key of ['createdAt', 'updatedAt'] as const) {
    columns.push({
      key,
      title: text.label(key),
      render: (row) => <DualDate value={row[key]} type="datetime" stacked />,
      exportValue: (row) => exportDate(row[key], 'datetime'),
      sortable: true,
      defaultVisible: key === 'createdAt',
      fit: COLUMN_WIDTHS.datetime,
    });
  }
  return columns;
}
