// A remote released on its own: `npm run release -- tasks` while a page is open,
// on a server of this file's own (releases in a temp MIZAN_RELEASES_DIR). The server and the host
// are neither rebuilt nor restarted; the open page keeps working and a reload runs the new version,
// as the about dialog shows.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseUserMenuItem, openMenuItem, signInToDashboard } from '../lib/app.mjs';
import { useSystem } from '../lib/harness.mjs';
import { t } from '../lib/i18n.mjs';
import { ROOT } from '../lib/paths.mjs';

const releasesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-e2e-releases-'));
const sys = useSystem({ server: { label: 'release', env: { MIZAN_RELEASES_DIR: releasesDir } } });

/** Runs the release command as an operator would, without blocking the browser meanwhile. */
function release(...args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'release.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, MIZAN_RELEASES_DIR: releasesDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`release exited ${code}:\n${out}`)),
    );
  });
}

async function remotesJson() {
  const response = await fetch(`${sys.baseURL}/remotes.json`);
  return response.json();
}

/** The tasks version the about dialog lists for this page, once the remote has loaded. */
async function aboutTasksVersion(page, adminName) {
  const dialog = page.getByRole('dialog', { name: t('ar', 'layout:about.title') });
  await chooseUserMenuItem(page, adminName, 'layout:about.menu', () => dialog.waitFor({ timeout: 5_000 }));
  const version = dialog
    .getByRole('row', { name: new RegExp(t('ar', 'layout:remote.names.tasks')) })
    .getByTestId('remote-version');
  let text;
  try {
    text = (await version.innerText({ timeout: 20_000 })).trim();
  } catch (error) {
    // Which remotes the dialog lists, so that a miss says whether tasks was there at all.
    error.message += `\nthe dialog reads: ${(await dialog.innerText()).replace(/\s+/g, ' ')}`;
    throw error;
  }
  // antd's close button (×) is the dialog's only button.
  await dialog.getByRole('button').click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

async function openTasks(page) {
  await openMenuItem(page, 'legal', 'tasks');
  await page.waitForURL('**/admin/lawsuits/tasks');
}

describe('releasing the tasks remote alone', () => {
  test('a release while a page is open: the page keeps working, a reload runs the new version', () =>
    sys.with('release-tasks', async (open) => {
      const adminName = (await (await sys.adminApi()).get('/employees/employees/profile')).name;
      const { page } = await open();
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      await openTasks(page);
      const before = await aboutTasksVersion(page, adminName);
      const hostPage = await (await fetch(`${sys.baseURL}/`)).text();

      const output = await release('tasks');
      const version = /^tasks: (\S+) is current/m.exec(output)?.[1];
      assert.ok(version, `the release names its version:\n${output}`);
      assert.notEqual(version, before);
      assert.equal((await remotesJson()).tasks, `/releases/tasks/${version}/mf-manifest.json`);
      assert.equal(await (await fetch(`${sys.baseURL}/`)).text(), hostPage, 'the host is untouched');

      // The page opened before the release goes on with the version it loaded.
      await openMenuItem(page, null, 'dashboard');
      await page.waitForURL('**/admin/dashboard');
      await openTasks(page);
      assert.equal(await aboutTasksVersion(page, adminName), before);
      const main = page.getByRole('main');
      assert.equal(await main.getByText(t('ar', 'layout:remote.unavailableTitle')).count(), 0);

      await page.reload();
      await page.waitForURL('**/admin/lawsuits/tasks');
      assert.equal(await aboutTasksVersion(page, adminName), version);
      assert.equal(await main.getByText(t('ar', 'layout:remote.unavailableTitle')).count(), 0);
    }));
});
