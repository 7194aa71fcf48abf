import { permissionKey, type Entity, type Fields } from '@mizan/contracts';
import { useAuth } from '@mizan/sdk';
import { EntityPage, type EntityPageProps, type EntityRow } from '@mizan/ui';
import type { ReactNode } from 'react';
import { ResetPasswordButton } from './employees/ResetPasswordButton';
import { PermissionsPage } from './permissions/PermissionsPage';
import { RoleForm } from './roles/RoleForm';

type Overrides = Omit<EntityPageProps, 'entity'>;

/** Row actions of the employees list beyond the pattern: reset password (with `employees.update`). */
function EmployeeActions({ row }: { row: EntityRow }) {
  const { can } = useAuth();
  return can(permissionKey('employees', 'update')) ? <ResetPasswordButton row={row} /> : null;
}

/**
 * Where an entity's screen goes beyond the generic page, as react-admin resources override their
 * list or form. Everything not named here is the generic page alone.
 */
export const ENTITY_OVERRIDES: Partial<Record<string, Overrides>> = {
  roles: { renderForm: (props) => <RoleForm {...props} /> },
  employees: { extraActions: (row) => <EmployeeActions row={row} /> },
};

/** Entities whose whole screen is their own (permissions: a read-mostly catalogue). */
export const ENTITY_SCREENS: Partial<Record<string, () => ReactNode>> = {
  permissions: () => <PermissionsPage />,
};

/** The screen of one entity: its own screen, or the generic page with its overrides. */
export function entityScreen(entity: Entity<Fields>): ReactNode {
  const own = ENTITY_SCREENS[entity.name];
  if (own) return own();
  return <EntityPage entity={entity} {...ENTITY_OVERRIDES[entity.name]} />;
}
