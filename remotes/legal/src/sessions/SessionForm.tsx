import { Form } from 'antd';
import type { EntityFormRenderProps } from '@mizan/ui';
import { ProcurationWarning } from '../procurations/ProcurationWarning';

/**
 * The hearing form: the generic layout, with the warning of a client whose power of attorney does
 * not cover the hearing's day above it.
 */
export function SessionForm({ form, children }: EntityFormRenderProps) {
  const lawsuitId: unknown = Form.useWatch('lawsuitId', form);
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
