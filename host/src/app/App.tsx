import { queryClient, sdkStore } from '@mizan/sdk';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { RouterProvider } from 'react-router-dom';
import { RemoteLoaderContext } from '../remotes/remoteLoaderContext';
import type { RemoteRoutesLoader } from '../remotes/loadRemoteRoutes';
import { RouterInstanceContext, type AppRouter } from './routerInstance';
import { ThemeProvider } from '../theme/ThemeProvider';

/** The providers of the page, outermost first: one jotai store, one query cache (both the SDK's). */
export function App({ router, loader }: { router: AppRouter; loader: RemoteRoutesLoader }) {
  return (
    <JotaiProvider store={sdkStore}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          <RemoteLoaderContext.Provider value={loader}>
            <RouterInstanceContext.Provider value={router}>
              <RouterProvider router={router} />
            </RouterInstanceContext.Provider>
          </RemoteLoaderContext.Provider>
        </ThemeProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
