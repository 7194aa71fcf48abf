import { permissionKey, type Entity, type Fields } from '@mizan/contracts';
import { useAuth } from '@mizan/sdk';
import { entityElement, type EntityRouteOverrides, type EntityRow } from '@mizan/ui';
import type { ReactNode } from 'react';
import { EmployeeSecurityButton } from './employees/EmployeeSecurityButton';
import { ResetPasswordButton } from './employees/ResetPasswordButton';
import { PermissionsPage } from './permissions/PermissionsPage';
import { RoleForm } from './roles/RoleForm';

/**
 * Row actions of the employees list beyond the pattern, with `employees.update`: reset the
 * password, and the account's security (sessions, sign-in attempts, two-step verification).
 */
function EmployeeActions({ row }: { row: EntityRow }) {
  const { can } = useAuth();
  if (!can(permissionKey('employees', 'update'))) return null;
  return (
    <>
      <ResetPasswordButton row={row} />
      <EmployeeSecurityButton row={row} />
    </>
  );
}

/**
 * Where an entity's screen goes beyond the generic page, as react-admin resources override their
 * list or form; `element` is a whole screen of its own (permissions: a read-mostly catalogue).
 * Everything not named here is the generic page alone.
 */
export const ENTITY_OVERRIDES: EntityRouteOverrides = {
  roles: { renderForm: (props) => <RoleForm {...props} /> },
  employees: { extraActions: (row) => <EmployeeActions row={row} /> },
  permissions: { element: <PermissionsPage /> },
};

/** The screen of one entity: its own screen, or the generic page with its overrides. */
export function entityScreen(entity: Entity<Fields>): ReactNode {
  return entityElement(entity, ENTITY_OVERRIDES[entity.name]);
}
