// The header's timer in the browser, in Arabic: started on a lawsuit chosen in its popover, it is
// kept on the server (a reload finds it counting), and stopping it records a time entry whose edit
// form opens so the work done is written in; the entry is then the employee's, on that lawsuit.
// That time is then billed: an invoice of the client brings it in and is issued on its page, is
// partly paid, and its Arabic print view says the total in words and "partly paid".
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import { signInToDashboard, waitForApp } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { t } from '../lib/i18n.mjs';
import { formDrawer } from '../lib/clients.mjs';
import { LAWSUITS, createLegalParties } from '../lib/legal.mjs';
import { CONTRACTS_DIST } from '../lib/paths.mjs';

const { CURRENCIES, MONEY_SCALE, moneyInWords } = createRequire(import.meta.url)(CONTRACTS_DIST);

const TIMER = '/admin/finance/timer';
const ENTRIES = '/admin/finance/timeEntries';
const INVOICES = '/admin/finance/invoices';
const FINANCE_PAYMENTS = '/admin/finance/payments';

describe('the header timer', () => {
  const sys = useSystem();
  const lng = 'ar';
  const layout = (key, vars) => t(lng, `layout:${key}`, vars);
  const e = (key, vars) => t(lng, `entities:${key}`, vars);
  const ui = (key, vars) => t(lng, `ui:${key}`, vars);
  const legal = (key, vars) => t(lng, `legal:${key}`, vars);

  test(
    'ar: a timer started on a lawsuit survives a reload, becomes a time entry, and is billed',
    { timeout: 240_000 },
    () =>
      sys.with('timer-entry-ar', async (open) => {
        const api = await sys.adminApi(lng);
        // A timer left by an earlier run of this spec is thrown away first.
        if (await api.get(TIMER)) await api.del(TIMER);
        const parties = await createLegalParties(api);
        const fileNumber = `T-${uniq()}`;
        // An hourly rate, so that the time has an amount to bill.
        const lawsuit = await api.post(LAWSUITS, {
          fileNumber,
          customerIds: [parties.client.id],
          hourlyRate: 60_000,
        });

        const { page } = await open();
        await page.goto('/login');
        await signInToDashboard(page, sys.admin.email, sys.admin.password);
        const button = page.getByTestId('header-timer');
        await button.click();
        const popover = page.locator('.ant-popover:visible');
        const combo = popover.getByRole('combobox', { name: layout('timer.lawsuit') });
        await eventually(async () => {
          await combo.click();
          await combo.fill(fileNumber);
          await page
            .locator('.ant-select-dropdown:visible')
            .getByTitle(fileNumber, { exact: true })
            .click({ timeout: 3_000 });
          return true;
        });
        const started = page.waitForResponse((r) => new URL(r.url()).pathname === `/api${TIMER}/start`);
        await popover.getByRole('button', { name: layout('timer.start') }).click();
        assert.equal((await started).status(), 200);
        assert.equal((await api.get(TIMER)).lawsuitId, lawsuit.id);

        // A reload asks the server: the header shows the time counting (Arabic-Indic digits).
        await page.reload();
        await waitForApp(page);
        await eventually(async () => {
          const label = await page.getByTestId('header-timer').getAttribute('aria-label');
          assert.match(
            label ?? '',
            new RegExp(`^${layout('timer.runningLabel', { time: '' })}[٠-٩]+:[٠-٩]{2}:[٠-٩]{2}$`),
          );
          return true;
        });

        await page.getByTestId('header-timer').click();
        const stopped = page.waitForResponse((r) => new URL(r.url()).pathname === `/api${TIMER}/stop`);
        await page
          .locator('.ant-popover:visible')
          .getByRole('button', { name: layout('timer.stop') })
          .click();
        const entry = (await (await stopped).json()).data;
        await page.waitForURL((url) => url.pathname === `${ENTRIES}/${entry.id}`);
        const drawer = formDrawer(page, lng, 'timeEntries', 'edit');
        await drawer
          .getByLabel(e('timeEntries.fields.description'), { exact: true })
          .fill('صياغة مذكرة الدفاع');
        const saved = page.waitForResponse(
          (r) =>
            new URL(r.url()).pathname.startsWith(`/api${ENTRIES}`) &&
            ['PUT', 'PATCH'].includes(r.request().method()),
        );
        await drawer.getByRole('button', { name: ui('actions.save') }).click();
        assert.equal((await saved).status(), 200);

        const row = await api.get(`${ENTRIES}/${entry.id}`);
        assert.deepEqual(
          [row.lawsuitId, row.description, row.duration >= 1, row.billable],
          [lawsuit.id, 'صياغة مذكرة الدفاع', true, true],
        );
        assert.equal(await api.get(TIMER), null);

        // Billed: a draft of the client brings the unbilled time in and is issued, on its page.
        const draft = await api.post(INVOICES, { customerId: parties.client.id, lawsuitId: lawsuit.id });
        await page.goto(`${INVOICES}/${draft.id}`);
        const action = (name) =>
          page.waitForResponse((r) => new URL(r.url()).pathname === `/api${INVOICES}/${draft.id}/${name}`);
        const collected = action('collect');
        await page.getByRole('button', { name: legal('invoices.collect') }).click();
        assert.equal((await collected).status(), 200);
        const issuing = action('issue');
        await page.getByRole('button', { name: legal('invoices.issue') }).click();
        await page
          .locator('.ant-popconfirm')
          .getByRole('button', { name: legal('invoices.issue') })
          .click();
        const invoice = (await (await issuing).json()).data;
        assert.equal(invoice.state, 'issued');
        const lines = (await api.get(`${INVOICES}/lines?invoiceId=${draft.id}`)).items;
        assert.deepEqual(
          lines.map((l) => [l.source, l.timeEntryId]),
          [['time', entry.id]],
        );

        // Partly paid, then printed in Arabic: the total in words and the state.
        await api.post(FINANCE_PAYMENTS, {
          customerId: parties.client.id,
          date: invoice.issueDate,
          amount: Math.floor(invoice.total / 2),
          invoiceIds: [invoice.id],
        });
        await page.goto(`${INVOICES}/${invoice.id}/print`);
        const words = moneyInWords(invoice.total, CURRENCIES[invoice.currency], MONEY_SCALE, 'ar');
        await eventually(async () => {
          assert.equal((await page.locator('.invoice-print__words[lang="ar"]').textContent())?.trim(), words);
          return true;
        });
        assert.match(
          (await page.getByTestId('invoice-print-state').textContent()) ?? '',
          new RegExp(e('invoices.values.state.partlyPaid')),
        );
      }),
  );
});
