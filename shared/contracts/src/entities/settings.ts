import { defineEntity } from '../entity';

/** Settings lists that are a name and a description and nothing more. */
const named = { type: 'string', required: true, unique: true, max: 150, search: true, sort: true } as const;
const description = { type: 'text', max: 1000, list: false } as const;

export const lawsuitTypes = defineEntity({
  name: 'lawsuitTypes',
  path: '/admin/settings/lawsuit/types',
  remote: 'settings',
  menu: { group: 'lawsuitSettings', order: 1 },
  importable: true,
  fields: { name: named, description },
});

/** Plaintiff/owner types: the capacity in which the client stands in the lawsuit. */
export const lawsuitOwners = defineEntity({
  name: 'lawsuitOwners',
  path: '/admin/settings/lawsuit/owners',
  remote: 'settings',
  menu: { group: 'lawsuitSettings', order: 2 },
  importable: true,
  fields: { name: named, description },
});

/**
 * What a lawsuit case means: `ongoing` is pending ("قيد النظر": no judgment yet; a new lawsuit
 * starts at the office's first such case), `won`/`lost` a judgment for or against the client.
 */
export const LAWSUIT_OUTCOMES = ['ongoing', 'won', 'lost'] as const;
/**
 * The outcomes a lawsuit may be closed with (closing asks for a final case). The dashboard's
 * success rate is the closed lawsuits won ÷ the closed lawsuits won or lost.
 */
export const FINAL_OUTCOMES = ['won', 'lost'] as const;

/** Lawsuit stages and outcomes; `outcome` feeds the dashboard's success rate. */
export const lawsuitCases = defineEntity({
  name: 'lawsuitCases',
  path: '/admin/settings/lawsuit/cases',
  remote: 'settings',
  menu: { group: 'lawsuitSettings', order: 3 },
  importable: true,
  fields: {
    name: named,
    outcome: { type: 'enum', values: LAWSUIT_OUTCOMES, required: true, default: 'ongoing' },
    color: { type: 'color', max: 7 },
    description,
  },
});

export const procurationCases = defineEntity({
  name: 'procurationCases',
  path: '/admin/settings/procurations/cases',
  remote: 'settings',
  menu: { group: null, order: 60 },
  importable: true,
  fields: { name: named, color: { type: 'color', max: 7 }, description },
});

export const COURT_TYPES = [
  'general',
  'criminal',
  'personalStatus',
  'commercial',
  'labour',
  'administrative',
  'enforcement',
  'appeal',
  'supreme',
] as const;

export const courts = defineEntity({
  name: 'courts',
  path: '/admin/settings/courts/courts',
  remote: 'settings',
  menu: { group: 'courts', order: 1 },
  importable: true,
  fields: {
    name: named,
    courtType: { type: 'enum', values: COURT_TYPES, required: true, default: 'general' },
    governorateId: { type: 'ref', entity: 'governorates' },
    address: { type: 'string', max: 255, search: true, list: false },
    phone: { type: 'phone', max: 20, list: false },
  },
  // The courts of a governorate by type (the list's two filters together).
  counts: [['governorateId', 'courtType']],
});

export const circuits = defineEntity({
  name: 'circuits',
  path: '/admin/settings/courts/circuits',
  remote: 'settings',
  menu: { group: 'courts', order: 2 },
  importable: true,
  uniqueTogether: [['courtId', 'number']],
  fields: {
    name: { type: 'string', required: true, max: 150, search: true, sort: true },
    number: { type: 'integer', required: true, min: 1, max: 100000, sort: true, code: true },
    courtId: { type: 'ref', entity: 'courts', required: true },
  },
});

export const judicialRanks = defineEntity({
  name: 'judicialRanks',
  path: '/admin/settings/courts/judicialRanks',
  remote: 'settings',
  menu: { group: 'courts', order: 4 },
  importable: true,
  defaultSort: 'order:asc',
  fields: {
    name: named,
    order: { type: 'integer', min: 0, max: 1000, sort: true, default: 0 },
  },
});

export const judges = defineEntity({
  name: 'judges',
  path: '/admin/settings/courts/judges',
  remote: 'settings',
  menu: { group: 'courts', order: 3 },
  importable: true,
  fields: {
    name: { type: 'string', required: true, max: 150, search: true, sort: true },
    circuitId: { type: 'ref', entity: 'circuits' },
    judicialRankId: { type: 'ref', entity: 'judicialRanks' },
    phone: { type: 'phone', max: 20, list: false },
    notes: { type: 'text', max: 2000, list: false },
  },
});

export const taskTypes = defineEntity({
  name: 'taskTypes',
  path: '/admin/settings/tasks/types',
  remote: 'settings',
  menu: { group: null, order: 80 },
  importable: true,
  fields: { name: named, color: { type: 'color', max: 7 }, description },
});

export const sessionTypes = defineEntity({
  name: 'sessionTypes',
  path: '/admin/settings/sessions/types',
  remote: 'settings',
  menu: { group: 'sessionSettings', order: 1 },
  importable: true,
  fields: { name: named, description },
});

/** How the office attends a hearing (in person, remotely, by proxy...). */
export const sessionAttendances = defineEntity({
  name: 'sessionAttendances',
  path: '/admin/settings/sessions/attendances',
  remote: 'settings',
  menu: { group: 'sessionSettings', order: 2 },
  importable: true,
  fields: { name: named, description },
});

export const branches = defineEntity({
  name: 'branches',
  path: '/admin/settings/offices/branches',
  remote: 'settings',
  menu: { group: 'offices', order: 1 },
  fields: {
    name: named,
    governorateId: { type: 'ref', entity: 'governorates' },
    address: { type: 'string', max: 255, search: true },
    phone: { type: 'phone', max: 20 },
    email: { type: 'email', max: 150, list: false },
  },
});

export const administrativeSections = defineEntity({
  name: 'administrativeSections',
  path: '/admin/settings/administrative/sections',
  remote: 'settings',
  menu: { group: null, order: 110 },
  importable: true,
  fields: { name: named, branchId: { type: 'ref', entity: 'branches' }, description },
});

export const customerTypes = defineEntity({
  name: 'customerTypes',
  path: '/admin/customers/settings/types',
  remote: 'clients',
  menu: { group: 'clients', order: 2 },
  importable: true,
  fields: { name: named, description },
});
