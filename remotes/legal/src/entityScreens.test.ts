import { opponents, registry, sessions, type Entity, type Fields } from '@mizan/contracts';
import { recordReferences } from '@mizan/ui';
import { ENTITY_OVERRIDES } from './entityScreens';

const all = registry as readonly Entity<Fields>[];

describe('legal screens', () => {
  it('gives the opponent page its lawsuits tab from the registry (lawsuits.opponentIds)', () => {
    const keys = recordReferences(opponents as unknown as Entity<Fields>, all, () => true).map(
      (r) => `${r.entity.name}.${r.field}`,
    );
    expect(keys).toContain('lawsuits.opponentIds');
  });

  it('reaches a hearing page’s derived tabs from the hearings pointing at it, which the chain replaces', () => {
    const keys = recordReferences(sessions as unknown as Entity<Fields>, all, () => true).map(
      (r) => `${r.entity.name}.${r.field}`,
    );
    expect(keys).toContain('sessions.previousId');
    expect(ENTITY_OVERRIDES.sessions?.record).toBeTruthy();
  });
});
