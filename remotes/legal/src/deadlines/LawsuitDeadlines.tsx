import { useMemo } from 'react';
import { Tag } from 'antd';
import { deadlines, type Entity, type Fields } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { ReferenceList, type EntityColumn, type EntityRow } from '@mizan/ui';
import { DeadlineActions } from './DeadlineActions';

export interface LawsuitDeadlinesProps {
  /** The lawsuit as the record page read it. */
  lawsuit: EntityRow;
  /** Its title (file number), for the pre-filled reference of a deadline added by hand. */
  title: string;
}

const reference = {
  entity: deadlines as unknown as Entity<Fields>,
  field: 'lawsuitId',
  type: 'ref',
} as const;

/** The colour of a deadline's state: open is what needs doing, done is green, waived grey. */
const STATE_COLOURS: Record<string, string> = { open: 'red', done: 'green', waived: 'default' };

/** The columns a lawsuit's deadlines show, in order (the lawsuit itself left out). */
const SHOWN = ['action', 'ruleId', 'startDate', 'dueDate', 'legalBasis', 'state', 'lawyerId'];

/**
 * The state as a tag coloured by how urgent it is, and the row's actions (change the due date with
 * a reason, close as done or waived, reopen) in a column of their own.
 */
export function deadlineColumns(derived: EntityColumn[]): EntityColumn[] {
  const byKey = new Map(derived.map((column) => [column.key, column]));
  const shown = SHOWN.flatMap((key): EntityColumn[] => {
    const column = byKey.get(key);
    if (!column) return [];
    if (key === 'state')
      return [
        {
          ...column,
          render: (row: EntityRow) => (
            <Tag color={STATE_COLOURS[String(row.state)] ?? 'default'}>
              {i18n.t(`deadlines.values.state.${String(row.state)}`, { ns: 'entities' })}
            </Tag>
          ),
        },
      ];
    return [{ ...column, defaultVisible: true }];
  });
  const rest = derived
    .filter((column) => !SHOWN.includes(column.key) && column.key !== 'lawsuitId')
    .map((column) => ({ ...column, defaultVisible: false }));
  const actions: EntityColumn = {
    key: 'deadlineActions',
    title: i18n.t('deadlines.actionsColumn', { ns: 'legal' }),
    render: (row) => <DeadlineActions row={row} compact />,
    exportValue: () => '',
    sortable: false,
    defaultVisible: true,
  };
  return [...shown, ...rest, actions];
}

/**
 * A lawsuit's deadlines: what is due under which legal period, counted from which day, due on
 * which day (both calendars), its legal basis and state, with the actions on each row; "add"
 * opens the deadline form with the lawsuit filled in.
 */
export function LawsuitDeadlines({ lawsuit, title }: LawsuitDeadlinesProps) {
  const columns = useMemo(() => deadlineColumns, []);
  return <ReferenceList reference={reference} ownerId={lawsuit.id} ownerTitle={title} columns={columns} />;
}
