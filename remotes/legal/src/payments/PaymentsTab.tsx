import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { displayKey, lawsuitPayments } from '@mizan/contracts';
import {
  EntityFormDrawer,
  EntityTable,
  useEntityList,
  type EntityColumn,
  type EntityRow,
  type FormMode,
} from '@mizan/ui';
import { FeesPanel } from './FeesPanel';

export interface PaymentsTabProps {
  /** The lawsuit as the record page read it. */
  lawsuit: EntityRow;
  /** Its title (file number), for the pre-filled reference of a new payment. */
  title: string;
}

type DrawerState = { mode: FormMode; row?: EntityRow } | null;

/** Inside the lawsuit, the lawsuit column says nothing. */
const withoutLawsuit = (derived: EntityColumn[]) => derived.filter((c) => c.key !== 'lawsuitId');

/**
 * A lawsuit's payments tab: the fee figures above its payments (add, edit, delete as the user
 * may). The figures are read again whenever the payments list changes (a save here, a change
 * seen live) or the lawsuit does (its agreed fee).
 */
export function PaymentsTab({ lawsuit, title }: PaymentsTabProps) {
  const list = useEntityList(lawsuitPayments, {
    urlState: false,
    fixedFilters: { lawsuitId: lawsuit.id },
    columns: withoutLawsuit,
  });
  const { t } = list.text;
  const [drawer, setDrawer] = useState<DrawerState>(null);
  const defaults = useMemo(
    () => ({
      lawsuitId: lawsuit.id,
      [displayKey('lawsuitId', { type: 'ref' })]: { id: lawsuit.id, name: title },
    }),
    [lawsuit.id, title],
  );
  const loadedAt = list.list.dataUpdatedAt;
  const version = loadedAt ? `${String(lawsuit.updatedAt)}|${loadedAt}` : null;

  return (
    <>
      <FeesPanel lawsuitId={lawsuit.id} version={version} />
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
        entity={lawsuitPayments}
        open={drawer !== null}
        mode={drawer?.mode ?? 'create'}
        row={drawer?.row}
        defaults={defaults}
        onClose={() => setDrawer(null)}
      />
    </>
  );
}
