import { opponents } from '@mizan/contracts';
import { applyKindRules } from '../clients/customers';
import type { EntityServices } from '../engine/service';

const OPTIONAL_ID = { entity: opponents.name, required: false } as const;

/**
 * Opponents beyond the generic pattern (call once per app, from the legal plugin): the clients'
 * kind rules (`applyKindRules`) with the identifier optional, since the office often does not know
 * an opponent's: a national ID or commercial registration, when given, is well formed for the
 * kind (422 on the field), and the other kind's identifier is cleared.
 */
export function installOpponentHooks(entities: EntityServices): void {
  entities.hooks(opponents.name, {
    beforeCreate(_ctx, values) {
      applyKindRules(values, values, OPTIONAL_ID);
    },
    beforeUpdate(_ctx, values, before) {
      applyKindRules(values, { ...before, ...values }, OPTIONAL_ID);
    },
  });
}
