import { queryClient, sdkStore } from '@mizan/sdk';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { RemoteLoaderContext } from '../remotes/remoteLoaderContext';
import type { RemoteRoutesLoader } from '../remotes/loadRemoteRoutes';
import { ThemeProvider } from '../theme/ThemeProvider';

type Router = ReturnType<typeof createBrowserRouter>;

/** The providers of the page, outermost first: one jotai store, one query cache (both the SDK's). */
export function App({ router, loader }: { router: Router; loader: RemoteRoutesLoader }) {
  return (
    <JotaiProvider store={sdkStore}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          <RemoteLoaderContext.Provider value={loader}>
            <RouterProvider router={router} />
          </RemoteLoaderContext.Provider>
        </ThemeProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
