// The dashboard in headless Chromium: the time from the sign-in form's submit to the
// dashboard's count cards on screen, on the built host and remotes served by the server under
// measure (loopback). Debian's Chromium through playwright-core (the e2e package's), with the
// e2e flags and a fresh profile (own storage) for every run.
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeFromClick } from '../e2e/lib/timing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The count cards the dashboard page shows once its figures arrived (host/src/dashboard). */
const CARDS = ['figure-lawsuits', 'figure-sessions', 'figure-customers'];

/**
 * Signs in `runs` times as `admin` on `origin` and answers the submit → count cards times in ms
 * (median, p95, samples), or null with the reason printed when Chromium, playwright-core or the
 * built host is missing.
 */
export async function measureDashboardInBrowser(origin, admin, runs = 5) {
  let chromium;
  try {
    ({ chromium } = createRequire(path.join(root, 'e2e', 'package.json'))('playwright-core'));
  } catch {
    console.log('bench: no playwright-core (e2e package): browser case left out');
    return null;
  }
  if (!existsSync(CHROMIUM) || !existsSync(path.join(root, 'host', 'dist', 'index.html'))) {
    console.log(`bench: no ${CHROMIUM} or no built host: browser case left out`);
    return null;
  }
  const samples = [];
  const requests = [];
  for (let i = 0; i < runs; i += 1) {
    const profile = mkdtempSync(path.join(os.tmpdir(), 'mizan-bench-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      headless: true,
      baseURL: origin,
      viewport: { width: 1440, height: 900 },
      locale: 'ar-EG',
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/login');
      const form = page
        .locator('form')
        .filter({ has: page.locator('input[type=password]') })
        .first();
      await form.waitFor({ timeout: 30_000 });
      await form
        .locator('input:not([type=password]):not([type=hidden]):not([type=checkbox])')
        .first()
        .fill(admin.email);
      await form.locator('input[type=password]').first().fill(admin.password);
      let dashboardMs = null;
      const t0 = Date.now();
      page.on('response', (response) => {
        if (response.url().includes('/api/admin/dashboard') && dashboardMs === null)
          dashboardMs = Date.now() - t0;
      });
      // Timed in the page, to the frame that shows the last card: Playwright's waits poll up to a
      // second apart, and timing around them added whole seconds now and then.
      const shown = await timeFromClick(
        page,
        CARDS.map((card) => `[data-testid="${card}"]`),
      );
      await form.locator('button[type=submit]').click();
      for (const card of CARDS)
        await page.getByTestId(card).first().waitFor({ state: 'visible', timeout: 60_000 });
      samples.push(await shown());
      requests.push(dashboardMs);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    runs,
    median: sorted[Math.floor(sorted.length / 2)],
    p95: sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)],
    samples,
    /** When the dashboard's API answer arrived, ms after the submit (its share of the wait). */
    dashboardResponseMs: requests,
  };
}
