// Layout holds at every width: on every screen of the menu (and the profile, record pages, a lawsuit's
// deadlines tab, the role form with its permission matrix), in Arabic and English, on a 1,440×900 desktop and a 390×844 phone,
// the page is never wider than the window (`scrollWidth <= innerWidth`): wide tables scroll inside
// their card, the header and the side menu stay on screen; no chart's axis label runs past its chart.
// On the desktop no entity list scrolls sideways: its default columns all show. On the phone a toast
// raised while a form's drawer covers the screen leaves the drawer's title in view. One sign-in for
// the whole file; rows with long names are made through the API so that tables have something wide
// to show.
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { eventually, useSystem } from '../lib/harness.mjs';
import {
  createEmployee,
  expectDirection,
  languageButton,
  paintSettled,
  signInToDashboard,
  waitForApp,
} from '../lib/app.mjs';
import { snap } from '../lib/browser.mjs';
import { CONTRACTS_DIST } from '../lib/paths.mjs';
import { uniq } from '../lib/api.mjs';
import { t, tx } from '../lib/i18n.mjs';
import { CUSTOMERS, PROCURATIONS, createClientWithProcuration } from '../lib/clients.mjs';
import { LAWSUITS, createLegalParties } from '../lib/legal.mjs';

const { MENU, isMenuGroup, ROUTES, registry } = createRequire(import.meta.url)(CONTRACTS_DIST);

/** Names of the entities, whose list screens are named after them. */
const ENTITIES = new Set(registry.map((entity) => entity.name));

/** Every screen of the menu, by route, plus the host's profile page. */
const SCREENS = [
  ...MENU.flatMap((entry) => (isMenuGroup(entry) ? entry.items : [entry])).map((item) => ({
    name: item.key,
    path: item.route,
  })),
  { name: 'profile', path: ROUTES.profile },
];

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
];

/** Moves within the single-page app without a reload (one sign-in, one page for the file). */
async function go(page, path) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((url) => url.pathname + url.search === path);
}

/** The screen has rendered: main content, no spinner, tables and images laid out. */
async function settled(page) {
  await waitForApp(page);
  await eventually(
    async () =>
      (await page.locator('main [role=status], main .ant-spin-spinning, main .ant-skeleton').count()) === 0,
    { message: 'no spinner in the content', timeout: 15_000 },
  );
  await paintSettled(page);
  // A screen that crashed shows the remote's "unavailable" or the page's error result instead.
  const broken = await page.locator('main .ant-result-warning, main .ant-result-error').count();
  if (broken > 0) throw new Error('the screen shows an error result instead of its content');
}

/**
 * An entity's list screen shows its own list, not the previous screen's still on view while the
 * new one loads (navigations are transitions); other screens pass at once.
 */
async function newList(page, lng, name) {
  if (!ENTITIES.has(name)) return;
  const title = t(lng, `entities:${name}.title`);
  await page
    .waitForFunction(
      (expected) => {
        const heading = document.querySelector('main .mizan-entity-page h3');
        return !heading || heading.textContent === expected;
      },
      title,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  await paintSettled(page);
}

/** How far the page is wider than the window, with the widest element that sticks out. */
async function overflow(page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const excess = document.documentElement.scrollWidth - width;
    if (excess <= 0) return null;
    let culprit = '';
    let widest = 0;
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      const out = Math.max(r.right - width, -r.left);
      if (out > widest && r.width > 0) {
        widest = out;
        culprit = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].slice(0, 2).join('.')}`;
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, culprit };
  });
}

/**
 * Entity tables wider than their scrolling box (their last columns hidden behind a sideways
 * scroll), each as `widths: column widths`.
 */
async function scrollingTables(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('main .mizan-entity-table .ant-table-content')]
      .filter((box) => box.scrollWidth > box.clientWidth)
      .map((box) => {
        const columns = [...box.querySelectorAll('thead th')].map(
          (th) => `${th.textContent?.trim() || '·'} ${Math.round(th.getBoundingClientRect().width)}`,
        );
        return `${box.scrollWidth}px > ${box.clientWidth}px: ${columns.join(', ')}`;
      }),
  );
}

/** Where the open drawer's header and the toasts on screen overlap, as `toast text`; none: []. */
async function toastsOverDrawerHeader(page) {
  return page.evaluate(() => {
    const headers = [...document.querySelectorAll('.ant-drawer-header')]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.height > 0);
    return [...document.querySelectorAll('.ant-message-notice')].flatMap((notice) => {
      const t = notice.getBoundingClientRect();
      const over = headers.some(
        (h) => t.left < h.right && h.left < t.right && t.top < h.bottom && h.top < t.bottom,
      );
      return over ? [`${notice.textContent?.trim()} (${Math.round(t.top)}-${Math.round(t.bottom)}px)`] : [];
    });
  });
}

/**
 * Chart labels drawn outside their chart (an SVG clips them): each text of a chart's SVG whose box
 * runs past the SVG's own by more than a pixel, as `text (side)`.
 */
async function cutChartLabels(page) {
  return page.evaluate(() => {
    const cut = [];
    for (const svg of document.querySelectorAll('main div[role=img] svg')) {
      const box = svg.getBoundingClientRect();
      for (const text of svg.querySelectorAll('text')) {
        const r = text.getBoundingClientRect();
        // A scrolling legend clips the items of its other pages on purpose.
        if (!text.textContent?.trim() || r.width === 0 || text.closest('[clip-path]')) continue;
        const sides = [
          r.left < box.left - 1 && 'left',
          r.right > box.right + 1 && 'right',
          r.top < box.top - 1 && 'top',
          r.bottom > box.bottom + 1 && 'bottom',
        ].filter(Boolean);
        if (sides.length) cut.push(`${text.textContent.trim()} (${sides.join(', ')})`);
      }
    }
    return cut;
  });
}

describe('layout holds at every width', () => {
  const sys = useSystem();
  /** @type {Awaited<ReturnType<typeof sys.session>>} */
  let s;

  before(async () => {
    // Long names: the widest text a list or the header must hold without widening the page.
    const api = await sys.adminApi();
    const long = `${'مكتب الاستشارات القانونية والتحكيم التجاري '.repeat(2).trim()} ${uniq()}`.slice(0, 95);
    const continent = await api.post('/admin/settings/places/continents', { name: long });
    await api.post('/admin/settings/places/countries', {
      name: `${long.slice(0, 80)} ${uniq()}`,
      code: 'ZZ',
      nationality: long,
      continentId: continent.id,
    });
    const { employee } = await createEmployee(api, { name: long });
    await api.post('/employees/roles', { name: `دور ${long.slice(0, 80)} ${uniq()}`, description: long });
    // Record pages (not in the menu): a client with a long name and their power of attorney.
    const made = await createClientWithProcuration(api, { name: `${long.slice(0, 120)} ${uniq()}` });
    // A lawsuit's deadlines tab: a deadline with a long legal basis, its actions on the row.
    const parties = await createLegalParties(api);
    const lawsuit = await api.post(LAWSUITS, {
      fileNumber: `LAYOUT-${uniq()}`,
      caseNumber: `${uniq()}`.slice(0, 12),
      courtId: parties.court.id,
      customerIds: [made.client.id, parties.client.id],
      opponentIds: [parties.opponent.id],
      lawyerIds: [employee.id],
      filingDate: '2026-01-04',
    });
    // The lists with the most default columns, filled: lawsuits (above), hearings, tasks, invoices.
    await api.post('/admin/finance/invoices', { customerId: made.client.id, lawsuitId: lawsuit.id });
    await api.post('/admin/lawsuits/sessions', { lawsuitId: lawsuit.id, date: '2026-02-01', time: '10:00' });
    await api.post('/admin/lawsuits/tasks', {
      title: `${long} ${uniq()}`.slice(0, 200),
      priority: 'urgent',
      assigneeIds: [employee.id],
      dueAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      lawsuitId: lawsuit.id,
    });
    await api.post('/admin/lawsuits/deadlines', {
      lawsuitId: lawsuit.id,
      action: 'appeal',
      startDate: '2026-01-04',
      dueDate: '2026-02-03',
      legalBasis: long,
    });
    SCREENS.push(
      { name: 'customer-record', path: `${CUSTOMERS}/${made.client.id}` },
      { name: 'procuration-record', path: `${PROCURATIONS}/${made.procuration.id}` },
      { name: 'lawsuit-deadlines', path: `${LAWSUITS}/${lawsuit.id}?tab=deadlines` },
    );

    s = await sys.session();
    await signInToDashboard(s.page, sys.admin.email, sys.admin.password);
  });
  after(() => s?.context.close());

  for (const lng of ['ar', 'en']) {
    for (const viewport of VIEWPORTS) {
      test(
        `${lng} ${viewport.name} ${viewport.width}px: no page wider than the window`,
        { timeout: 180_000 },
        async () => {
          const { page } = s;
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          // No reload: the session's device fingerprint includes the screen size, and one sign-in
          // serves the whole file (the app follows the resize as a browser window's would).
          await go(page, SCREENS[0].path);
          await waitForApp(page);
          const dir = lng === 'ar' ? 'rtl' : 'ltr';
          if ((await page.evaluate(() => document.documentElement.lang)) !== lng) {
            await languageButton(page, lng === 'ar' ? 'en' : 'ar').click();
          }
          await expectDirection(page, dir, lng);
          const problems = [];
          for (const screen of SCREENS) {
            await page.keyboard.press('Escape');
            await go(page, screen.path);
            try {
              await settled(page);
              await newList(page, lng, screen.name);
            } catch (error) {
              await snap(page, `failures/layout-${lng}-${viewport.name}-${screen.name}`);
              problems.push(
                `${screen.name} (${screen.path}) did not render: ${String(error).split('\n')[0]}`,
              );
              // Start again from the dashboard so that one broken screen does not hide the others.
              await go(page, SCREENS[0].path);
              await waitForApp(page);
              continue;
            }
            // The dashboard's charts load in a chunk of their own: their labels are checked drawn.
            if (screen.name === 'dashboard')
              await page.locator('main div[role=img] svg text').first().waitFor({ timeout: 15_000 });
            const cut = await cutChartLabels(page);
            if (cut.length) {
              problems.push(`${screen.name}: chart labels cut at the chart's edge: ${cut.join('; ')}`);
              await snap(page, `layout/${lng}-${viewport.name}-${screen.name}-charts`);
            }
            if (viewport.name === 'desktop') {
              const scrolling = await scrollingTables(page);
              if (scrolling.length) {
                problems.push(`${screen.name}: a list scrolls sideways: ${scrolling.join('; ')}`);
                await snap(page, `layout/${lng}-${viewport.name}-${screen.name}-table`);
              }
            }
            const found = await overflow(page);
            if (found) {
              problems.push(
                `${screen.name} (${screen.path}): ${found.scrollWidth}px > ${found.width}px, e.g. ${found.culprit}`,
              );
              await snap(page, `layout/${lng}-${viewport.name}-${screen.name}`);
            }
          }
          // The role form's permission matrix (a drawer over the roles list).
          await go(page, SCREENS.find((x) => x.name === 'roles').path);
          await settled(page);
          const singular = t(lng, 'entities:roles.singular');
          await page
            .getByRole('button', { name: tx(lng, 'ui:actions.createNamed', { name: singular }) })
            .click();
          await page
            .getByRole('dialog')
            .getByLabel(t(lng, 'entities:roles.fields.name'), { exact: true })
            .waitFor();
          await paintSettled(page);
          const matrix = await overflow(page);
          if (matrix) {
            problems.push(`role form: ${matrix.scrollWidth}px > ${matrix.width}px, e.g. ${matrix.culprit}`);
            await snap(page, `layout/${lng}-${viewport.name}-role-form`);
          }
          await page.keyboard.press('Escape');
          if (viewport.name === 'phone') {
            // A toast while a form's drawer covers the screen: the pickers' options fail to load.
            await go(page, SCREENS.find((x) => x.name === 'countries').path);
            await settled(page);
            await page
              .getByRole('button', {
                name: tx(lng, 'ui:actions.createNamed', { name: t(lng, 'entities:countries.singular') }),
              })
              .click();
            const form = page.getByRole('dialog');
            const continent = form.getByLabel(t(lng, 'entities:countries.fields.continentId'), {
              exact: true,
            });
            await continent.waitFor();
            await paintSettled(page);
            // The continents searched for do not load (the server is unreachable): an error toast.
            await page.route('**/api/options/**', (route) => route.abort('failed'));
            try {
              await continent.click();
              await page.keyboard.type('zz');
              await page.locator('.ant-message-notice').first().waitFor();
              await paintSettled(page);
              const covered = await toastsOverDrawerHeader(page);
              if (covered.length) {
                problems.push(`a toast covers the drawer's title: ${covered.join('; ')}`);
                await snap(page, `layout/${lng}-${viewport.name}-toast-over-drawer`);
              }
            } finally {
              await page.unroute('**/api/options/**');
            }
            // The continent's dropdown, then the drawer.
            await page.keyboard.press('Escape');
            await page.keyboard.press('Escape');
          }
          assert.deepEqual(problems, [], `${lng} at ${viewport.width}px`);
        },
      );
    }
  }
});
