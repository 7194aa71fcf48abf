import { MAX_PAGE_SIZE, permissions } from '@mizan/contracts';
import { entityApi, entityKeys } from '@mizan/sdk';
import { useQuery } from '@tanstack/react-query';
import type { PermissionRow } from './permissionMatrix';

/** Every permission row, reading `GET /api/employees/permissions` page after page (100 a page). */
export async function fetchAllPermissions(): Promise<PermissionRow[]> {
  const rows: PermissionRow[] = [];
  for (let page = 1; ; page++) {
    const result = await entityApi.list(permissions, { page, pageSize: MAX_PAGE_SIZE, sort: 'key:asc' });
    rows.push(...(result.items as unknown as PermissionRow[]));
    // Stop on a short page too, so a total that changed meanwhile cannot loop forever.
    if (rows.length >= result.total || result.items.length < MAX_PAGE_SIZE) return rows;
  }
}

/** The whole permission catalogue; it only changes with a release, so it is kept for the session. */
export function usePermissionCatalog() {
  return useQuery({
    queryKey: entityKeys.list(permissions.name, { all: true }),
    queryFn: fetchAllPermissions,
    staleTime: Infinity,
  });
}
