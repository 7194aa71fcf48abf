import { createContext } from 'react';
import type { RemoteRoutesLoader } from './loadRemoteRoutes';

/**
 * The loader of remote route lists; the browser app gives the federation one, tests a fake. Apart
 * from ./RemoteArea so that the page's providers do not download the remote area.
 */
export const RemoteLoaderContext = createContext<RemoteRoutesLoader | null>(null);
