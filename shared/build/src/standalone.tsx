import { createRoot } from 'react-dom/client';
import type { RemoteRoute } from './routes';

export function mountStandalone({ name, routes }: { name: string; routes: RemoteRoute[] }): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('missing #root');
  createRoot(root).render(
    <div>
      {name}: {routes.length}
    </div>,
  );
}
