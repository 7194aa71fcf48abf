// The generic entity screen on a real list: create a country under a
// continent through the UI, see server errors on their fields (unique conflict, and a 422 from a
// body sent past the client check), and watch a second browser receive the new row over the
// WebSocket without a reload.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSystem } from '../lib/harness.mjs';
import { fieldHelp, openMenuItem, signInToDashboard, toast } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { pickOption } from '../lib/legal.mjs';
import { t, tx } from '../lib/i18n.mjs';

const sys = useSystem();
const COUNTRIES = '/api/admin/settings/places/countries';

describe('countries', () => {
  test('create a country under a continent; errors on fields; a second browser sees it live', () =>
    sys.with('countries', async (open) => {
      const api = await sys.adminApi();
      const continent = await api.post('/admin/settings/places/continents', { name: `قارة ${uniq()}` });
      const countryName = `دولة ${uniq()}`;

      // Two people, two browsers, the same list open.
      const a = await open();
      const b = await open();
      for (const { page } of [a, b]) {
        await signInToDashboard(page, sys.admin.email, sys.admin.password);
        await openMenuItem(page, 'places', 'countries');
        await page.waitForURL('**/admin/settings/places/countries');
        await page.getByRole('heading', { name: tx('ar', 'entities:countries.title') }).waitFor();
        await page.getByRole('table').waitFor();
      }
      // Marks B's document: a reload would lose it.
      await b.page.evaluate(() => {
        window.__e2eNoReload = true;
      });

      // A creates the country.
      const singular = t('ar', 'entities:countries.singular');
      await a.page
        .getByRole('button', { name: tx('ar', 'ui:actions.createNamed', { name: singular }) })
        .click();
      const drawer = a.page.getByRole('dialog');
      await drawer.getByText(t('ar', 'ui:form.createTitle', { name: singular })).waitFor();
      await drawer.getByLabel(t('ar', 'entities:countries.fields.name'), { exact: true }).fill(countryName);
      await drawer.getByLabel(t('ar', 'entities:countries.fields.code'), { exact: true }).fill('ZZ');
      await pickOption(a.page, drawer, t('ar', 'entities:countries.fields.continentId'), continent.name);
      const created = a.page.waitForResponse(
        (r) => r.url().startsWith(`${sys.baseURL}${COUNTRIES}`) && r.request().method() === 'POST',
      );
      await drawer.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      assert.equal((await created).status(), 201, 'created');
      await toast(a.page, t('ar', 'ui:form.created', { name: singular }));
      const rowA = a.page.getByRole('row').filter({ hasText: countryName });
      await rowA.waitFor();
      assert.ok((await rowA.innerText()).includes(continent.name), 'the row shows its continent');

      // B sees it without reloading (WebSocket event patched its list).
      await b.page.getByRole('row').filter({ hasText: countryName }).waitFor({ timeout: 15_000 });
      assert.equal(await b.page.evaluate(() => window.__e2eNoReload), true, 'B was not reloaded');

      const saved = (await api.get(`/admin/settings/places/countries?q=${encodeURIComponent(countryName)}`))
        .items;
      assert.equal(saved.length, 1);
      assert.equal(saved[0].continentId, continent.id);

      // The same name again: the server's unique check answers on the name field.
      await a.page
        .getByRole('button', { name: tx('ar', 'ui:actions.createNamed', { name: singular }) })
        .click();
      await drawer.getByLabel(t('ar', 'entities:countries.fields.name'), { exact: true }).fill(countryName);
      await pickOption(a.page, drawer, t('ar', 'entities:countries.fields.continentId'), continent.name);
      const conflict = a.page.waitForResponse(
        (r) => r.url().startsWith(`${sys.baseURL}${COUNTRIES}`) && r.request().method() === 'POST',
      );
      await drawer.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      const conflictRes = await conflict;
      assert.ok([409, 422].includes(conflictRes.status()), `unique conflict status ${conflictRes.status()}`);
      const conflictBody = await conflictRes.json();
      const nameMessage = conflictBody.errors?.name?.[0];
      assert.ok(nameMessage, `the server names the field: ${JSON.stringify(conflictBody)}`);
      const nameHelp = await fieldHelp(drawer, t('ar', 'entities:countries.fields.name'));
      await nameHelp.filter({ hasText: nameMessage }).waitFor();
      assert.equal(
        await drawer
          .getByLabel(t('ar', 'entities:countries.fields.name'), { exact: true })
          .getAttribute('aria-invalid'),
        'true',
      );

      // A body the client would refuse (name over its 100-character limit) sent past the client
      // check: the server's 422 message lands on the field.
      await a.page.route(`**${COUNTRIES}`, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        const body = JSON.parse(route.request().postData() ?? '{}');
        await route.continue({ postData: JSON.stringify({ ...body, name: 'ب'.repeat(101) }) });
      });
      await drawer
        .getByLabel(t('ar', 'entities:countries.fields.name'), { exact: true })
        .fill(`دولة ${uniq()}`);
      const invalid = a.page.waitForResponse(
        (r) => r.url().startsWith(`${sys.baseURL}${COUNTRIES}`) && r.request().method() === 'POST',
      );
      await drawer.getByRole('button', { name: tx('ar', 'ui:actions.save') }).click();
      const invalidRes = await invalid;
      assert.equal(invalidRes.status(), 422);
      const invalidBody = await invalidRes.json();
      const tooLong = invalidBody.errors?.name?.[0];
      assert.ok(
        tooLong && /[\u0600-\u06FF]/.test(tooLong),
        `an Arabic message for name: ${JSON.stringify(invalidBody)}`,
      );
      await nameHelp.filter({ hasText: tooLong }).waitFor();
      await a.page.unrouteAll({ behavior: 'ignoreErrors' });

      // Nothing was written by the refused attempts.
      const same = await api.get(`/admin/settings/places/countries?q=${encodeURIComponent(countryName)}`);
      assert.equal(same.total, 1);
      const long = await api.get(`/admin/settings/places/countries?q=${encodeURIComponent('ب'.repeat(50))}`);
      assert.equal(long.total, 0);
    }));
});
