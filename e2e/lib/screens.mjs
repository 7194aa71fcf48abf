// The main-screens check shared by specs/screens-<lng>.spec.mjs (one file per language, so that the
// two run in parallel): every main screen has no serious or critical axe-core
// violation and no raw translation key on the page (text or accessible attributes); a screen with
// findings leaves a screenshot in artifacts/screenshots/<lng>/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from './harness.mjs';
import {
  chooseUserMenuItem,
  expectDirection,
  languageButton,
  openMenuItem,
  paintSettled,
  signInToDashboard,
  waitForApp,
} from './app.mjs';
import { axeProblems } from './axe.mjs';
import { snap } from './browser.mjs';
import { LANGUAGES, loadLocale, t, tx } from './i18n.mjs';
import { CUSTOMERS, PROCURATIONS, createClientWithProcuration, discardDrawer, go } from './clients.mjs';
import { notifyAdmin } from './tasks.mjs';

/** Data of the record pages below, made through the API before the screens are walked. */
const fixture = { clientId: 0, clientName: '', procurationId: 0, procurationNumber: '' };

/**
 * The screens, reached as a person reaches them (menu and header), each with something that
 * shows it has rendered.
 * @type {{ name: string, open: (page: import('playwright-core').Page, lng: string) => Promise<void>, ready: (page: import('playwright-core').Page, lng: string) => Promise<void>, leave?: (page: import('playwright-core').Page, lng: string) => Promise<void> }[]}
 */
const SCREENS = [
  {
    name: 'dashboard',
    open: (page, lng) => openMenuItem(page, null, 'dashboard', lng),
    ready: (page, lng) =>
      page.getByRole('main').getByText(t(lng, 'dashboard:quickLinks'), { exact: true }).waitFor(),
  },
  ...['continents', 'countries', 'governorates', 'policeStations'].map((name) =>
    entityScreen('places', name),
  ),
  ...['employees', 'roles', 'permissions'].map((name) => entityScreen('employees', name)),
  {
    name: 'country-form',
    open: async (page, lng) => {
      await openMenuItem(page, 'places', 'countries', lng);
      const singular = t(lng, 'entities:countries.singular');
      await page.getByRole('button', { name: tx(lng, 'ui:actions.createNamed', { name: singular }) }).click();
    },
    ready: (page, lng) =>
      page
        .getByRole('dialog')
        .getByLabel(t(lng, 'entities:countries.fields.name'), { exact: true })
        .waitFor(),
  },
  ...[
    ['generalSystem', 'settings:system.general.title'],
    ['appearance', 'settings:system.appearance.title'],
    ['systemLogs', 'settings:logs.title'],
    ['auditTrail', 'settings:audit.title'],
  ].map(([item, heading]) => ({
    name: item,
    open: (page, lng) => openMenuItem(page, 'systemSettings', item, lng),
    ready: (page, lng) =>
      page
        .getByRole('main')
        .getByRole('heading', { name: tx(lng, heading) })
        .first()
        .waitFor(),
  })),
  {
    name: 'profile',
    open: async (page, lng) => {
      await chooseUserMenuItem(
        page,
        adminName,
        'layout:user.profile',
        () => page.waitForURL('**/admin/profile', { timeout: 5_000 }),
        lng,
      );
    },
    ready: (page, lng) =>
      page.getByRole('main').getByText(t(lng, 'layout:profile.details'), { exact: true }).waitFor(),
  },
];

/**
 * The clients area's screens, walked by specs/clients-screens-<lng>.spec.mjs beside the
 * main walk (each file stays within the runner's time per file): its lists, a client's record page
 * with its powers of attorney tab, a power of attorney's record page with its files, and the
 * client form showing the conflict warning. Their data is made through the API first.
 * @type {typeof SCREENS}
 */
const CLIENT_SCREENS = [
  ...['customers', 'customerTypes'].map((name) => entityScreen('clients', name)),
  entityScreen(null, 'procurations'),
  {
    name: 'customer-record',
    open: (page) => go(page, `${CUSTOMERS}/${fixture.clientId}`),
    ready: async (page, lng) => {
      await page.getByRole('main').getByRole('heading', { name: fixture.clientName }).waitFor();
      await page.getByRole('tab', { name: t(lng, 'entities:procurations.title'), exact: true }).click();
      await page
        .getByRole('tabpanel')
        .getByRole('link', { name: fixture.procurationNumber, exact: true })
        .waitFor();
    },
  },
  {
    name: 'procuration-record-files',
    open: (page) => go(page, `${PROCURATIONS}/${fixture.procurationId}`),
    ready: async (page, lng) => {
      await page.getByRole('main').getByRole('heading', { name: fixture.procurationNumber }).waitFor();
      await page.getByRole('tab', { name: t(lng, 'ui:record.tabs.files'), exact: true }).click();
      await page.getByRole('tabpanel').getByRole('listitem').nth(1).waitFor();
    },
  },
  {
    name: 'customer-form-conflicts',
    open: async (page, lng) => {
      await openMenuItem(page, 'clients', 'customers', lng);
      const singular = t(lng, 'entities:customers.singular');
      await page.getByRole('button', { name: tx(lng, 'ui:actions.createNamed', { name: singular }) }).click();
      await page
        .getByRole('dialog')
        .getByLabel(t(lng, 'entities:customers.fields.name'), { exact: true })
        // A variant spelling of the client made for the record page.
        .fill(fixture.clientName.replace('أحمد إبراهيم', 'احمد ابراهيم'));
    },
    ready: (page, lng) =>
      page
        .getByRole('dialog')
        .getByRole('region', { name: t(lng, 'ui:parties.conflicts.title') })
        .getByRole('link', { name: t(lng, 'ui:parties.conflicts.open', { name: fixture.clientName }) })
        .waitFor({ timeout: 15_000 }),
    leave: (page, lng) => discardDrawer(page, lng),
  },
];

function entityScreen(group, name) {
  return {
    name,
    open: (page, lng) => openMenuItem(page, group, name, lng),
    ready: async (page, lng) => {
      await page
        .getByRole('main')
        .getByRole('heading', { name: tx(lng, `entities:${name}.title`) })
        .waitFor();
      await page.getByRole('main').getByRole('table').first().waitFor();
    },
  };
}

/** First segments a raw key may start with: namespaces and every namespace's top-level keys. */
const KEY_HEADS = new Set(
  LANGUAGES.flatMap((lng) =>
    Object.entries(loadLocale(lng)).flatMap(([ns, tree]) => [ns, ...Object.keys(tree)]),
  ),
);
const KEY_LIKE = /(?<![\w@./:-])([a-zA-Z]\w*(?::[a-zA-Z]\w*)?(?:\.[a-zA-Z]\w*)+)(?![\w@/-])/g;

/** Raw i18n keys visible on the page or in its accessible names. */
async function rawKeys(page) {
  const texts = await page.evaluate(() => {
    const out = [document.body.innerText, document.title];
    for (const el of document.querySelectorAll('[aria-label],[placeholder],[title],[alt]')) {
      for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
        const v = el.getAttribute(attr);
        if (v) out.push(v);
      }
    }
    return out;
  });
  const found = new Set();
  for (const text of texts) {
    for (const m of text.matchAll(KEY_LIKE)) {
      const head = m[1].split(/[.:]/)[0];
      if (KEY_HEADS.has(head)) found.add(m[1]);
    }
  }
  return [...found];
}

/**
 * Lets the screen settle: no spinner in the content, no running animation of drawers. A drag and
 * drop area's live region for screen readers (dnd-kit's, always present) is no spinner.
 */
async function settled(page) {
  const spinners = page
    .getByRole('main')
    .getByRole('status')
    .and(page.locator(':not([id^="DndLiveRegion"])'));
  await eventually(async () => (await spinners.count()) === 0, {
    message: 'no loading spinner',
    timeout: 15_000,
  });
  // A badge whose count just changed shows its digits as a column that scrolls to the new one
  // (antd's scroll number); without motion the column stays in the page for a second, every
  // digit in it read as visible text by axe. Its end is the settled state.
  await eventually(
    () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.ant-scroll-number-only')].every((n) => n.childElementCount === 1),
      ),
    { message: 'badge counts settled', timeout: 5_000 },
  );
  await paintSettled(page);
}

/**
 * Raw keys and axe findings of the screen now shown (also used by other specs), with a screenshot
 * when there are any: a full-page capture and PNG encoding is Chromium's work that nobody reads
 * for a screen that passed.
 */
export async function check(page, lng, name) {
  await settled(page);
  const problems = [
    ...(await rawKeys(page)).map((k) => `raw translation key on the page: ${k}`),
    ...(await axeProblems(page)),
  ];
  if (problems.length) await snap(page, `${lng}/${name}`);
  return problems;
}

/** Keeps a screenshot and the console of the shared page when a screen's test fails. */
async function withFailureShot(sys, s, name, fn) {
  try {
    await fn();
  } catch (error) {
    await snap(s.page, `failures/${sys.target}-${name}`);
    if (error instanceof Error && s.logs.length)
      error.message += `\n--- browser console ---\n${s.logs.slice(-10).join('\n')}`;
    throw error;
  }
}

/** The administrator's name, shown on the header's user button (read once per file). */
let adminName = '';

/**
 * Declares the screens tests of one language: `main` (the login page and every main screen) or
 * `clients` (the clients area's screens, after signing in).
 */
export function screensSpec(lng, area = 'main') {
  const sys = useSystem();
  const screens = area === 'clients' ? CLIENT_SCREENS : SCREENS;

  describe(`${area} screens in ${lng === 'ar' ? 'Arabic' : 'English'}`, () => {
    /** @type {Awaited<ReturnType<typeof sys.session>>} */
    let s;
    before(async () => {
      adminName ||= (await (await sys.adminApi()).get('/employees/employees/profile')).name;
      // The header as on an ordinary day: the bell's badge shows unread notifications.
      if (area === 'main') await notifyAdmin(sys, 2);
      if (area === 'clients') {
        const made = await createClientWithProcuration(await sys.adminApi());
        Object.assign(fixture, {
          clientId: made.client.id,
          clientName: made.client.name,
          procurationId: made.procuration.id,
          procurationNumber: made.procuration.number,
        });
      }
      s = await sys.session();
      await s.page.goto('/login');
      if (lng === 'en') {
        await languageButton(s.page, 'ar').click();
        await expectDirection(s.page, 'ltr', 'en');
      }
    });
    after(() => s?.context.close());

    test('login', { timeout: 60_000 }, () =>
      withFailureShot(sys, s, `screens-${lng}-login`, async () => {
        await s.page.getByRole('button', { name: tx(lng, 'auth:login.submit') }).waitFor();
        let problems = [];
        try {
          // The login page is checked by the main walk; another walk only signs in.
          if (area === 'main') problems = await check(s.page, lng, 'login');
        } finally {
          // The other screens need the session whatever this one's findings.
          await signInToDashboard(s.page, sys.admin.email, sys.admin.password);
        }
        await expectDirection(s.page, lng === 'ar' ? 'rtl' : 'ltr', lng);
        assert.deepEqual(problems, [], `${lng} login`);
      }),
    );

    for (const screen of screens) {
      test(screen.name, { timeout: 60_000 }, () =>
        withFailureShot(sys, s, `screens-${lng}-${screen.name}`, async () => {
          // A drawer left open by the previous screen is closed first.
          await s.page.keyboard.press('Escape');
          await screen.open(s.page, lng);
          await waitForApp(s.page);
          await screen.ready(s.page, lng);
          try {
            assert.deepEqual(await check(s.page, lng, screen.name), [], `${lng} ${screen.name}`);
          } finally {
            // A screen that leaves a form with typed text closes it (discarding) for the next one.
            await screen.leave?.(s.page, lng);
          }
        }),
      );
    }
  });
}
