import { defineEntity } from '../entity';
import { LAWYERS_ONLY } from './people';

/** A client is a natural person (identified by a national ID) or a company (by its commercial registration). */
export const CUSTOMER_KINDS = ['person', 'company'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];

/**
 * Digits of a person's national ID. Egypt's national number has 14 digits (century, birth date,
 * governorate code, sequence, check digit); it is the longest in common use among Arab states
 * (Saudi, Emirati and Jordanian IDs have 10–15), so one office's clients fit a fixed length that
 * catches a missing or extra digit. Change it here for another jurisdiction: the server's check
 * and the form follow.
 */
export const NATIONAL_ID_LENGTH = 14;
/** Commercial registration numbers vary by registry office and country: 1 to 20 digits. */
export const COMMERCIAL_REGISTER_MAX = 20;

/**
 * The identifier field a kind requires, and the one it must leave empty.
 *
 * @example CUSTOMER_ID_FIELD.company // 'commercialRegister'
 */
export const CUSTOMER_ID_FIELD = {
  person: 'nationalId',
  company: 'commercialRegister',
} as const satisfies Record<CustomerKind, string>;

/**
 * Whether `value` (ASCII digits, as stored) is well formed for `kind`'s identifier.
 *
 * @example customerIdValid('person', '29801011234567') // true
 */
export function customerIdValid(kind: CustomerKind, value: string): boolean {
  return kind === 'person'
    ? new RegExp(`^\\d{${NATIONAL_ID_LENGTH}}$`).test(value)
    : new RegExp(`^\\d{1,${COMMERCIAL_REGISTER_MAX}}$`).test(value);
}

/** The office's clients: one of the two kinds, unique by their identifier. */
export const customers = defineEntity({
  name: 'customers',
  path: '/admin/customers',
  remote: 'clients',
  menu: { group: 'clients', order: 1 },
  importable: true,
  fields: {
    name: { type: 'string', required: true, max: 150, search: true, sort: true },
    nameEn: { type: 'string', max: 150, search: true, sort: true },
    kind: { type: 'enum', values: CUSTOMER_KINDS, required: true, default: 'person', filter: true },
    customerTypeId: { type: 'ref', entity: 'customerTypes', filter: true },
    // Unique on their own: the kind rules keep a company's national ID and a person's
    // registration empty, so each is unique among the clients of its kind.
    nationalId: {
      type: 'string',
      max: NATIONAL_ID_LENGTH,
      code: true,
      unique: true,
      search: true,
      filter: true,
    },
    commercialRegister: {
      type: 'string',
      max: COMMERCIAL_REGISTER_MAX,
      code: true,
      unique: true,
      search: true,
      list: false,
    },
    nationalityId: { type: 'ref', entity: 'countries', filter: true, list: false },
    phone: { type: 'phone', max: 20, search: true },
    mobile: { type: 'phone', max: 20, search: true },
    email: { type: 'email', max: 150, list: false },
    // Where the office may write to the client, and since when they agreed to each channel: a
    // channel without its consent date receives nothing (the messages module).
    whatsapp: { type: 'phone', max: 20, list: false },
    language: { type: 'enum', values: ['ar', 'en'] as const, default: 'ar', list: false },
    emailOptIn: { type: 'date', list: false },
    smsOptIn: { type: 'date', list: false },
    whatsappOptIn: { type: 'date', list: false },
    governorateId: { type: 'ref', entity: 'governorates', filter: true, list: false },
    address: { type: 'text', max: 500, list: false },
    branchId: { type: 'ref', entity: 'branches', filter: true, list: false },
    lawyerId: { type: 'ref', entity: 'employees', filter: true, options: LAWYERS_ONLY },
    notes: { type: 'text', max: 2000, list: false },
  },
});
