import fs from 'node:fs';
import path from 'node:path';
import * as contracts from './index';
import * as light from './lightRoutes';
import type { AnyRoute } from './route';

/**
 * A route's path is written once, in its contract (docs/architecture.md, "Routes"): no other value
 * of the contracts holds it, and no code of the server, the SDK, the UI, the host or a remote
 * writes it as a string. Tests may write the URLs they call.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');

const isRoute = (value: unknown): value is AnyRoute =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AnyRoute).method === 'string' &&
  typeof (value as AnyRoute).path === 'string' &&
  'permission' in value;

/** Every route contract the contracts export, by `EXPORT.key`. */
function routesOf(exports: Record<string, unknown>): Map<string, AnyRoute> {
  const routes = new Map<string, AnyRoute>();
  for (const [name, value] of Object.entries(exports)) {
    if (!name.endsWith('_ROUTES') || typeof value !== 'object' || value === null) continue;
    for (const [key, route] of Object.entries(value)) if (isRoute(route)) routes.set(`${name}.${key}`, route);
  }
  return routes;
}

/** The routes the server registers (the light ones are their twins without summary and schemas). */
const routes = new Map([...routesOf(contracts)].filter(([name]) => !name.startsWith('LIGHT_')));
const paths = new Set([...routes.values()].map((route) => route.path));

/** Values that may hold a route's path: screens whose URL mirrors the API, report definitions routes are built from. */
const MAY_HOLD_PATHS = new Set(['ROUTES', 'MENU', 'FINANCE_REPORTS']);

/** The strings anywhere inside a value (objects and arrays, not functions), with where they are. */
function* stringsOf(value: unknown, at: string, seen = new Set<unknown>()): Generator<[string, string]> {
  if (typeof value === 'string') yield [at, value];
  if (typeof value !== 'object' || value === null || seen.has(value) || '_zod' in value) return;
  seen.add(value);
  for (const [key, inner] of Object.entries(value)) yield* stringsOf(inner, `${at}.${key}`, seen);
}

/** The source files of the code that calls or serves routes (tests and test helpers left out). */
function sourceFiles(): string[] {
  const roots = [
    'server/src',
    'shared/sdk/src',
    'shared/ui/src',
    'host/src',
    ...fs.readdirSync(path.join(ROOT, 'remotes')).map((name) => `remotes/${name}/src`),
  ];
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'test', 'testing', '__tests__'].includes(entry.name)) walk(full);
      } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.|\.spec\./.test(entry.name)) {
        files.push(full);
      }
    }
  };
  for (const root of roots) walk(path.join(ROOT, root));
  return files;
}

/**
 * How a path written by hand looks in code: the whole path (or under `/api`) in quotes, or, for a
 * path with parameters, its part before the first one opening a template or a concatenation.
 */
function writingsOf(routePath: string): string[] {
  const writings: string[] = [];
  for (const full of [routePath, `/api${routePath}`]) {
    writings.push(`'${full}'`, `"${full}"`, `\`${full}\``);
    const param = full.indexOf(':');
    if (param > 0 && full[param - 1] === '/') {
      const head = full.slice(0, param);
      writings.push(`\`${head}\${`, `'${head}' +`, `"${head}" +`);
    }
  }
  return writings;
}

describe('routes declared once', () => {
  it('finds the routes of every area, the light ones among them', () => {
    expect(routes.size).toBeGreaterThan(100);
    for (const [name, route] of routesOf(light)) {
      const full = routes.get(name.replace(/^LIGHT_/, ''));
      expect([name, full?.method, full?.path, full?.permission]).toEqual([
        name,
        route.method,
        route.path,
        route.permission,
      ]);
    }
  });

  it('gives the full routes the summaries and schemas their light twins leave out (fullRoute)', () => {
    const undocumented = [...routes].filter(([, route]) => !route.summary).map(([name]) => name);
    expect(undocumented).toEqual([]);
    expect(contracts.AUTH_ROUTES.login.body).toBe(contracts.loginBody);
    expect(contracts.AUTH_ROUTES.verifyResetToken.query).toBe(contracts.verifyResetTokenQuery);
    expect(contracts.PEOPLE_ROUTES.updateProfile.body).toBe(contracts.profileBody);
    expect(contracts.DASHBOARD_ROUTES.get.query).toBe(contracts.dashboardQuery);
    expect(contracts.FILE_ROUTES.download.query).toBe(contracts.fileDownloadQuery);
    expect(contracts.PEOPLE_ROUTES.security.permission).toBe(
      contracts.permissionKey(contracts.employees, 'update'),
    );
  });

  it('holds no path of a route in another value of the contracts', () => {
    const found: string[] = [];
    for (const [name, value] of Object.entries(contracts)) {
      if (name.endsWith('_ROUTES') || MAY_HOLD_PATHS.has(name)) continue;
      for (const [at, text] of stringsOf(value, name)) if (paths.has(text)) found.push(`${at}: ${text}`);
    }
    expect(found).toEqual([]);
  });

  it('has no code outside the contracts write a route path as a string', () => {
    const needles = [...paths].flatMap((routePath) =>
      writingsOf(routePath).map((w) => [w, routePath] as const),
    );
    const found: string[] = [];
    for (const file of sourceFiles()) {
      // Comments may name a route's path.
      const text = fs
        .readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const [needle, routePath] of needles)
        if (text.includes(needle)) found.push(`${path.relative(ROOT, file)}: ${routePath}`);
    }
    expect([...new Set(found)]).toEqual([]);
  });
});
