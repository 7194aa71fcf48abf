import { Form } from 'antd';
import { CUSTOMER_ID_FIELD, type CustomerKind } from '@mizan/contracts';
import { ConflictPanel, type EntityFormRenderProps } from '@mizan/ui';

/**
 * The opponent form: the derived inputs in their order, with the live conflict-of-interest panel
 * of the client form under the identifier, so an opponent who is already a client of the office
 * (by a variant of the name or the same ID) is told before saving.
 */
export function OpponentForm({ form, items, row, mode }: EntityFormRenderProps) {
  const kind: CustomerKind = Form.useWatch('kind', form) === 'company' ? 'company' : 'person';
  const idField = CUSTOMER_ID_FIELD[kind];
  const name: unknown = Form.useWatch('name', form);
  const idValue: unknown = Form.useWatch(idField, form);
  const panel = (
    <ConflictPanel
      key="conflicts"
      for="opponents"
      name={name}
      nationalId={idValue}
      exceptId={mode === 'update' ? row?.id : undefined}
    />
  );
  const keys = Object.keys(items);
  // Under the last identity field the form shows.
  const after = ['commercialRegister', 'nationalId', 'kind', 'name'].find((key) => keys.includes(key));
  return <>{Object.entries(items).flatMap(([key, node]) => (key === after ? [node, panel] : [node]))}</>;
}
