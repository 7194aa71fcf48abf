import type { ReactNode } from 'react';
import { Tag } from 'antd';
import { Link } from 'react-router-dom';
import { recordTitle, sortableFields, type Entity, type Fields } from '@mizan/contracts';
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
  width?: number;
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
          <Link to={recordPath(entity, row.id)}>{kind.cell(shown(row), row, ctx)}</Link>
        ) : (
          kind.cell(shown(row), row, ctx)
        ),
      exportValue: (row) => kind.text(shown(row), row, ctx),
      sortable: sortable.has(name),
      defaultVisible: field.list !== false,
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
    });
  }
  return columns;
}
