// Legal periods in the browser: a rule (judgment issued → appeal in 30 days) and a hearing are made
// through the API; the judgment is recorded on the hearing's page (its decision, marked as a
// judgment), and the appeal deadline it starts shows on the calendar on its due day (the server's
// calculator says which day, weekend and holidays skipped); a click opens the deadline's page.
// The date calculator of the calendar answers the same day.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import { signInToDashboard, waitForApp } from '../lib/app.mjs';
import { officeToday, uniq } from '../lib/api.mjs';
import { t } from '../lib/i18n.mjs';
import { formDrawer, go } from '../lib/clients.mjs';
import { CALENDAR, SESSIONS, createLegalParties } from '../lib/legal.mjs';

// The interface's default language (a fresh sign-in reads Arabic).
const lng = 'ar';
const e = (key, vars) => t(lng, `entities:${key}`, vars);
const l = (key, vars) => t(lng, `legal:${key}`, vars);
const ui = (key, vars) => t(lng, `ui:${key}`, vars);

describe('deadlines started by a judgment', () => {
  const sys = useSystem();

  test(
    'a judgment recorded on a hearing puts its appeal deadline on the calendar',
    { timeout: 120_000 },
    () =>
      sys.with('deadlines-judgment', async (open) => {
        const api = await sys.adminApi(lng);
        const parties = await createLegalParties(api);
        const today = await officeToday(sys.api(lng));
        const fileNumber = `E2E-D-${uniq()}`;
        const rule = await api.post('/admin/settings/deadlineRules', {
          name: `Appeal ${uniq()}`,
          event: 'judgmentIssued',
          amount: 30,
          unit: 'days',
          calendar: 'gregorian',
          action: 'appeal',
          shift: 'next',
          legalBasis: 'Art. 187',
        });
        const lawsuit = await api.post('/admin/lawsuits', {
          fileNumber,
          filingDate: today,
          courtId: parties.court.id,
          customerIds: [parties.client.id],
          opponentIds: [parties.opponent.id],
        });
        const hearing = await api.post('/admin/lawsuits/sessions', {
          lawsuitId: lawsuit.id,
          date: today,
          time: '10:00',
        });
        const expected = await api.get(`/admin/deadlines/calculate?from=${today}&amount=30&unit=days`);

        const { page } = await open();
        await page.goto('/login');
        await signInToDashboard(page, sys.admin.email, sys.admin.password);
        await go(page, `${SESSIONS}/${hearing.id}`);
        await waitForApp(page);
        await page.getByRole('button', { name: ui('actions.edit'), exact: true }).click();
        const drawer = formDrawer(page, lng, 'sessions', 'edit');
        await drawer
          .getByLabel(e('sessions.fields.decision'), { exact: true })
          .fill('Judgment for the plaintiff');
        await drawer.getByLabel(e('sessions.fields.judgment'), { exact: true }).check();
        const saved = page.waitForResponse(
          (r) =>
            new URL(r.url()).pathname === `/api${SESSIONS}/${hearing.id}` && r.request().method() !== 'GET',
        );
        await drawer.getByRole('button', { name: ui('actions.save') }).click();
        assert.equal((await saved).status(), 200);

        // The deadline on the calendar, in its month, on its day.
        await go(page, `${CALENDAR}?date=${expected.due.slice(0, 7)}-01`);
        const main = page.getByRole('main');
        await main.getByRole('heading', { name: l('calendar.title'), exact: true }).waitFor();
        const title = l('calendar.deadlineTitle', {
          action: e('deadlines.values.action.appeal'),
          fileNumber,
        });
        const event = main.locator(`[data-date="${expected.due}"]`).first().getByText(title, { exact: true });
        await event.waitFor();
        await event.click();
        await page.waitForURL((url) => url.pathname.startsWith('/admin/lawsuits/deadlines/'));
        await waitForApp(page);
        const deadlineId = Number(new URL(page.url()).pathname.split('/').pop());
        const row = await api.get(`/admin/lawsuits/deadlines/${deadlineId}`);
        assert.deepEqual(
          [row.ruleId, row.lawsuitId, row.dueDate, row.state],
          [rule.id, lawsuit.id, expected.due, 'open'],
        );

        // The calculator of the calendar counts the same day.
        await go(page, CALENDAR);
        await page.getByRole('button', { name: l('calculator.open'), exact: true }).click();
        const dialog = page.getByRole('dialog', { name: l('calculator.title') });
        await dialog.getByRole('button', { name: l('calculator.calculate') }).click();
        await eventually(async () => (await dialog.getByTestId('calculator-due').count()) === 1, {
          message: 'the calculator answers',
        });
      }),
  );
});
