// Two people edit the same court in two browsers. The second save, based on the version read
// before the first one, is refused (409) instead of silently overwriting it; the form says who
// changed it, shows the differences and reloads their version; an open edit drawer reports a live
// change and a deletion of its record at once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSystem } from '../lib/harness.mjs';
import { animationsDone, signInToDashboard } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { t, tx } from '../lib/i18n.mjs';

const sys = useSystem();
const COURTS = '/admin/settings/courts/courts';
const label = (field) => t('ar', `entities:courts.fields.${field}`);
const singular = () => t('ar', 'entities:courts.singular');

/** Opens the court's edit drawer from the list filtered to it; resolves to the drawer. */
async function openEdit(page, name) {
  await page.goto(`${COURTS}?q=${encodeURIComponent(name)}`);
  await page
    .getByRole('button', { name: tx('ar', 'ui:actions.editNamed', { name }) })
    .click({ timeout: 20_000 });
  const drawer = page
    .getByRole('dialog')
    .filter({ hasText: t('ar', 'ui:form.editTitle', { name: singular() }) });
  await drawer.getByLabel(label('name'), { exact: true }).waitFor();
  return drawer;
}

const saveResponse = (page) =>
  page.waitForResponse(
    (r) => r.url().startsWith(`${sys.baseURL}/api${COURTS}`) && r.request().method() === 'PUT',
  );

describe('two people editing one court', () => {
  test('the stale save is refused and resolved; live change and deletion are shown at once', () =>
    sys.with('concurrency', async (open) => {
      const api = await sys.adminApi();
      const name = `محكمة ${uniq()}`;
      const court = await api.post(COURTS, { name, courtType: 'general', address: 'العنوان الأول' });

      const a = await open();
      const b = await open();
      for (const { page } of [a, b]) await signInToDashboard(page, sys.admin.email, sys.admin.password);
      const drawerA = await openEdit(a.page, name);
      const drawerB = await openEdit(b.page, name);

      // A saves a new address.
      await drawerA.getByLabel(label('address'), { exact: true }).fill('العنوان الجديد');
      const savedA = saveResponse(a.page);
      await drawerA.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      assert.equal((await savedA).status(), 200);
      // A successful save closes the drawer.
      await drawerA.waitFor({ state: 'hidden' });

      // B, still on the old version, is told at once.
      await drawerB.getByRole('button', { name: tx('ar', 'ui:conflict.show') }).waitFor({ timeout: 15_000 });

      // B saves its phone anyway: refused, nothing overwritten.
      await drawerB.getByLabel(label('phone'), { exact: true }).fill('0501234567');
      const refused = saveResponse(b.page);
      await drawerB.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      const refusedRes = await refused;
      assert.equal(refusedRes.status(), 409);
      const body = await refusedRes.json();
      assert.equal(body.current.address, 'العنوان الجديد');
      const dialog = b.page
        .getByRole('dialog')
        .filter({ hasText: t('ar', 'ui:conflict.title', { name: singular() }) });
      await dialog.waitFor();
      if (body.changedBy) await dialog.getByText(body.changedBy.name, { exact: false }).first().waitFor();
      assert.equal((await api.get(`${COURTS}/${court.id}`)).address, 'العنوان الجديد', 'A kept');

      // The differences: the address, B's old value against A's.
      await animationsDone(dialog);
      await dialog.getByRole('button', { name: tx('ar', 'ui:conflict.review') }).click();
      const row = dialog.getByRole('row').filter({ hasText: label('address') });
      await row.waitFor();
      const cells = await row.getByRole('cell').allInnerTexts();
      assert.deepEqual(
        cells.map((c) => c.trim()),
        [label('address'), 'العنوان الأول', 'العنوان الجديد'],
      );

      // Their version in the form, B's phone again, saved on top of it.
      await dialog.getByRole('button', { name: tx('ar', 'ui:conflict.reload') }).click();
      const address = drawerB.getByLabel(label('address'), { exact: true });
      await b.page.waitForFunction((el) => el.value === 'العنوان الجديد', await address.elementHandle());
      await drawerB.getByLabel(label('phone'), { exact: true }).fill('0501234567');
      const savedB = saveResponse(b.page);
      await drawerB.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      assert.equal((await savedB).status(), 200);
      const stored = await api.get(`${COURTS}/${court.id}`);
      assert.equal(stored.address, 'العنوان الجديد');
      assert.equal(stored.phone, '0501234567');

      // Deleted elsewhere while B edits: the form says so and cannot be saved.
      const again = await openEdit(b.page, name);
      await api.del(`${COURTS}/${court.id}`);
      await again
        .getByText(t('ar', 'ui:conflict.deleted', { name: singular() }))
        .waitFor({ timeout: 15_000 });
      assert.equal(await again.getByRole('button', { name: tx('ar', 'ui:actions.save') }).isDisabled(), true);
      assert.equal(await again.getByLabel(label('name'), { exact: true }).isDisabled(), true);
    }));
});
