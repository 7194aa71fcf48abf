import { i18n } from '@mizan/i18n';
import type { EntityColumn } from '@mizan/ui';
import { LawsuitStateTag } from './StateTag';

/**
 * The lawsuits list's columns: the derived ones, the state drawn as its tag (completed ones with
 * the outcome of their final case). The export keeps the plain state word.
 */
export function lawsuitColumns(derived: EntityColumn[]): EntityColumn[] {
  return derived.map((column) =>
    column.key === 'state'
      ? {
          ...column,
          title: i18n.t('lawsuits.fields.state', { ns: 'entities' }),
          render: (row) => <LawsuitStateTag row={row} />,
        }
      : column,
  );
}
