import { compatibleVersions, incompatibilities } from './compat';

describe('singleton compatibility', () => {
  it('needs the same major, and the same minor below 1.0', () => {
    expect(compatibleVersions('19.3.1', '19.0.0')).toBe(true);
    expect(compatibleVersions('19.3.1', '20.0.0')).toBe(false);
    expect(compatibleVersions('0.1.0', '0.1.7')).toBe(true);
    expect(compatibleVersions('0.1.0', '0.2.0')).toBe(false);
    expect(compatibleVersions('latest', 'latest')).toBe(true);
  });

  it('names every singleton the remote was built against that the host cannot give it', () => {
    const host = {
      name: 'host',
      version: '1',
      shared: { react: '19.3.1', '@mizan/sdk': '0.1.0', antd: '6.6.8' },
    };
    const remote = {
      name: 'tasks',
      version: '0.2.0-1',
      // A package the host does not share is the remote's own business.
      shared: { react: '19.0.0', '@mizan/sdk': '0.2.0', antd: '7.0.0', 'left-pad': '1.0.0' },
    };
    expect(incompatibilities(host, remote)).toEqual([
      '@mizan/sdk 0.2.0 (remote) is not compatible with 0.1.0 (host)',
      'antd 7.0.0 (remote) is not compatible with 6.6.8 (host)',
    ]);
    expect(incompatibilities(host, { ...remote, shared: { react: '19.3.0' } })).toEqual([]);
  });
});
