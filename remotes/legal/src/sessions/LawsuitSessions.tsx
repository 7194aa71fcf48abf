import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { displayKey, sessions } from '@mizan/contracts';
import {
  EntityFormDrawer,
  EntityTable,
  useEntityList,
  type EntityColumn,
  type EntityRow,
  type FormMode,
} from '@mizan/ui';
import { sessionColumns } from './columns';

export interface LawsuitSessionsProps {
  /** The lawsuit as the record page read it. */
  lawsuit: EntityRow;
  /** Its title (file number), for the pre-filled reference of a new hearing. */
  title: string;
  /** The office's day (fixed in tests). */
  today?: () => string;
}

type DrawerState = { mode: FormMode; row?: EntityRow } | null;

/**
 * A lawsuit's hearings: its list (the lawsuit column left out), each row with the hearings it was
 * postponed from and to, past ones with no decision flagged; "add" opens the hearing form with
 * the lawsuit filled in.
 */
export function LawsuitSessions({ lawsuit, title, today }: LawsuitSessionsProps) {
  const columns = useMemo(() => {
    const chain = sessionColumns({ chain: true, ...(today ? { today } : {}) });
    return (derived: EntityColumn[]) => chain(derived.filter((c) => c.key !== 'lawsuitId'));
  }, [today]);
  const list = useEntityList(sessions, { urlState: false, fixedFilters: { lawsuitId: lawsuit.id }, columns });
  const { t } = list.text;
  const [drawer, setDrawer] = useState<DrawerState>(null);
  const defaults = useMemo(
    () => ({
      lawsuitId: lawsuit.id,
      [displayKey('lawsuitId', { type: 'ref' })]: { id: lawsuit.id, name: title },
    }),
    [lawsuit.id, title],
  );

  return (
    <>
      <EntityTable
        {...list}
        onEdit={(row) => setDrawer({ mode: 'update', row })}
        extra={
          list.allowed('create') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ mode: 'create' })}>
              {t('actions.createNamed', { ns: 'ui', name: list.text.singular })}
            </Button>
          )
        }
      />
      <EntityFormDrawer
        entity={sessions}
        open={drawer !== null}
        mode={drawer?.mode ?? 'create'}
        row={drawer?.row}
        defaults={defaults}
        onClose={() => setDrawer(null)}
      />
    </>
  );
}
