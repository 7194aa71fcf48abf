import { Form } from 'antd';
import type { EntityFormRenderProps } from '@mizan/ui';
import { ProcurationWarning } from '../procurations/ProcurationWarning';

/**
 * The hearing form: the generic layout, with the warning of a client whose power of attorney does
 * not cover the hearing's day above it.
 */
export function SessionForm({ form, row, children }: EntityFormRenderProps) {
  // Chosen on create; an existing hearing's lawsuit is not in its form (it never changes).
  const chosen: unknown = Form.useWatch('lawsuitId', form);
  const lawsuitId = chosen ?? row?.lawsuitId;
  const date: unknown = Form.useWatch('date', form);
  return (
    <>
      {typeof lawsuitId === 'number' && date ? (
        <ProcurationWarning
          lawsuitId={lawsuitId}
          date={date as Parameters<typeof ProcurationWarning>[0]['date']}
        />
      ) : null}
      {children}
    </>
  );
}
