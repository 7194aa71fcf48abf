import { z } from 'zod';
import { defineEntity } from '../entity';
import { LAWYERS_ONLY } from './people';
import { parseDigits } from '../text';
import { COMMERCIAL_REGISTER_MAX, CUSTOMER_KINDS, NATIONAL_ID_LENGTH } from './customers';

/**
 * The other side of a lawsuit: a person or a company like a client (`CUSTOMER_KINDS`), with the
 * same identifiers checked by the same rules (`customerIdValid`) when given, but none required:
 * the office often does not know an opponent's ID. Their lawyer's name and phone are kept for the
 * court roll. The conflict check covers opponents both ways (api/clients.ts).
 */
export const opponents = defineEntity({
  name: 'opponents',
  path: '/admin/lawsuits/opponents',
  remote: 'legal',
  menu: { group: 'legal', order: 3 },
  importable: true,
  fields: {
    name: { type: 'string', required: true, max: 150, search: true, sort: true },
    nameEn: { type: 'string', max: 150, search: true, sort: true },
    kind: { type: 'enum', values: CUSTOMER_KINDS, required: true, default: 'person', filter: true },
    nationalId: { type: 'string', max: NATIONAL_ID_LENGTH, code: true, search: true, filter: true },
    commercialRegister: {
      type: 'string',
      max: COMMERCIAL_REGISTER_MAX,
      code: true,
      search: true,
      list: false,
    },
    nationalityId: { type: 'ref', entity: 'countries', filter: true, list: false },
    phone: { type: 'phone', max: 20, search: true },
    mobile: { type: 'phone', max: 20, search: true },
    address: { type: 'text', max: 500, list: false },
    lawyerName: { type: 'string', max: 150, search: true },
    lawyerPhone: { type: 'phone', max: 20, list: false },
    notes: { type: 'text', max: 2000, list: false },
  },
});

/** A lawsuit is active until it is closed with its final case (stage and outcome); it can be reopened. */
export const LAWSUIT_STATES = ['active', 'completed'] as const;
export type LawsuitState = (typeof LAWSUIT_STATES)[number];

/**
 * The office file number generated when a lawsuit is created without one: `<year>/<sequence>`,
 * the year of creation (in the office's time zone) and the next number of that year, at least `FILE_NUMBER_DIGITS`
 * digits (`2026/0007`).
 */
export const FILE_NUMBER_DIGITS = 4;
/** The `hearingWithinDays` list filter's largest value (a year). */
export const HEARING_WITHIN_MAX_DAYS = 366;

/**
 * The body of `PATCH /admin/lawsuits/:id/close` (besides the `updatedAt` read): the lawsuit's
 * final case (a `lawsuitCases` row: its `outcome` says won, lost or still ongoing), required.
 */
export const closeLawsuitBody = z
  .object({
    lawsuitCaseId: z.preprocess(
      parseDigits,
      z
        .int({ error: (i) => (i.input == null ? 'validation.required' : 'validation.types.integer') })
        .positive({ error: 'validation.types.integer' }),
    ),
  })
  .strip();
export type CloseLawsuitInput = z.input<typeof closeLawsuitBody> & { updatedAt?: string };

/**
 * Lawsuits: the office's file number (unique; left blank it is generated, see
 * `FILE_NUMBER_DIGITS`; editable), the court's case number and year, type, case (the stage; its
 * `outcome` makes the lawsuit won, lost or ongoing), court, circuit (of that court) and judge (of
 * that circuit), branch, administrative section, our clients, opponents and responsible lawyers,
 * subject, claim amount and agreed fee (money: minor units), filing date and state.
 *
 * `ownerTypeId` is the capacity our clients stand in (plaintiff, defendant, appellant…): one per
 * lawsuit, not one per client, because every client the office represents in one lawsuit stands
 * on the same side of it (parties on the other side are opponents; clients on opposite sides
 * would be a conflict of interest).
 *
 * `state` changes only through the actions: `close` (with the final case, required) and `reopen`,
 * each audited under its own name. List filters: `filedFrom`/`filedTo` (filing date range, both
 * days included) and `hearingWithinDays=N` (a hearing between today and today + N days).
 *
 * The list shows the file number, case number, court, clients, responsible lawyers, filing date,
 * state and creation date by default (all of them on a 1,440 px desktop without scrolling); the
 * case year, type, stage, opponents and the rest come back through the column chooser.
 */
export const lawsuits = defineEntity({
  name: 'lawsuits',
  path: '/admin/lawsuits',
  remote: 'legal',
  menu: { group: 'legal', order: 1 },
  titleField: 'fileNumber',
  status: false,
  // Offices bring their running lawsuits from spreadsheets (file numbers generated when blank).
  importable: true,
  // A court's lawsuits in one state, newest first, with their exact total, at a million lawsuits.
  indexes: [['courtId', 'state', 'createdAt']],
  counts: [['courtId', 'state']],
  fields: {
    fileNumber: { type: 'string', max: 30, code: true, unique: true, search: true, sort: true },
    caseNumber: { type: 'string', max: 50, code: true, search: true },
    caseYear: { type: 'integer', min: 1900, max: 2100, code: true, sort: true, list: false },
    lawsuitTypeId: { type: 'ref', entity: 'lawsuitTypes', filter: true, list: false },
    lawsuitCaseId: { type: 'ref', entity: 'lawsuitCases', filter: true, list: false },
    courtId: { type: 'ref', entity: 'courts', filter: true },
    circuitId: { type: 'ref', entity: 'circuits', filter: true, list: false },
    judgeId: { type: 'ref', entity: 'judges', filter: true, list: false },
    branchId: { type: 'ref', entity: 'branches', filter: true, list: false },
    administrativeSectionId: { type: 'ref', entity: 'administrativeSections', filter: true, list: false },
    customerIds: { type: 'refs', entity: 'customers', required: true, filter: true },
    ownerTypeId: { type: 'ref', entity: 'lawsuitOwners', filter: true, list: false },
    opponentIds: { type: 'refs', entity: 'opponents', filter: true, list: false },
    lawyerIds: { type: 'refs', entity: 'employees', filter: true, options: LAWYERS_ONLY },
    subject: { type: 'text', max: 5000, search: true, list: false },
    claimAmount: { type: 'money', sort: true, list: false },
    agreedFee: { type: 'money', sort: true, list: false },
    /** An hour's rate on this lawsuit, minor units: overrides the lawyer's own for its time entries. */
    hourlyRate: { type: 'money', list: false },
    filingDate: { type: 'date', sort: true },
    state: {
      type: 'enum',
      values: LAWSUIT_STATES,
      required: true,
      default: 'active',
      filter: true,
      form: false,
      setBy: 'action',
    },
    notes: { type: 'text', max: 5000, list: false },
  },
  listFilters: {
    filedFrom: { type: 'date' },
    filedTo: { type: 'date' },
    hearingWithinDays: { type: 'integer', min: 0, max: HEARING_WITHIN_MAX_DAYS },
    // A hearing from today on, on whose day a client has no active power of attorney covering
    // litigation (expired by then, none, or none for litigation): what the dashboard lists.
    procurationGap: { type: 'boolean' },
  },
  actions: {
    close: { body: closeLawsuitBody },
    reopen: {},
  },
});
