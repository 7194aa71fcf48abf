// CI's check that a shared singleton's API never changes without its version.
import { currentApis, problems } from '../singletonApi';

describe('workspace singletons', () => {
  const apis = currentApis();

  it('have the API recorded for their version (bump the version when the API changes)', () => {
    expect(problems(undefined, apis)).toEqual([]);
  });

  it('fail when a recorded version comes with another API', () => {
    const [sdk] = apis;
    const changed = { ...sdk, hash: 'other', surface: [...sdk.surface, 'newExport: () => void'] };
    const record = { [sdk.pkg]: { versions: { [sdk.version]: sdk.hash }, surface: sdk.surface } };
    const [message] = problems(record, [changed]);
    expect(message).toContain(`the API of ${sdk.pkg} changed but its version (${sdk.version}) did not`);
    expect(message).toContain('  + newExport: () => void');
    // The same change with a new version is fine once recorded.
    const [major, minor] = sdk.version.split('.').map(Number);
    const next = `${major}.${minor! + 1}.0`;
    const bumped = { ...changed, version: next };
    expect(problems(record, [bumped])[0]).toContain(`${next} is not recorded`);
    const recorded = {
      [sdk.pkg]: { versions: { ...record[sdk.pkg].versions, [next]: 'other' }, surface: changed.surface },
    };
    expect(problems(recorded, [bumped])).toEqual([]);
  });
});
