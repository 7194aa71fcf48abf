import type { EntityRouteOverrides } from '@mizan/ui';

/**
 * Where the legal department's screens go beyond the generic pages (issue 10: being built);
 * everything not named here is the generic page alone.
 */
export const ENTITY_OVERRIDES: EntityRouteOverrides = {};
