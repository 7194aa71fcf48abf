// What people type into the entity forms, in Arabic and English: Enter in a date field confirms
// the date and never sends the drawer (power of attorney, lawsuit); dates typed with a leading
// zero, in Arabic-Indic digits or year first are read, and text that is no date stays with a
// message; a name over its limit is kept whole with a counter and refused, never cut; the
// opponent form warns of a client known under a variant of the name or the same ID.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSystem } from '../lib/harness.mjs';
import { expectDirection, languageButton, signInToDashboard } from '../lib/app.mjs';
import { CUSTOMERS, PROCURATIONS, arabicTag, formDrawer, nationalIdNumber } from '../lib/clients.mjs';
import { LANGUAGES, t, tx } from '../lib/i18n.mjs';

const sys = useSystem();
const OPPONENTS = '/admin/lawsuits/opponents';

for (const lng of LANGUAGES) {
  const e = (key, vars) => t(lng, `entities:${key}`, vars);
  /** Signs in, in `lng`, and opens the create drawer of the list at `path`. */
  const createDrawer = async (page, path, entity) => {
    await page.goto('/login');
    if (lng === 'en') {
      await languageButton(page, 'ar').click();
      await expectDirection(page, 'ltr', 'en');
    }
    await signInToDashboard(page, sys.admin.email, sys.admin.password);
    await page.goto(path);
    await page
      .getByRole('button', { name: tx(lng, 'ui:actions.createNamed', { name: e(`${entity}.singular`) }) })
      .click({ timeout: 20_000 });
    const drawer = formDrawer(page, lng, entity);
    await drawer.waitFor();
    return drawer;
  };
  /** Every request that would create a row of `path`. */
  const posts = (page, path) => {
    const sent = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === `/api${path}`) sent.push(r);
    });
    return sent;
  };

  describe(`forms in ${lng === 'ar' ? 'Arabic' : 'English'}`, () => {
    test('Enter in a date field confirms the date and sends nothing; typed dates are read or refused aloud', () =>
      sys.with(`forms-dates-${lng}`, async (open) => {
        const { page } = await open();
        for (const [path, entity, label] of [
          [PROCURATIONS, 'procurations', 'expiryDate'],
          ['/admin/lawsuits', 'lawsuits', 'filingDate'],
        ]) {
          const drawer = await createDrawer(page, path, entity);
          const sent = posts(page, path);
          const input = drawer.getByLabel(e(`${entity}.fields.${label}`), { exact: true });
          for (const [typed, shown] of [
            ['11/01/2026', '11/1/2026'],
            ['١١/٠٢/٢٠٢٦', '11/2/2026'],
            ['2026-11-03', '11/3/2026'],
          ]) {
            await input.click();
            await input.fill('');
            await input.pressSequentially(typed);
            await input.press('Enter');
            await page.keyboard.press('Tab');
            await page.waitForFunction(
              ([el, want]) => el.value === want,
              [await input.elementHandle(), shown],
            );
          }
          await page.waitForTimeout(500);
          assert.equal(sent.length, 0, `${entity}: Enter sent nothing`);
          assert.equal(await drawer.isVisible(), true, `${entity}: the drawer stays open`);
          // Text that is no date is kept and explained, and the form does not save it as blank.
          await input.click();
          await input.fill('');
          await input.pressSequentially('13/32/2026');
          await page.keyboard.press('Tab');
          await drawer.getByText(t(lng, 'ui:dates.unreadable', { text: '13/32/2026' })).waitFor();
          assert.equal(await input.inputValue(), '13/32/2026');
          await page.keyboard.press('Escape');
          const discard = page.getByRole('button', { name: tx(lng, 'ui:unsaved.discard') });
          await discard.click();
          await drawer.waitFor({ state: 'hidden' });
        }
      }));

    test('a name over its limit is kept whole, counted and refused; never cut', () =>
      sys.with(`forms-limits-${lng}`, async (open) => {
        const { page } = await open();
        const drawer = await createDrawer(page, CUSTOMERS, 'customers');
        const sent = posts(page, CUSTOMERS);
        const name = `${'عبد الرحمن محمد '.repeat(10)}نهاية`;
        assert.ok(name.length > 150);
        const input = drawer.getByLabel(e('customers.fields.name'), { exact: true });
        await input.click();
        // Pasted, as the name that was cut was.
        await page.evaluate(async (text) => {
          const el = document.activeElement;
          el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: new DataTransfer(), bubbles: true }));
          document.execCommand('insertText', false, text);
        }, name);
        assert.equal(await input.inputValue(), name, 'nothing cut');
        await drawer.getByText(`${name.length} / 150`).waitFor();
        await drawer.getByRole('button', { name: tx(lng, 'ui:actions.save') }).click();
        await drawer
          .locator('.ant-form-item-explain-error')
          .filter({ hasText: e('customers.fields.name') })
          .first()
          .waitFor();
        assert.equal(sent.length, 0);
        // The server refuses it too, naming the field, in the request's language, and stores nothing.
        const api = await sys.adminApi(lng);
        const res = await api.raw('POST', CUSTOMERS, {
          name,
          kind: 'person',
          nationalId: nationalIdNumber(),
        });
        assert.equal(res.status, 422);
        assert.ok(res.body.errors.name[0].includes(e('customers.fields.name')), res.body.errors.name[0]);
      }));

    test('the opponent form warns of a client known under a variant of the name or the same ID', () =>
      sys.with(`forms-opponent-${lng}`, async (open) => {
        const api = await sys.adminApi();
        const tag = arabicTag();
        const nationalId = nationalIdNumber();
        const client = await api.post(CUSTOMERS, {
          name: `محمود عبد الفتاح ${tag}`,
          kind: 'person',
          nationalId,
        });
        const { page } = await open();
        const drawer = await createDrawer(page, OPPONENTS, 'opponents');
        const panel = drawer.getByRole('region', { name: t(lng, 'ui:parties.conflicts.title') });
        const link = panel.getByRole('link', {
          name: t(lng, 'ui:parties.conflicts.open', { name: client.name }),
        });
        // The compound name written joined, the words in another order.
        await drawer.getByLabel(e('opponents.fields.name'), { exact: true }).fill(`${tag} عبدالفتاح محمود`);
        await link.waitFor({ timeout: 15_000 });
        await panel.getByText(e('customers.singular'), { exact: true }).waitFor();
        await panel.getByText(t(lng, 'ui:parties.conflicts.reasons.sameName'), { exact: true }).waitFor();
        // By the same ID under another name.
        await drawer.getByLabel(e('opponents.fields.name'), { exact: true }).fill('سارة خالد');
        await drawer.getByLabel(e('opponents.fields.nationalId'), { exact: true }).fill(nationalId);
        await panel
          .getByText(t(lng, 'ui:parties.conflicts.reasons.id'), { exact: true })
          .waitFor({ timeout: 15_000 });
        await link.waitFor();
      }));
  });
}
