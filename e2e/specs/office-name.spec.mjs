// System settings: the office name changed in one tab shows in another
// tab's header and title without a reload, and on the login page.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import { openMenuItem, signInToDashboard, toast } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { t, tx } from '../lib/i18n.mjs';

const sys = useSystem();
const GENERAL = '/admin/settings/system/general';

describe('office name', () => {
  test('changed in one tab, the header of another tab follows without reload', () =>
    sys.with('office-name', async (open) => {
      const api = await sys.adminApi();
      const before = await api.get(GENERAL);
      const newName = `مكتب الاختبار ${uniq()}`;
      try {
        const a = await open();
        const b = await open();
        for (const { page } of [a, b]) await signInToDashboard(page, sys.admin.email, sys.admin.password);
        const headerB = b.page.locator('header').getByTestId('office-name');
        await headerB.filter({ hasText: before.officeName }).waitFor();
        await b.page.evaluate(() => {
          window.__e2eNoReload = true;
        });

        await openMenuItem(a.page, 'systemSettings', 'generalSystem');
        await a.page.waitForURL(`**${GENERAL}`);
        const field = a.page.getByLabel(t('ar', 'settings:system.general.fields.officeName'), {
          exact: true,
        });
        await field.waitFor();
        await eventually(async () => (await field.inputValue()) === before.officeName, {
          message: 'form filled',
        });
        await field.fill(newName);
        await a.page
          .getByRole('main')
          .getByRole('button', { name: tx('ar', 'settings:actions.save') })
          .click();
        await toast(a.page, t('ar', 'settings:system.general.saved'));

        // The other tab: header and page title change, and it was never reloaded.
        await headerB.filter({ hasText: newName }).waitFor({ timeout: 15_000 });
        await eventually(async () => (await b.page.title()) === newName, { message: 'page title follows' });
        assert.equal(await b.page.evaluate(() => window.__e2eNoReload), true, 'B was not reloaded');
        // The tab that saved shows it too.
        await a.page.locator('header').getByTestId('office-name').filter({ hasText: newName }).waitFor();

        // And a signed-out visitor sees it on the login page.
        const c = await open();
        await c.page.goto('/login');
        await c.page.getByTestId('office-name').filter({ hasText: newName }).waitFor();
        assert.equal((await api.get('/auth/systemSettings')).officeName, newName);
      } finally {
        // Other specs compare against the office name: put it back.
        // (Saved over the version this test wrote, not the one it first read: that one is stale now.)
        await api
          .get(GENERAL)
          .then((now) => api.put(GENERAL, { ...before, updatedAt: now.updatedAt }))
          .catch((e) => console.error(`could not restore the office name: ${e.message}`));
      }
    }));
});
