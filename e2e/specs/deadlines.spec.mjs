// Legal periods in the browser, in Arabic and in English: a rule (judgment issued → appeal in 30
// days) and a hearing are made through the API; the judgment is recorded on the hearing's page (its
// decision, marked as a judgment), and the appeal deadline it starts shows on the calendar on its
// due day (the server's calculator says which day, weekend and holidays skipped); a click opens the
// deadline's page. The lawsuit's page lists the deadline with its legal basis and state, and marks
// it done there. The hearing form warns that the client has no power of attorney. The date calculator of the calendar answers the same day.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import {
  animationsDone,
  expectDirection,
  languageButton,
  signInToDashboard,
  waitForApp,
} from '../lib/app.mjs';
import { officeToday, uniq } from '../lib/api.mjs';
import { escapeRegExp, t } from '../lib/i18n.mjs';
import { formDrawer, go } from '../lib/clients.mjs';
import { CALENDAR, LAWSUITS, SESSIONS, createLegalParties } from '../lib/legal.mjs';

const DEADLINES = '/admin/lawsuits/deadlines';

describe('deadlines started by a judgment', () => {
  const sys = useSystem();

  for (const lng of /** @type {const} */ (['ar', 'en'])) {
    const e = (key, vars) => t(lng, `entities:${key}`, vars);
    const l = (key, vars) => t(lng, `legal:${key}`, vars);
    const ui = (key, vars) => t(lng, `ui:${key}`, vars);

    test(
      `${lng}: a judgment recorded on a hearing puts its appeal deadline on the calendar and the lawsuit's page`,
      { timeout: 180_000 },
      () =>
        sys.with(`deadlines-judgment-${lng}`, async (open) => {
          const api = await sys.adminApi(lng);
          const parties = await createLegalParties(api);
          const today = await officeToday(sys.api(lng));
          const fileNumber = `E2E-D-${uniq()}`;
          const legalBasis = `Art. 187 ${uniq()}`;
          // A lawsuit type of its own: this rule alone applies to this lawsuit (not the other run's).
          const lawsuitType = await api.post('/admin/settings/lawsuit/types', { name: `نوع ${uniq()}` });
          const rule = await api.post('/admin/settings/deadlineRules', {
            name: `Appeal ${uniq()}`,
            event: 'judgmentIssued',
            lawsuitTypeIds: [lawsuitType.id],
            amount: 30,
            unit: 'days',
            calendar: 'gregorian',
            action: 'appeal',
            shift: 'next',
            legalBasis,
          });
          const lawsuit = await api.post(LAWSUITS, {
            fileNumber,
            filingDate: today,
            lawsuitTypeId: lawsuitType.id,
            courtId: parties.court.id,
            customerIds: [parties.client.id],
            opponentIds: [parties.opponent.id],
          });
          const hearing = await api.post(SESSIONS, { lawsuitId: lawsuit.id, date: today, time: '10:00' });
          const expected = await api.get(`/admin/deadlines/calculate?from=${today}&amount=30&unit=days`);

          const { page } = await open();
          await page.goto('/login');
          if (lng === 'en') {
            await languageButton(page, 'ar').click();
            await expectDirection(page, 'ltr', 'en');
          }
          await signInToDashboard(page, sys.admin.email, sys.admin.password);
          await go(page, `${SESSIONS}/${hearing.id}`);
          await waitForApp(page);
          // The button's accessible name starts with its icon's ("edit تعديل"): matched by its text.
          await page
            .getByRole('main')
            .getByRole('button')
            .filter({ hasText: new RegExp(`^${escapeRegExp(ui('actions.edit'))}$`) })
            .click();
          const drawer = formDrawer(page, lng, 'sessions', 'edit');
          // The client has no power of attorney: the office warns (its default) and lets the save through.
          const warning = drawer.getByTestId('procuration-warning');
          await warning.getByText(l('procurationCheck.warnTitle'), { exact: true }).waitFor();
          await warning
            .getByText(l('procurationCheck.none', { name: parties.client.name }), { exact: true })
            .waitFor();
          await drawer
            .getByLabel(e('sessions.fields.decision'), { exact: true })
            .fill('Judgment for the plaintiff');
          await drawer.getByLabel(e('sessions.fields.judgment'), { exact: true }).check();
          // The update as the API takes it: PUT on the hearings' path, the id in the body.
          const saved = page.waitForResponse(
            (r) => new URL(r.url()).pathname === `/api${SESSIONS}` && r.request().method() === 'PUT',
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
          const event = main
            .locator(`[data-date="${expected.due}"]`)
            .first()
            .getByText(title, { exact: true });
          await event.waitFor();
          await event.click();
          await page.waitForURL((url) => url.pathname.startsWith(`${DEADLINES}/`));
          await waitForApp(page);
          const deadlineId = Number(new URL(page.url()).pathname.split('/').pop());
          const row = await api.get(`${DEADLINES}/${deadlineId}`);
          assert.deepEqual(
            [row.ruleId, row.lawsuitId, row.dueDate, row.state, row.legalBasis],
            [rule.id, lawsuit.id, expected.due, 'open', legalBasis],
          );

          // The lawsuit's page: its deadlines tab lists it with its legal basis, open; done from there.
          await go(page, `${LAWSUITS}/${lawsuit.id}`);
          await waitForApp(page);
          await main.getByRole('tab', { name: e('deadlines.title'), exact: true }).click();
          const line = main.locator('tr').filter({ hasText: legalBasis });
          await line.getByText(e('deadlines.values.state.open'), { exact: true }).waitFor();
          await line.getByText(e('deadlines.values.action.appeal'), { exact: true }).waitFor();
          await line.getByRole('button', { name: e('deadlines.actions.close'), exact: true }).click();
          const closing = page.getByRole('dialog', { name: e('deadlines.actions.close') });
          // A click on a dialog still zooming in can land beside its button.
          await closing.waitFor();
          await animationsDone(closing);
          const closed = page.waitForResponse(
            (r) => new URL(r.url()).pathname === `/api${DEADLINES}/${deadlineId}/close`,
          );
          await closing.getByRole('button', { name: ui('actions.save') }).click();
          assert.equal((await closed).status(), 200);
          await line.getByText(e('deadlines.values.state.done'), { exact: true }).waitFor();
          assert.equal((await api.get(`${DEADLINES}/${deadlineId}`)).state, 'done');

          // The calculator of the calendar counts the same day.
          await go(page, CALENDAR);
          await page
            .getByRole('main')
            .getByRole('button')
            .filter({ hasText: new RegExp(`^${escapeRegExp(l('calculator.open'))}$`) })
            .click();
          const dialog = page.getByRole('dialog', { name: l('calculator.title') });
          const counted = page.waitForResponse(
            (r) => new URL(r.url()).pathname === '/api/admin/deadlines/calculate',
          );
          await dialog.getByRole('button', { name: l('calculator.calculate') }).click();
          const answer = await counted;
          assert.equal(answer.status(), 200);
          assert.equal((await answer.json()).data.due, expected.due);
          await eventually(async () => (await dialog.getByTestId('calculator-due').count()) === 1, {
            message: 'the calculator answers',
          });
        }),
    );
  }
});
