import { DOCUMENT_FILE_TYPES, defineEntity } from '../entity';
import { LAWYERS_ONLY } from './people';

/** Scans and copies a power of attorney may carry: PDF, images, Word. */
export const PROCURATION_FILE_TYPES = DOCUMENT_FILE_TYPES;
/** Most files one power of attorney holds. */
export const PROCURATION_FILE_MAX_COUNT = 20;
/** A power of attorney expiring within this many days is flagged in the list. */
export const PROCURATION_EXPIRY_WARNING_DAYS = 30;
/** The largest "expires within N days" the list filter takes (ten years). */
export const PROCURATION_EXPIRY_FILTER_MAX_DAYS = 3650;

/**
 * Powers of attorney: number and year (unique together), the clients who gave it, the
 * lawyers it empowers, the notary office or authority that issued it, issue and (optional) expiry
 * date, its case type (settings list), whether it covers litigation, scope and scans. The list filters `expiresWithin=N` (expiry
 * between today and today + N days) and `expired=true` (expiry before today; open-ended ones never
 * expire) have their conditions on the server (clients module). The list shows the number, clients,
 * lawyers, expiry date (with its validity flag), litigation, status and creation date by default;
 * the year, issuer, issue date, case type and scope come back through the column chooser.
 */
export const procurations = defineEntity({
  name: 'procurations',
  path: '/admin/customers/procurations',
  remote: 'clients',
  menu: { group: null, order: 130 },
  titleField: 'number',
  defaultSort: 'issueDate:desc',
  uniqueTogether: [['number', 'year']],
  fileDeletePath: '/files/:fileId',
  fields: {
    number: { type: 'string', required: true, max: 50, code: true, search: true, sort: true },
    year: {
      type: 'integer',
      required: true,
      min: 1900,
      max: 2100,
      code: true,
      sort: true,
      filter: true,
      list: false,
    },
    customerIds: { type: 'refs', entity: 'customers', required: true, filter: true },
    lawyerIds: { type: 'refs', entity: 'employees', filter: true, options: LAWYERS_ONLY },
    issuer: { type: 'string', max: 200, search: true, list: false },
    issueDate: { type: 'date', required: true, sort: true, list: false },
    expiryDate: { type: 'date', sort: true },
    procurationCaseId: { type: 'ref', entity: 'procurationCases', filter: true, list: false },
    // Whether it empowers the lawyers to litigate (a power of attorney for sale or a single
    // transaction does not): lawsuits and hearings of a client with none are warned of or refused.
    litigation: { type: 'boolean', default: true, filter: true },
    scope: { type: 'text', max: 5000, list: false },
    notes: { type: 'text', max: 2000, list: false },
    files: {
      type: 'files',
      accept: PROCURATION_FILE_TYPES,
      maxCount: PROCURATION_FILE_MAX_COUNT,
      list: false,
    },
  },
  listFilters: {
    expiresWithin: { type: 'integer', min: 0, max: PROCURATION_EXPIRY_FILTER_MAX_DAYS },
    expired: { type: 'boolean' },
  },
});
