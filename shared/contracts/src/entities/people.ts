import { DOCUMENT_FILE_TYPES, defineEntity } from '../entity';

/** Permission rows are seeded from the registry; they are listed and described, never toggled. */
export const permissions = defineEntity({
  name: 'permissions',
  path: '/employees/permissions',
  remote: 'settings',
  menu: { group: 'employees', order: 3 },
  status: false,
  titleField: 'key',
  defaultSort: 'key:asc',
  fields: {
    key: { type: 'string', required: true, unique: true, max: 100, search: true, sort: true, code: true },
    group: { type: 'string', required: true, max: 100, filter: true, sort: true },
    description: { type: 'string', max: 255, search: true },
  },
});

export const roles = defineEntity({
  name: 'roles',
  path: '/employees/roles',
  remote: 'settings',
  menu: { group: 'employees', order: 2 },
  baned: true,
  fields: {
    name: { type: 'string', required: true, unique: true, max: 100, search: true, sort: true },
    description: { type: 'text', max: 1000 },
    /**
     * Its members practise law: the pickers of a lawsuit's, a hearing's, a client's or a power
     * of attorney's lawyers offer the employees holding such a role (`LAWYERS_ONLY`).
     */
    lawyers: { type: 'boolean', default: false, filter: true },
    permissionIds: { type: 'refs', entity: 'permissions', list: false },
  },
});

/**
 * An employee's grammatical gender: Arabic texts about what they did agree with it ("غيّرت فاطمة",
 * "غيّر أحمد"), through i18next's `_male`/`_female` context. Optional: without it the texts take
 * their plain (masculine) form.
 */
export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];

/** A stored or sent gender, or null when it is none of `GENDERS`. */
export const genderOf = (value: unknown): Gender | null =>
  (GENDERS as readonly unknown[]).includes(value) ? (value as Gender) : null;

/** What an employee's files may be: PDF, images, Word. */
export const EMPLOYEE_FILE_TYPES = DOCUMENT_FILE_TYPES;

export const employees = defineEntity({
  name: 'employees',
  path: '/employees/employees',
  remote: 'settings',
  menu: { group: 'employees', order: 1 },
  baned: true,
  fileDeletePath: '/delete/file/:ownerId/:fileId',
  optionDetail: ['jobTitle', 'email'],
  fields: {
    name: { type: 'string', required: true, max: 150, search: true, sort: true },
    gender: { type: 'enum', values: GENDERS, filter: true, list: false },
    email: { type: 'email', required: true, unique: true, max: 150, search: true, sort: true },
    username: { type: 'string', required: true, unique: true, max: 50, min: 3, search: true, sort: true },
    phone: { type: 'phone', max: 20, search: true },
    jobTitle: { type: 'string', max: 100 },
    password: { type: 'password', required: true, writeOnly: true, min: 8, max: 128, createOnly: true },
    roleIds: { type: 'refs', entity: 'roles', filter: true },
    branchId: { type: 'ref', entity: 'branches', list: false },
    administrativeSectionId: { type: 'ref', entity: 'administrativeSections', list: false },
    hireDate: { type: 'date', list: false },
    /** What an hour of their time is billed at, in minor units (time entries' default rate). */
    hourlyRate: { type: 'money', list: false },
    notes: { type: 'text', max: 2000, list: false },
    files: {
      type: 'files',
      accept: EMPLOYEE_FILE_TYPES,
      maxCount: 10,
      list: false,
    },
  },
});

/**
 * What a lawyer picker offers: active employees holding a role whose members are lawyers
 * (`roles.lawyers`), not the secretary nor an administrator who is not one.
 */
export const LAWYERS_ONLY = { where: { roleIds: { lawyers: true } } } as const;
