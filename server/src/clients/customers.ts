import {
  COMMERCIAL_REGISTER_MAX,
  CUSTOMER_ID_FIELD,
  NATIONAL_ID_LENGTH,
  customerIdValid,
  type CustomerKind,
} from '@mizan/contracts';
import type { EntityServices } from '../engine/service';
import { AppError, type Translatable } from '../http/errors';
import { present } from '../http/values';

const otherKind = (kind: CustomerKind): CustomerKind => (kind === 'person' ? 'company' : 'person');

const FORMAT: Record<CustomerKind, Translatable> = {
  person: { key: 'clients.customers.nationalIdFormat', params: { length: NATIONAL_ID_LENGTH } },
  company: {
    key: 'clients.customers.commercialRegisterFormat',
    params: { max: COMMERCIAL_REGISTER_MAX, count: COMMERCIAL_REGISTER_MAX },
  },
};

/**
 * The kind rules on the row as it will be stored (`merged`): a person carries a national ID and a
 * company a commercial registration, each well formed (digits arrive ASCII: both are `code`
 * fields); the other identifier is cleared in `values`, so a party whose kind changes keeps no
 * stale number and each identifier stays unique among the parties of its kind. 422 on the field.
 * Clients must carry their identifier; an opponent's (`required: false`) is checked when given.
 *
 * @example applyKindRules(values, { ...before, ...values }, { entity: 'opponents', required: false })
 */
export function applyKindRules(
  values: Record<string, unknown>,
  merged: Record<string, unknown>,
  { entity, required }: { entity: string; required: boolean } = { entity: 'customers', required: true },
): void {
  const kind = merged.kind as CustomerKind;
  const own = CUSTOMER_ID_FIELD[kind];
  const value = merged[own];
  let problem: Translatable | null = null;
  if (!present(value)) problem = required ? { key: `clients.customers.${own}Required` } : null;
  else if (!customerIdValid(kind, String(value))) problem = FORMAT[kind];
  if (problem) throw new AppError('validation', { entity, errors: { [own]: [problem] } });
  const other = CUSTOMER_ID_FIELD[otherKind(kind)];
  if (present(merged[other])) values[other] = null;
}

/** The customers' behaviour beyond the generic pattern (call once per app, from the clients plugin). */
export function installCustomerHooks(entities: EntityServices): void {
  entities.hooks('customers', {
    beforeCreate(_ctx, values) {
      applyKindRules(values, values);
    },
    beforeUpdate(_ctx, values, before) {
      applyKindRules(values, { ...before, ...values });
    },
  });
}
