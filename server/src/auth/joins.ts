/**
 * Where the generated engine keeps the many-to-many references this module reads
 * (`refs` fields are stored in a join table `<table>_<field>`, contracts/entity.ts).
 */
export const ROLE_PERMISSIONS = { table: 'roles_permission_ids', owner: 'owner_id', ref: 'ref_id' } as const;
export const EMPLOYEE_ROLES = { table: 'employees_role_ids', owner: 'owner_id', ref: 'ref_id' } as const;
