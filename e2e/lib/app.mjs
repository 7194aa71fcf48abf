// What a person does in the application, in one place, so that specs read as the flows they test.
import { eventually } from './harness.mjs';
import { uniq } from './api.mjs';
import { escapeRegExp, t } from './i18n.mjs';

/** Opens the login page and signs in. Resolves once the URL left /login. */
export async function signIn(page, email, password, { path = '/login' } = {}) {
  await page.goto(path);
  const form = page
    .locator('form')
    .filter({ has: page.locator('input[type=password]') })
    .first();
  await form.waitFor();
  await form
    .locator('input:not([type=password]):not([type=hidden]):not([type=checkbox])')
    .first()
    .fill(email);
  await form.locator('input[type=password]').first().fill(password);
  await form.locator('button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 20_000 });
}

/** Signs in and waits for the dashboard (the usual start of a spec). */
export async function signInToDashboard(page, email, password) {
  await signIn(page, email, password);
  await page.waitForURL('**/admin/dashboard', { timeout: 20_000 });
  await waitForApp(page);
}

/** Waits until the lazily loaded main view replaced the full-page spinner. */
export async function waitForApp(page) {
  await page.locator('main, [role=main]').first().waitFor({ timeout: 20_000 });
  await eventually(
    async () => (await page.locator('.ant-spin-fullscreen, [data-testid=app-loading]').count()) === 0,
    {
      message: 'full-page spinner gone',
      timeout: 20_000,
    },
  );
}

/** `<html>` attributes the app sets for its language and direction. */
export async function documentLanguage(page) {
  return page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
}

/** Waits for `<html dir>` (and lang) to become the given ones. */
export async function expectDirection(page, dir, lang) {
  return eventually(
    async () => {
      const doc = await documentLanguage(page);
      if (doc.dir !== dir || (lang && !doc.lang.startsWith(lang)))
        throw new Error(`html is ${JSON.stringify(doc)}`);
      return doc;
    },
    { message: `html[dir=${dir}]${lang ? `[lang=${lang}]` : ''}` },
  );
}

export const hasArabic = (s) => /[\u0600-\u06FF]/.test(s);

/**
 * Creates an employee through the API as the administrator (so that, as any employee created by
 * someone else, they must change the password at first sign-in).
 * @param {ReturnType<import('./api.mjs').apiClient>} adminApi
 * @param {{ roleNames?: string[], roleIds?: number[], name?: string }} [options]
 */
export async function createEmployee(adminApi, options = {}) {
  const id = uniq();
  const password = `Start-${id}-9a!`;
  let roleIds = options.roleIds ?? [];
  if (options.roleNames) {
    const roles = await adminApi.get('/employees/roles?pageSize=100');
    roleIds = options.roleNames.map((n) => {
      const role = roles.items.find((r) => r.name === n);
      if (!role) throw new Error(`role ${n} not found among ${roles.items.map((r) => r.name).join(', ')}`);
      return role.id;
    });
  }
  const form = new FormData();
  form.set('name', options.name ?? `موظف اختبار ${id}`);
  form.set('email', `e2e-${id}@mizan.test`);
  form.set('username', `e2e_${id}`);
  form.set('password', password);
  for (const r of roleIds) form.append('roleIds', String(r));
  const employee = await adminApi.post('/employees/employees', form);
  return { employee, email: `e2e-${id}@mizan.test`, username: `e2e_${id}`, password };
}

/**
 * An employee created as `createEmployee` does, whose first sign-in's password change is already
 * done through the API: ready to sign in to the dashboard. Returns their id, name, e-mail and
 * current password.
 * @param {{ api: () => ReturnType<import('./api.mjs').apiClient> }} sys
 * @param {ReturnType<import('./api.mjs').apiClient>} adminApi
 * @param {{ roleNames?: string[], roleIds?: number[], name?: string }} [options]
 */
export async function createReadyEmployee(sys, adminApi, options = {}) {
  const person = await createEmployee(adminApi, options);
  const own = sys.api();
  await own.login(person.email, person.password);
  const password = `${person.password}-2`;
  await own.put('/employees/employees/changePassword', {
    currentPassword: person.password,
    newPassword: password,
  });
  return { id: person.employee.id, name: person.employee.name, email: person.email, password };
}

/** Every permission row (id and key), all pages (the list gives at most 100 a page). */
export async function allPermissions(api) {
  const rows = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/employees/permissions?page=${page}&pageSize=100`);
    rows.push(...res.items);
    if (rows.length >= res.total || res.items.length === 0) return rows;
  }
}

/** Texts of the toasts (antd messages) now on screen, oldest first. */
export async function toasts(page) {
  return page.locator('.ant-message-notice').allInnerTexts();
}

/** Waits for a toast and returns its text; with `text`, waits for that one. */
export async function toast(page, text) {
  return eventually(
    async () => {
      const all = (await toasts(page)).map((s) => s.trim()).filter(Boolean);
      if (text === undefined) return all.at(-1);
      return all.find((s) => s === text || s.includes(text));
    },
    { message: text ? `toast "${text}"` : 'a toast' },
  );
}

/**
 * Opens a screen through the side menu, as a person would: the group (when given) then the item.
 * Keys are those of the `menu` namespace (`groups.<group>`, `items.<item>`).
 */
export async function openMenuItem(page, group, item, lng = 'ar') {
  const nav = page.getByRole('navigation', { name: 'main' });
  // The link may carry a status tag after its label ("unavailable" when its remote is down).
  const link = nav.getByRole('link', {
    name: new RegExp(`^${escapeRegExp(t(lng, `menu:items.${item}`))}(\\s|$)`),
  });
  if (group && !(await link.isVisible())) {
    // The group title's accessible name also holds its icon's label, so it is found by its text.
    await nav.getByText(t(lng, `menu:groups.${group}`), { exact: true }).click();
  }
  // A click that lands while the group is still unfolding can miss the moving link (seen in CI on
  // PostgreSQL: the menu open, the URL unchanged).
  const href = await link.getAttribute('href');
  await clickUntil(
    () => link.click(),
    async () => {
      if (href) await eventually(() => new URL(page.url()).pathname === href, { timeout: 5_000 });
    },
    `menu item "${item}"`,
  );
}

/** The messages shown under a form field (antd ties them to the input as `<id>_help`). */
export async function fieldHelp(scope, label) {
  const id = await scope.getByLabel(label, { exact: true }).getAttribute('id');
  if (!id) throw new Error(`field "${label}" has no id to tie its messages to`);
  return scope.locator(`[id="${id}_help"]`);
}

/**
 * The language switch. Found by its accessible name or its visible text (the other language's
 * name), so that either way of labelling it keeps the specs working.
 */
export function languageButton(page, lng) {
  const name = new RegExp(
    `${escapeRegExp(t(lng, 'layout:language.label'))}|${escapeRegExp(t(lng, 'layout:language.switch'))}`,
  );
  return page.getByRole('button', { name }).first();
}

/**
 * Waits until `locator`'s element and everything in it have finished their animations (an antd
 * modal zooming in): a click aimed at a button that is still growing into place can land beside
 * it, and then nothing happens (seen in CI for the conflict dialog's "review differences").
 */
export async function animationsDone(locator) {
  await locator.evaluate((element) =>
    Promise.all(element.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))),
  );
}

/**
 * Waits until the page's finite animations and transitions have ended (a drawer sliding in, a
 * table fading its rows) and the browser has painted twice, instead of a fixed pause: usually a
 * few frames. Endless ones (a spinner, a skeleton's shimmer) are not waited for; after `timeout` ms
 * the page is taken as it is, as a fixed pause would have.
 */
export async function paintSettled(page, timeout = 3_000) {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { polling: 'raf', timeout },
    )
    .catch(() => undefined);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Chooses an item of the header's user menu (profile, about, sign-out), as a person would, and
 * waits for `done` (a function that resolves once the choice took effect). A click that lands while
 * the menu is still opening is lost: the menu stays open and nothing happens (seen in CI for
 * sign-out and for "about"), so the person clicks again (`clickUntil`).
 */
export async function chooseUserMenuItem(page, userName, itemKey, done, lng = 'ar') {
  const item = page.getByRole('menuitem', { name: t(lng, itemKey) });
  await clickUntil(
    async () => {
      if (!(await item.isVisible()))
        await page.locator('header').getByRole('button', { name: userName, exact: true }).click();
      await item.click();
    },
    done,
    `user menu "${itemKey}"`,
  );
}

/**
 * Runs `click`, then `done` (which throws when the click took no effect); a click that took none is
 * made again, as a person would, up to three times, each miss logged with `what`.
 */
async function clickUntil(click, done, what) {
  for (let attempt = 1; ; attempt++) {
    await click();
    try {
      await done();
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`[e2e] ${what} took no effect at click ${attempt}: ${error.message}`);
    }
  }
}
