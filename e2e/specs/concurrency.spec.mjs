// Two people edit one record in two browsers. An open form takes a change saved elsewhere only in
// the fields its user has not changed, and keeps the version it was opened with, so the server
// still refuses (409) a save over the newer one; the form then merges: fields only they changed
// are taken, each field both changed is asked (their value and mine, keep mine or take theirs),
// and it saves again on their version. A deletion elsewhere is reported at once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSystem } from '../lib/harness.mjs';
import { animationsDone, signInToDashboard } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { createLegalParties } from '../lib/legal.mjs';
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

/** The next answer to a save of a court (with `status`, the next with that status). */
const saveResponse = (page, status) =>
  page.waitForResponse(
    (r) =>
      r.url().startsWith(`${sys.baseURL}/api${COURTS}`) &&
      r.request().method() === 'PUT' &&
      (status === undefined || r.status() === status),
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

      // B, still on the old version, is told at once, and the address B had not touched shows A's.
      await drawerB.getByRole('button', { name: tx('ar', 'ui:conflict.show') }).waitFor({ timeout: 15_000 });
      const addressB = drawerB.getByLabel(label('address'), { exact: true });
      await b.page.waitForFunction((el) => el.value === 'العنوان الجديد', await addressB.elementHandle());

      // B saves its phone: refused on the old version (nothing of A's overwritten), merged with no
      // question (they changed different fields) and saved again on A's version.
      await drawerB.getByLabel(label('phone'), { exact: true }).fill('0501234567');
      // Both answers awaited from before the click: the second save follows the first at once.
      const refused = saveResponse(b.page);
      const saved = saveResponse(b.page, 200);
      await drawerB.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      const refusedRes = await refused;
      assert.equal(refusedRes.status(), 409);
      assert.equal((await refusedRes.json()).current.address, 'العنوان الجديد');
      assert.equal((await saved).status(), 200);
      await drawerB.waitFor({ state: 'hidden' });
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

describe('two people editing one lawsuit', () => {
  test('typing is never replaced by a live change; a field both changed is asked, then saved', () =>
    sys.with('concurrency-lawsuit', async (open) => {
      const api = await sys.adminApi();
      const { client } = await createLegalParties(api);
      const suit = await api.post('/admin/lawsuits', {
        customerIds: [client.id],
        caseNumber: '100',
        subject: 'الموضوع الأول',
        notes: 'ملاحظات أولى',
      });
      const field = (name) => t('ar', `entities:lawsuits.fields.${name}`);
      const lawsuit = () => t('ar', 'entities:lawsuits.singular');
      const a = await open();
      const b = await open();
      const edit = async ({ page }) => {
        await signInToDashboard(page, sys.admin.email, sys.admin.password);
        await page.goto(`/admin/lawsuits/${suit.id}`);
        await page
          .getByRole('button', { name: tx('ar', 'ui:actions.edit') })
          .first()
          .click({ timeout: 20_000 });
        const drawer = page
          .getByRole('dialog')
          .filter({ hasText: t('ar', 'ui:form.editTitle', { name: lawsuit() }) });
        await drawer.getByLabel(field('notes'), { exact: true }).waitFor();
        return drawer;
      };
      const drawerA = await edit(a);
      const drawerB = await edit(b);
      const put = (page) =>
        page.waitForResponse(
          (r) =>
            // The update carries the id in its body (PUT /api/admin/lawsuits).
            new URL(r.url()).pathname === '/api/admin/lawsuits' && r.request().method() === 'PUT',
        );

      // B is typing notes and a new subject, not saved yet.
      const notesB = drawerB.getByLabel(field('notes'), { exact: true });
      await notesB.fill('ملاحظات ب وهي تُكتب');
      await drawerB.getByLabel(field('subject'), { exact: true }).fill('موضوع ب');

      // A saves other notes and a new case number.
      await drawerA.getByLabel(field('notes'), { exact: true }).fill('ملاحظات أ');
      await drawerA.getByLabel(field('caseNumber'), { exact: true }).fill('200');
      const savedA = put(a.page);
      await drawerA.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      assert.equal((await savedA).status(), 200);

      // B sees the change at once: the case number B had not touched shows A's; B's notes stay.
      await drawerB.getByRole('button', { name: tx('ar', 'ui:conflict.show') }).waitFor({ timeout: 15_000 });
      const caseB = drawerB.getByLabel(field('caseNumber'), { exact: true });
      await b.page.waitForFunction((el) => el.value === '200', await caseB.elementHandle());
      assert.equal(await notesB.inputValue(), 'ملاحظات ب وهي تُكتب');
      await b.page.waitForTimeout(1_000);
      assert.equal(await notesB.inputValue(), 'ملاحظات ب وهي تُكتب', 'typing is never replaced');

      // B saves: refused (the form kept its version), and asked about the notes both changed.
      const refused = put(b.page);
      await drawerB.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      assert.equal((await refused).status(), 409);
      const dialog = b.page
        .getByRole('dialog')
        .filter({ hasText: t('ar', 'ui:conflict.title', { name: lawsuit() }) });
      await dialog.waitFor();
      await animationsDone(dialog);
      const row = dialog.getByRole('row').filter({ hasText: field('notes') });
      const cells = (await row.getByRole('cell').allInnerTexts()).map((c) => c.trim());
      assert.deepEqual(cells.slice(0, 3), [field('notes'), 'ملاحظات أ', 'ملاحظات ب وهي تُكتب']);
      // Only the notes are asked: the subject is B's alone, the case number A's alone.
      assert.equal(await dialog.getByRole('radiogroup').count(), 1);
      await row.getByText(t('ar', 'ui:conflict.merge.keepMine'), { exact: true }).click();
      const savedB = put(b.page);
      await dialog.getByRole('button', { name: tx('ar', 'ui:conflict.merge.save') }).click();
      assert.equal((await savedB).status(), 200);
      await drawerB.waitFor({ state: 'hidden' });

      const stored = await api.get(`/admin/lawsuits/${suit.id}`);
      assert.equal(stored.notes, 'ملاحظات ب وهي تُكتب');
      assert.equal(stored.subject, 'موضوع ب');
      assert.equal(stored.caseNumber, '200');
    }));
});
