import { lawsuitPayments, type Entity, type Fields } from '@mizan/contracts';
import { ReferenceList, type EntityColumn, type EntityRow } from '@mizan/ui';
import { FeesPanel } from './FeesPanel';

export interface PaymentsTabProps {
  /** The lawsuit as the record page read it. */
  lawsuit: EntityRow;
  /** Its title (file number), for the pre-filled reference of a new payment. */
  title: string;
}

const reference = {
  entity: lawsuitPayments as unknown as Entity<Fields>,
  field: 'lawsuitId',
  type: 'ref',
} as const;

/** Inside the lawsuit, the lawsuit column says nothing. */
const withoutLawsuit = (derived: EntityColumn[]) => derived.filter((c) => c.key !== 'lawsuitId');

/**
 * A lawsuit's payments tab: the fee figures above its payments (the generic reference list: add,
 * edit, delete as the user may). The figures are read again whenever the payments list changes
 * (a save here, a change seen live) or the lawsuit does (its agreed fee).
 */
export function PaymentsTab({ lawsuit, title }: PaymentsTabProps) {
  return (
    <ReferenceList
      reference={reference}
      ownerId={lawsuit.id}
      ownerTitle={title}
      columns={withoutLawsuit}
      before={(list) => {
        const loadedAt = list.list.dataUpdatedAt;
        const version = loadedAt ? `${String(lawsuit.updatedAt)}|${loadedAt}` : null;
        return <FeesPanel lawsuitId={lawsuit.id} version={version} />;
      }}
    />
  );
}
