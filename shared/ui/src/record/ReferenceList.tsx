import { useMemo, useState, type ReactNode } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { displayKey, type Reference } from '@mizan/contracts';
import { EntityFormDrawer } from '../entity/EntityFormDrawer';
import { EntityTable } from '../entity/EntityTable';
import type { FormMode } from '../entity/formValues';
import { useEntityList, type EntityList, type EntityListOptions } from '../entity/useEntityList';
import type { EntityRow } from '../fields/types';

export interface ReferenceListProps {
  /** The field of another entity that points at the record (`procurations.customerIds`). */
  reference: Reference;
  /** The record's id: the list is fixed to rows pointing at it. */
  ownerId: number;
  /** The record's title, so the pre-filled reference shows its name in the form. */
  ownerTitle: string;
  /** Adjusts the derived columns (a remote's flags, the owner's own column left out). */
  columns?: EntityListOptions['columns'];
  /** Shown above the list, given the list (figures read again when it changes, say). */
  before?: (list: EntityList) => ReactNode;
}

type DrawerState = { mode: FormMode; row?: EntityRow } | null;

/**
 * The rows of another entity that point at one record, as an embedded generic list (its own
 * state, nothing in the URL) whose "add" opens that entity's form with the reference pre-filled.
 *
 * @example <ReferenceList reference={{ entity: procurations, field: 'customerIds', type: 'refs' }} ownerId={7} ownerTitle="…" />
 */
export function ReferenceList({ reference, ownerId, ownerTitle, columns, before }: ReferenceListProps) {
  const { entity, field, type } = reference;
  const list = useEntityList(entity, {
    urlState: false,
    fixedFilters: { [field]: ownerId },
    ...(columns ? { columns } : {}),
  });
  const { t } = list.text;
  const [drawer, setDrawer] = useState<DrawerState>(null);
  const defaults = useMemo(() => {
    const label = { id: ownerId, name: ownerTitle };
    return type === 'ref'
      ? { [field]: ownerId, [displayKey(field, { type })]: label }
      : { [field]: [ownerId], [displayKey(field, { type })]: [label] };
  }, [field, type, ownerId, ownerTitle]);

  return (
    <>
      {before?.(list)}
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
        entity={entity}
        open={drawer !== null}
        mode={drawer?.mode ?? 'create'}
        row={drawer?.row}
        defaults={defaults}
        onClose={() => setDrawer(null)}
      />
    </>
  );
}
