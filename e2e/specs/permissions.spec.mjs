// Permissions: an employee whose role lacks the courts permissions does not see
// the courts menu item, is refused its screen, and gets 403 from the API; the other courts lists
// (which the role has) stay reachable.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSystem } from '../lib/harness.mjs';
import {
  allPermissions,
  createReadyEmployee,
  openMenuItem,
  signInToDashboard,
  waitForApp,
} from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { t, tx } from '../lib/i18n.mjs';

const sys = useSystem();
const COURTS = '/admin/settings/courts/courts';
const CIRCUITS = '/admin/settings/courts/circuits';

describe('a role without the courts permissions', () => {
  test('hides the courts menu item, refuses the screen and the API answers 403', () =>
    sys.with('no-courts', async (open) => {
      const admin = await sys.adminApi();
      const permissions = await allPermissions(admin);
      const kept = permissions.filter((p) => !p.key.startsWith('courts.'));
      assert.ok(kept.length < permissions.length, 'courts permissions exist');
      const role = await admin.post('/employees/roles', {
        name: `بدون المحاكم ${uniq()}`,
        permissionIds: kept.map((p) => p.id),
      });
      // The first sign-in's required password change is done through the API.
      const person = await createReadyEmployee(sys, admin, { roleIds: [role.id] });
      const { password } = person;
      const api = sys.api();
      const session = await api.login(person.email, password);
      assert.equal(session.passwordChangeRequired, false);
      assert.ok(!session.user.permissions.includes('courts.view'));
      assert.ok(session.user.permissions.includes('circuits.view'));

      // API: 403 for courts (list, create), 200 for circuits.
      const list = await api.raw('GET', COURTS);
      assert.equal(list.status, 403, JSON.stringify(list.body));
      assert.ok(
        /[\u0600-\u06FF]/.test(list.body?.message ?? ''),
        `an Arabic message: ${JSON.stringify(list.body)}`,
      );
      assert.equal((await api.raw('POST', COURTS, { name: `محكمة ${uniq()}` })).status, 403);
      assert.equal((await api.raw('GET', CIRCUITS)).status, 200);

      // UI: the courts group shows circuits but not courts.
      const { page } = await open();
      await signInToDashboard(page, person.email, password);
      await openMenuItem(page, 'courts', 'circuits');
      await page.waitForURL(`**${CIRCUITS}`);
      await page
        .getByRole('main')
        .getByRole('heading', { name: tx('ar', 'entities:circuits.title') })
        .waitFor();
      const nav = page.getByRole('navigation', { name: 'main' });
      assert.equal(await nav.locator(`a[href="${COURTS}"]`).count(), 0, 'no link to the courts screen');
      assert.equal(
        await nav.getByRole('link', { name: t('ar', 'menu:items.courts'), exact: true }).count(),
        0,
      );
      assert.equal(await nav.locator(`a[href="${CIRCUITS}"]`).count(), 1, 'circuits still listed');

      // Typing the address: the forbidden page, not the list.
      await page.goto(COURTS);
      await waitForApp(page);
      await page.getByText(t('ar', 'layout:forbidden.text')).waitFor();
      assert.equal(await page.getByRole('main').getByRole('table').count(), 0, 'no courts table');
    }));
});
