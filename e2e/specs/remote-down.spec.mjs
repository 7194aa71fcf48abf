// A remote that is down leaves the host working. This file starts a
// server of its own whose remotes.json points the settings remote at a port where nothing listens
// (a stopped remote) and the clients remote at a manifest that answers 404.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import { expectDirection, languageButton, hasArabic, openMenuItem, signInToDashboard } from '../lib/app.mjs';
import { freePort } from '../lib/server.mjs';
import { snap } from '../lib/browser.mjs';
import { t, tx } from '../lib/i18n.mjs';

const deadPort = await freePort();
const DEAD_MANIFEST = `http://127.0.0.1:${deadPort}/mf-manifest.json`;
const sys = useSystem({
  server: {
    label: 'remote-down',
    remotes: {
      settings: DEAD_MANIFEST,
      clients: '/remotes/clients/missing/mf-manifest.json',
      legal: '/remotes/legal/mf-manifest.json',
      tasks: '/remotes/tasks/mf-manifest.json',
      chat: '/remotes/chat/mf-manifest.json',
    },
  },
});

describe('a remote is down', () => {
  test('the host still works and shows "unavailable, retry" for the stopped remote', () =>
    sys.with('remote-down', async (open) => {
      const { page } = await open();
      const deadRequests = [];
      page.on('requestfailed', (r) => {
        if (r.url().startsWith(`http://127.0.0.1:${deadPort}/`)) deadRequests.push(r.url());
      });
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      await expectDirection(page, 'rtl', 'ar');
      // The host's own dashboard works.
      await page.getByRole('main').getByText(t('ar', 'dashboard:quickLinks'), { exact: true }).waitFor();
      assert.ok(hasArabic(await page.getByRole('main').innerText()), 'dashboard content rendered');

      await openMenuItem(page, 'places', 'continents');
      await page.waitForURL('**/admin/settings/places/continents');
      const main = page.getByRole('main');
      await main
        .getByText(t('ar', 'layout:remote.unavailableTitle'), { exact: true })
        .waitFor({ timeout: 20_000 });
      await main
        .getByText(
          t('ar', 'layout:remote.unavailableText', { name: t('ar', 'layout:remote.names.settings') }),
        )
        .waitFor();
      assert.ok(deadRequests.length > 0, 'the host really tried the stopped remote');
      await snap(page, 'ar/remote-unavailable');

      // The menu marks the section as unavailable.
      const nav = page.getByRole('navigation', { name: 'main' });
      await nav
        .getByRole('link', { name: new RegExp(`^${t('ar', 'menu:items.continents')}`) })
        .getByText(t('ar', 'menu:unavailable'))
        .waitFor();

      // Retry asks again (still down: the same screen, and another request to the dead remote).
      const before = deadRequests.length;
      await main.getByRole('button', { name: tx('ar', 'layout:remote.retry') }).click();
      await eventually(() => deadRequests.length > before, { message: 'a new attempt after retry' });
      await main.getByText(t('ar', 'layout:remote.unavailableTitle'), { exact: true }).waitFor();

      // Everything else goes on: back to the dashboard, the language switch, other remotes' routes.
      await openMenuItem(page, null, 'dashboard');
      await page.waitForURL('**/admin/dashboard');
      await languageButton(page, 'ar').click();
      await expectDirection(page, 'ltr', 'en');
      await openMenuItem(page, 'places', 'countries', 'en');
      await main.getByText(t('en', 'layout:remote.unavailableTitle'), { exact: true }).waitFor();
      await main.getByRole('button', { name: tx('en', 'layout:remote.retry') }).waitFor();
      await snap(page, 'en/remote-unavailable');
    }));

  test('a remote whose manifest answers 404 shows the same state; the other remotes still load', () =>
    sys.with('remote-404', async (open) => {
      const { page } = await open();
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      await openMenuItem(page, 'clients', 'customerTypes');
      await page.waitForURL('**/admin/customers/settings/types');
      const main = page.getByRole('main');
      await main
        .getByText(t('ar', 'layout:remote.unavailableTitle'), { exact: true })
        .waitFor({ timeout: 20_000 });
      await main
        .getByText(t('ar', 'layout:remote.unavailableText', { name: t('ar', 'layout:remote.names.clients') }))
        .waitFor();

      // A remote that is up (chat) is unaffected: its files load and its screen replaces the spinner.
      const chatFiles = [];
      page.on('response', (r) => {
        if (r.url().includes('/remotes/chat/') && r.url().endsWith('.js') && r.ok()) chatFiles.push(r.url());
      });
      await openMenuItem(page, null, 'chat');
      await page.waitForURL('**/admin/chats');
      await eventually(
        async () =>
          (await main.getByText(t('ar', 'layout:remote.unavailableTitle'), { exact: true }).count()) === 0 &&
          (await main.getByRole('status').count()) === 0,
        { message: 'chat remote loaded', timeout: 20_000 },
      );
      assert.ok(chatFiles.length > 0, "the chat remote's code was downloaded");
    }));
});
