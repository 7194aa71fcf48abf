// Per-spec-file set-up: the system under test (given by the runner, or started here when a spec
// file is run on its own), the shared browser, and a fresh browser context per test.
import { after, before } from 'node:test';
import { getBrowser, newContext, recordConsole, snap } from './browser.mjs';
import { ADMIN, startServer } from './server.mjs';
import { apiClient } from './api.mjs';

/**
 * @typedef {{ page: import('playwright-core').Page, context: import('playwright-core').BrowserContext, logs: string[] }} Session
 */

/**
 * @param {{ server?: { label: string, remotes?: Record<string, string> } }} [options] `server`: this
 *   file needs a server of its own (started with these settings) rather than the runner's.
 */
export function useSystem(options = {}) {
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  let server;
  /** @type {Map<string, Promise<ReturnType<typeof apiClient>>>} */
  const adminApis = new Map();
  const sys = {
    baseURL: process.env.E2E_BASE_URL ?? '',
    target: process.env.E2E_TARGET ?? 'sqlite',
    admin: ADMIN,
    /** An API client signed in as the administrator. */
    async adminApi(lang = 'ar') {
      // One session per spec file and language is enough for setting data up.
      if (!adminApis.has(lang)) {
        const api = apiClient(sys.baseURL, { lang });
        adminApis.set(
          lang,
          api.login(ADMIN.email, ADMIN.password).then(() => api),
        );
      }
      return adminApis.get(lang);
    },
    api: (lang = 'ar') => apiClient(sys.baseURL, { lang }),
    /** A new browser context and page (a person on another machine). */
    async session(options = {}) {
      if (!browser) throw new Error('browser not started');
      const context = await newContext(browser, { baseURL: sys.baseURL, ...options });
      // Local debugging only: a module whose default export adjusts each context (routes, tracing).
      if (process.env.E2E_CONTEXT_HOOK) await (await import(process.env.E2E_CONTEXT_HOOK)).default(context);
      const page = await context.newPage();
      const logs = recordConsole(page);
      return { context, page, logs };
    },
    /**
     * Runs `fn` with fresh sessions; on failure saves a screenshot of every page it opened and adds
     * the page's console errors to the message. Contexts are always closed.
     * @param {string} name artefact name
     * @param {(open: (options?: object) => Promise<Session>) => Promise<void>} fn
     */
    async with(name, fn) {
      /** @type {Session[]} */
      const opened = [];
      const open = async (options) => {
        const s = await sys.session(options);
        opened.push(s);
        return s;
      };
      try {
        await fn(open);
      } catch (error) {
        await Promise.all(opened.map((s, i) => snap(s.page, `failures/${sys.target}-${name}-${i}`)));
        const logs = opened.flatMap((s) => s.logs).slice(-15);
        if (error instanceof Error && logs.length)
          error.message += `\n--- browser console ---\n${logs.join('\n')}`;
        throw error;
      } finally {
        await Promise.all(opened.map((s) => s.context.close().catch(() => {})));
      }
    },
  };

  before(async () => {
    if (options.server || !sys.baseURL) {
      server = await startServer({
        ...options.server,
        label: `${options.server?.label ?? 'standalone'}-${sys.target}`,
      });
      sys.baseURL = server.url;
    }
    browser = await getBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  return sys;
}

/**
 * Polls `fn` until it returns without throwing (and, if it returns a value, a truthy one).
 * @template T
 * @param {() => Promise<T> | T} fn
 * @param {{ timeout?: number, interval?: number, message?: string }} [options]
 * @returns {Promise<T>}
 */
export async function eventually(fn, { timeout = 10_000, interval = 200, message } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const value = await fn();
      if (value !== false && value !== null && value !== undefined) return value;
      last = new Error(`got ${String(value)}`);
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const reason = last instanceof Error ? last.message : String(last);
      throw new Error(`${message ?? 'condition'} not met within ${timeout} ms: ${reason}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
