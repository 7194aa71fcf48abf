import { cloneElement, isValidElement, type ReactElement } from 'react';
import { Form } from 'antd';
import type { FormItemProps } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CUSTOMER_ID_FIELD,
  COMMERCIAL_REGISTER_MAX,
  NATIONAL_ID_LENGTH,
  customerIdValid,
  normalizeDigits,
  type CustomerKind,
} from '@mizan/contracts';
import { ConflictPanel, type EntityFormRenderProps } from '@mizan/ui';

const OTHER: Record<CustomerKind, CustomerKind> = { person: 'company', company: 'person' };

/**
 * The client form: the derived inputs in their order, with the identifier the kind calls for
 * (national ID for a person, commercial registration for a company; the other one hidden: the
 * server clears it) marked required and checked as the server checks it, and the live
 * conflict-of-interest panel under the identity fields.
 */
export function CustomerForm({ form, items, row, mode }: EntityFormRenderProps) {
  const { t } = useTranslation('entities');
  const kind: CustomerKind = Form.useWatch('kind', form) === 'company' ? 'company' : 'person';
  const idField = CUSTOMER_ID_FIELD[kind];
  const name: unknown = Form.useWatch('name', form);
  const idValue: unknown = Form.useWatch(idField, form);

  const label = t(`customers.fields.${idField}`);
  const checkId = async (_: unknown, value: unknown) => {
    const text = typeof value === 'string' ? normalizeDigits(value.trim()) : '';
    const key = kind === 'person' ? 'nationalId' : 'commercialRegister';
    if (!text) throw new Error(t(`customers.${key}Required`, { ns: 'server-clients', label }));
    if (!customerIdValid(kind, text))
      throw new Error(
        t(`customers.${key}Format`, {
          ns: 'server-clients',
          label,
          length: NATIONAL_ID_LENGTH,
          max: COMMERCIAL_REGISTER_MAX,
        }),
      );
  };

  const shown = Object.entries(items).flatMap(([key, node]) => {
    if (key === CUSTOMER_ID_FIELD[OTHER[kind]]) return [];
    if (key === idField && isValidElement(node)) {
      const item = node as ReactElement<FormItemProps>;
      const required = cloneElement(item, {
        required: true,
        rules: [...(item.props.rules ?? []), { validator: checkId }],
      });
      return [
        required,
        <ConflictPanel
          key="conflicts"
          name={name}
          nationalId={idValue}
          exceptId={mode === 'update' ? row?.id : undefined}
        />,
      ];
    }
    return [node];
  });

  return <>{shown}</>;
}
