import { render } from '@testing-library/react';
import type { RemoteRoutesLoader } from './loadRemoteRoutes';
import { RemoteLoaderContext } from './remoteLoaderContext';
import { PREPARE_DELAY_MS, usePrepareRemotes } from './usePrepareRemotes';

function Shell() {
  usePrepareRemotes();
  return null;
}

const withLoader = (loader: RemoteRoutesLoader) => (
  <RemoteLoaderContext.Provider value={loader}>
    <Shell />
  </RemoteLoaderContext.Provider>
);

describe('usePrepareRemotes', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('prepares the remotes once, after the first screen has had its moment', () => {
    const prepare = jest.fn(async () => undefined);
    const loader = Object.assign(async () => [], { prepare });
    const { rerender } = render(withLoader(loader));
    rerender(withLoader(loader));
    jest.advanceTimersByTime(PREPARE_DELAY_MS - 1);
    expect(prepare).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('prepares nothing when the shell is gone before then', () => {
    const prepare = jest.fn(async () => undefined);
    const { unmount } = render(withLoader(Object.assign(async () => [], { prepare })));
    unmount();
    jest.advanceTimersByTime(PREPARE_DELAY_MS * 2);
    expect(prepare).not.toHaveBeenCalled();
  });
});
