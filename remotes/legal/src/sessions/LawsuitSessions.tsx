import { useMemo } from 'react';
import { sessions, type Entity, type Fields } from '@mizan/contracts';
import { ReferenceList, type EntityColumn, type EntityRow } from '@mizan/ui';
import { sessionColumns } from './columns';

export interface LawsuitSessionsProps {
  /** The lawsuit as the record page read it. */
  lawsuit: EntityRow;
  /** Its title (file number), for the pre-filled reference of a new hearing. */
  title: string;
  /** The office's day (fixed in tests). */
  today?: () => string;
}

const reference = { entity: sessions as unknown as Entity<Fields>, field: 'lawsuitId', type: 'ref' } as const;

/**
 * A lawsuit's hearings: the generic reference list (the lawsuit column left out), each row with
 * the hearings it was postponed from and to, past ones with no decision flagged; "add" opens the
 * hearing form with the lawsuit filled in.
 */
export function LawsuitSessions({ lawsuit, title, today }: LawsuitSessionsProps) {
  const columns = useMemo(() => {
    const chain = sessionColumns({ chain: true, ...(today ? { today } : {}) });
    return (derived: EntityColumn[]) => chain(derived.filter((c) => c.key !== 'lawsuitId'));
  }, [today]);
  return <ReferenceList reference={reference} ownerId={lawsuit.id} ownerTitle={title} columns={columns} />;
}
