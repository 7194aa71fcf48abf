import fs from 'node:fs';
import {
  clientExports,
  importedRouterNames,
  installedRouter,
  isServerOnly,
  routerSharedModule,
} from '../router';

describe('react-router-dom shared without its server side', () => {
  const { names } = installedRouter();

  it('keeps what a browser app uses and leaves out the server and framework-mode exports', () => {
    const kept = clientExports();
    for (const name of [
      'createBrowserRouter',
      'RouterProvider',
      'Link',
      'NavLink',
      'useNavigate',
      'matchRoutes',
    ])
      expect(kept).toContain(name);
    for (const name of ['ServerRouter', 'createStaticHandler', 'Scripts', 'HydratedRouter', 'createCookie'])
      expect(kept).not.toContain(name);
    expect(kept.every((name) => names.includes(name))).toBe(true);
    expect(names.length - kept.length).toBeGreaterThan(40);
  });

  it('matches server-only names by pattern', () => {
    expect(isServerOnly('UNSAFE_DataRouterContext')).toBe(true);
    expect(isServerOnly('unstable_RSCStaticRouter')).toBe(true);
    expect(isServerOnly('unstable_usePrompt')).toBe(false);
    expect(isServerOnly('createMemoryRouter')).toBe(false);
  });

  it('reads the names a source imports, value imports only', () => {
    const source = [
      "import { Link, useNavigate as go, type NavigateFunction } from 'react-router-dom';",
      "import type { Location } from 'react-router-dom';",
      "import {\n  Outlet,\n  Route,\n} from 'react-router-dom';",
      "import { Button } from 'antd';",
    ].join('\n');
    expect(importedRouterNames(source)).toEqual(['Link', 'useNavigate', 'Outlet', 'Route']);
  });

  it('shares one singleton whose module re-exports exactly the kept names', () => {
    const config = routerSharedModule()['react-router-dom'];
    expect(config).toMatchObject({
      singleton: true,
      shareKey: 'react-router-dom',
      version: installedRouter().version,
    });
    const text = fs.readFileSync(config.import, 'utf8');
    const exported = /export \{ ([^}]*) \} from "([^"]+)"/.exec(text);
    expect(exported?.[1]?.split(', ')).toEqual(clientExports());
    expect(fs.existsSync(exported![2]!)).toBe(true);
  });
});
