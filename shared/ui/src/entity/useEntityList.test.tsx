import { Suspense } from 'react';
import { waitFor } from '@testing-library/react';
import { countries } from '@mizan/contracts';
import { useEntityList } from './useEntityList';
import { startApiServer } from '../test/apiServer';
import { pointSdkAt, renderAt, signIn } from '../testing/render';

const ROUTE = '/admin/settings/places/countries';

let api: Awaited<ReturnType<typeof startApiServer>>;
beforeEach(async () => {
  signIn(['countries.view']);
  api = await startApiServer([{ entity: countries, rows: [] }]);
  pointSdkAt(api.url);
});
afterEach(() => api.close());

function List() {
  useEntityList(countries);
  return <p>list</p>;
}

/** A part of the screen still loading: the screen is rendered, never committed. */
const pending = new Promise<never>(() => undefined);
function StillLoading(): never {
  throw pending;
}

describe('useEntityList', () => {
  it('asks for the rows while its screen is still being prepared, before it is shown', async () => {
    renderAt(
      ROUTE,
      <Suspense fallback={<p>loading</p>}>
        <List />
        <StillLoading />
      </Suspense>,
    );
    await waitFor(() => expect(api.calls(countries.path)).toHaveLength(1));
  });
});
