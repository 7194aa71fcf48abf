import { createContext } from 'react';
import type { createBrowserRouter } from 'react-router-dom';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The page's router object, for what its hooks do not tell: where the router already is while
 * React is still rendering the screen there (see `useNavigationPending`).
 */
export const RouterInstanceContext = createContext<AppRouter | null>(null);
