// How long a screen takes to show its content when opened by direct link (or refresh) against a
// menu click, on the production build. Not a test: a measurement to compare before and after a
// change to the host's start-up.
//
//   node e2e/lib/openTiming.mjs [runs]      (after npm run build)
import { getBrowser, newContext } from './browser.mjs';
import { ADMIN, startServer } from './server.mjs';
import { signInToDashboard } from './app.mjs';
import { t } from './i18n.mjs';

const SCREENS = [
  { route: '/admin/settings/places/countries', item: 'countries', group: 'places' },
  { route: '/admin/employees/roles', item: 'roles', group: 'employees' },
  { route: '/admin/settings/courts/judges', item: 'judges', group: 'courts' },
];

/** Content shown: the page heading and its table, no spinner left in the main area. */
async function shown(page, item) {
  const main = page.getByRole('main');
  await main.getByRole('heading', { name: t('ar', `entities:${item}.title`) }).waitFor({ timeout: 30_000 });
  await main
    .locator('table tbody tr.ant-table-row, table tbody .ant-empty')
    .first()
    .waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('main [role=status], .ant-spin-fullscreen'));
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]} ms, min ${s[0]}, max ${s.at(-1)} (n=${s.length})`;
};

async function main() {
  const runs = Number(process.argv[2] ?? 5);
  const server = await startServer({ label: 'timing' });
  const browser = await getBrowser();
  try {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await signInToDashboard(page, ADMIN.email, ADMIN.password);
    const direct = [];
    const click = [];
    for (let i = 0; i < runs; i++) {
      for (const screen of SCREENS) {
        // Direct link: a new document, as after pasting the address or pressing F5.
        let start = Date.now();
        await page.goto(screen.route);
        await shown(page, screen.item);
        direct.push(Date.now() - start);
        // Menu click from the dashboard (the remote may already be loaded, as it is for staff).
        await page.goto('/admin/dashboard');
        await page.getByRole('navigation', { name: 'main' }).waitFor();
        const nav = page.getByRole('navigation', { name: 'main' });
        const link = nav.getByRole('link', { name: t('ar', `menu:items.${screen.item}`), exact: true });
        if (!(await link.isVisible()))
          await nav.getByText(t('ar', `menu:groups.${screen.group}`), { exact: true }).click();
        start = Date.now();
        await link.click();
        await shown(page, screen.item);
        click.push(Date.now() - start);
      }
    }
    console.log(`direct link: ${stats(direct)}`);
    console.log(`menu click:  ${stats(click)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
