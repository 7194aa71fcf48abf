// A day at the office as the two seeded roles that do the daily work live it, in Arabic at 1,440 px:
// a secretary and a lawyer, created by the administrator from the seeded roles, each in their own
// browser. The secretary registers a client (their lawyer picked), a power of attorney with a PDF,
// a lawsuit with its lawyers (the lawyer picker offers lawyers only) and its hearing, and gives
// the lawyer a task; the lawyer postpones the hearing, gives the secretary a task, records a
// payment on the lawsuit and closes it as won. Neither browser sees a refused request (4xx) or an
// error toast at any point; the secretary's dashboard shows no fee figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { eventually, useSystem } from '../lib/harness.mjs';
import { createReadyEmployee, signInToDashboard, toast, waitForApp } from '../lib/app.mjs';
import { addDays, officeToday, uniq } from '../lib/api.mjs';
import { t, tx } from '../lib/i18n.mjs';
import { writeSampleFiles } from '../lib/sampleFiles.mjs';
import { arabicTag, formDrawer, go, nationalIdNumber, CUSTOMERS, PROCURATIONS } from '../lib/clients.mjs';
import { fillDate, formItem, pickOption, LAWSUITS, SESSIONS } from '../lib/legal.mjs';
import { TASKS } from '../lib/tasks.mjs';

const sys = useSystem();
const lng = 'ar';
const e = (key, vars) => t(lng, `entities:${key}`, vars);
const l = (key, vars) => t(lng, `legal:${key}`, vars);
const save = () => tx(lng, 'ui:actions.save');
const createNamed = (entity) => tx(lng, 'ui:actions.createNamed', { name: e(`${entity}.singular`) });

/** The response to `method path` (under /api, exact), to await after the click that sends it. */
const answer = (page, method, path) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === `/api${path}` && r.request().method() === method);

/**
 * Watches one person's browser: every API answer of 400 and above, and every error toast or
 * notification shown (kept by an observer in the page, so a toast gone by the end still counts).
 */
async function watch(page) {
  const refused = [];
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/') && r.status() >= 400)
      refused.push(`${r.request().method()} ${url.pathname}${url.search} → ${r.status()}`);
  });
  await page.addInitScript(() => {
    const seen = [];
    Object.defineProperty(window, '__errorToasts', { value: seen });
    const look = (root) => {
      if (!(root instanceof Element)) return;
      const found = root.matches('.ant-message-error, .ant-notification-notice-error')
        ? [root]
        : [...root.querySelectorAll('.ant-message-error, .ant-notification-notice-error')];
      for (const node of found) seen.push(node.textContent ?? '');
    };
    new MutationObserver((records) => {
      for (const r of records) for (const node of r.addedNodes) look(node);
    }).observe(document, { childList: true, subtree: true });
  });
  return {
    refused,
    errorToasts: () => page.evaluate(() => [...(window.__errorToasts ?? [])]),
  };
}

/** Picks `option` in a reference select and checks what the picker offered for `typed`. */
async function offered(page, scope, label, typed) {
  const combo = scope.getByLabel(label, { exact: true });
  await combo.click();
  await combo.fill(typed);
  const list = page.locator('.ant-select-dropdown:visible');
  // The picker's answer for what was typed (debounced), then its options.
  await page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/options/'));
  await page.waitForTimeout(200);
  const titles = await list
    .locator('.ant-select-item-option')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('title') ?? n.textContent ?? ''));
  await combo.fill('');
  await page.keyboard.press('Escape');
  return titles;
}

test(
  'a secretary and a lawyer from the seeded roles walk their day with no refused request and no error toast',
  { timeout: 600_000 },
  async () => {
    const admin = await sys.adminApi(lng);
    const tag = arabicTag();
    const lawyer = await createReadyEmployee(sys, admin, { roleNames: ['محامٍ'], name: `المحامي ${tag}` });
    const secretary = await createReadyEmployee(sys, admin, {
      roleNames: ['سكرتير'],
      name: `السكرتيرة ${tag}`,
    });
    const today = await officeToday(sys.api(lng));
    const hearingDay = addDays(today, 3);
    const nextDay = addDays(today, 24);
    const files = writeSampleFiles(`office-day-${uniq()}`);
    // A final case to close with, and a pending one a new lawsuit starts at: the office's settings.
    await admin.post('/admin/settings/lawsuit/cases', { name: `قيد النظر ${tag}`, outcome: 'ongoing' });
    const wonCase = await admin.post('/admin/settings/lawsuit/cases', {
      name: `حكم لصالحنا ${tag}`,
      outcome: 'won',
    });

    const clientName = `موكل اليوم ${tag}`;
    const poaNumber = `ت-${uniq()}`;
    const fileNumber = `يوم-${uniq()}`;
    const made = {};

    try {
      await sys.with('office-day', async (open) => {
        // ——— The secretary ———
        const desk = await open();
        const deskWatch = await watch(desk.page);
        const page = desk.page;
        await signInToDashboard(page, secretary.email, secretary.password);
        // The office's fee figures are not the front desk's.
        await page.getByTestId('figure-lawsuits').waitFor();
        assert.equal(await page.getByTestId('figure-fees').count(), 0, 'no fee figures for the secretary');

        // A client, their lawyer picked from the lawyers.
        await go(page, CUSTOMERS);
        await page.getByRole('button', { name: createNamed('customers') }).click();
        let drawer = formDrawer(page, lng, 'customers');
        await drawer.getByLabel(e('customers.fields.name'), { exact: true }).fill(clientName);
        await drawer.getByLabel(e('customers.fields.nationalId'), { exact: true }).fill(nationalIdNumber());
        await pickOption(page, drawer, e('customers.fields.lawyerId'), lawyer.name);
        let created = answer(page, 'POST', CUSTOMERS);
        await drawer.getByRole('button', { name: save() }).click();
        let res = await created;
        assert.equal(res.status(), 201, `client: ${await res.text()}`);
        made.client = (await res.json()).data;
        assert.equal(made.client.lawyerId, lawyer.id);
        await drawer.waitFor({ state: 'hidden' });

        // A power of attorney with a PDF, for that client and lawyer.
        await go(page, PROCURATIONS);
        await page.getByRole('button', { name: createNamed('procurations') }).click();
        drawer = formDrawer(page, lng, 'procurations');
        await drawer.getByLabel(e('procurations.fields.number'), { exact: true }).fill(poaNumber);
        await drawer.getByLabel(e('procurations.fields.year'), { exact: true }).fill('2026');
        await pickOption(page, drawer, e('procurations.fields.customerIds'), clientName);
        await pickOption(page, drawer, e('procurations.fields.lawyerIds'), lawyer.name);
        await fillDate(drawer, e('procurations.fields.issueDate'), today);
        await drawer.locator('input[type=file]').setInputFiles([files.pdf.path]);
        await drawer.getByText(files.pdf.name, { exact: true }).waitFor();
        created = answer(page, 'POST', PROCURATIONS);
        await drawer.getByRole('button', { name: save() }).click();
        res = await created;
        assert.equal(res.status(), 201, `power of attorney: ${await res.text()}`);
        const poa = (await res.json()).data;
        assert.deepEqual(poa.lawyerIds, [lawyer.id]);
        assert.deepEqual(
          poa.files.map((f) => f.originalName),
          [files.pdf.name],
        );
        await drawer.waitFor({ state: 'hidden' });

        // A lawsuit with its lawyers: the picker offers the lawyer, not the secretary.
        await go(page, LAWSUITS);
        await page.getByRole('button', { name: createNamed('lawsuits') }).click();
        drawer = formDrawer(page, lng, 'lawsuits');
        await drawer.getByLabel(e('lawsuits.fields.fileNumber'), { exact: true }).fill(fileNumber);
        await pickOption(page, drawer, e('lawsuits.fields.customerIds'), clientName);
        assert.deepEqual(await offered(page, drawer, e('lawsuits.fields.lawyerIds'), tag), [lawyer.name]);
        await pickOption(page, drawer, e('lawsuits.fields.lawyerIds'), lawyer.name);
        await drawer.getByLabel(e('lawsuits.fields.agreedFee'), { exact: true }).fill('5000');
        created = answer(page, 'POST', LAWSUITS);
        await drawer.getByRole('button', { name: save() }).click();
        res = await created;
        assert.equal(res.status(), 201, `lawsuit: ${await res.text()}`);
        made.lawsuit = (await res.json()).data;
        assert.deepEqual(made.lawsuit.lawyerIds, [lawyer.id]);
        await drawer.waitFor({ state: 'hidden' });

        // Its hearing, with the attending lawyer.
        await go(page, `${LAWSUITS}/${made.lawsuit.id}`);
        await page.getByRole('main').getByRole('heading', { name: fileNumber }).waitFor();
        await page.getByRole('tab', { name: e('sessions.title'), exact: true }).click();
        let panel = page.getByRole('tabpanel', { name: e('sessions.title'), exact: true });
        await panel.getByRole('button', { name: createNamed('sessions') }).click();
        drawer = formDrawer(page, lng, 'sessions');
        await formItem(drawer, e('sessions.fields.lawsuitId')).filter({ hasText: fileNumber }).waitFor();
        await fillDate(drawer, e('sessions.fields.date'), hearingDay);
        await drawer.getByLabel(e('sessions.fields.time'), { exact: true }).fill('10:00');
        await pickOption(page, drawer, e('sessions.fields.lawyerId'), lawyer.name);
        created = answer(page, 'POST', SESSIONS);
        await drawer.getByRole('button', { name: save() }).click();
        res = await created;
        assert.equal(res.status(), 201, `hearing: ${await res.text()}`);
        made.hearing = (await res.json()).data;
        assert.equal(made.hearing.lawyerId, lawyer.id);
        await drawer.waitFor({ state: 'hidden' });

        // A task for the lawyer.
        await go(page, TASKS);
        await page.getByRole('button', { name: createNamed('tasks') }).click();
        drawer = formDrawer(page, lng, 'tasks');
        await drawer.getByLabel(e('tasks.fields.title'), { exact: true }).fill(`تحضير مذكرة ${tag}`);
        await pickOption(page, drawer, e('tasks.fields.assigneeIds'), lawyer.name);
        created = answer(page, 'POST', TASKS);
        await drawer.getByRole('button', { name: save() }).click();
        res = await created;
        assert.equal(res.status(), 201, `task for the lawyer: ${await res.text()}`);
        assert.deepEqual((await res.json()).data.assigneeIds, [lawyer.id]);
        await drawer.waitFor({ state: 'hidden' });

        // ——— The lawyer ———
        const office = await open();
        const officeWatch = await watch(office.page);
        const lp = office.page;
        await signInToDashboard(lp, lawyer.email, lawyer.password);

        // The hearing is postponed from its page.
        await go(lp, `${SESSIONS}/${made.hearing.id}`);
        const main = lp.getByRole('main');
        await main.getByRole('button', { name: tx(lng, 'legal:sessions.postpone.action') }).click();
        const dialog = lp.getByRole('dialog', { name: l('sessions.postpone.title') });
        await dialog
          .getByLabel(e('sessions.fields.decision'), { exact: true })
          .fill('للاطلاع وتقديم مستندات');
        await fillDate(dialog, e('sessions.fields.nextDate'), nextDay);
        const postponed = answer(lp, 'PATCH', `${SESSIONS}/${made.hearing.id}/postpone`);
        await dialog.getByRole('button', { name: tx(lng, 'legal:sessions.postpone.ok') }).click();
        res = await postponed;
        assert.equal(res.status(), 200, `postponed: ${await res.text()}`);
        assert.equal((await res.json()).data.nextDate, nextDay);
        await dialog.waitFor({ state: 'hidden' });

        // A task for the secretary.
        await go(lp, TASKS);
        await lp.getByRole('button', { name: createNamed('tasks') }).click();
        drawer = formDrawer(lp, lng, 'tasks');
        await drawer.getByLabel(e('tasks.fields.title'), { exact: true }).fill(`الاتصال بالموكل ${tag}`);
        await pickOption(lp, drawer, e('tasks.fields.assigneeIds'), secretary.name);
        created = answer(lp, 'POST', TASKS);
        await drawer.getByRole('button', { name: save() }).click();
        res = await created;
        assert.equal(res.status(), 201, `task for the secretary: ${await res.text()}`);
        assert.deepEqual((await res.json()).data.assigneeIds, [secretary.id]);
        await drawer.waitFor({ state: 'hidden' });

        // A payment on the lawsuit, from its payments tab.
        await go(lp, `${LAWSUITS}/${made.lawsuit.id}`);
        await lp.getByRole('main').getByRole('heading', { name: fileNumber }).waitFor();
        await lp.getByRole('tab', { name: l('lawsuits.tabs.payments'), exact: true }).click();
        panel = lp.getByRole('tabpanel', { name: l('lawsuits.tabs.payments'), exact: true });
        await panel.getByRole('button', { name: createNamed('lawsuitPayments') }).click();
        drawer = formDrawer(lp, lng, 'lawsuitPayments');
        await formItem(drawer, e('lawsuitPayments.fields.lawsuitId'))
          .filter({ hasText: fileNumber })
          .waitFor();
        await drawer.getByLabel(e('lawsuitPayments.fields.amount'), { exact: true }).fill('1500');
        await fillDate(drawer, e('lawsuitPayments.fields.paidOn'), today);
        created = answer(lp, 'POST', '/admin/lawsuits/payments');
        await drawer.getByRole('button', { name: save() }).click();
        res = await created;
        assert.equal(res.status(), 201, `payment: ${await res.text()}`);
        assert.equal((await res.json()).data.amount, 150_000);
        await drawer.waitFor({ state: 'hidden' });

        // The lawsuit is closed as won: only final cases are offered.
        await lp
          .getByRole('main')
          .getByRole('button', { name: l('lawsuits.close.action') })
          .click();
        const closing = lp.getByRole('dialog', { name: l('lawsuits.close.title', { name: fileNumber }) });
        const caseBox = closing.getByLabel(e('lawsuits.fields.lawsuitCaseId'), { exact: true });
        await caseBox.click();
        const options = lp.locator('.ant-select-dropdown:visible .ant-select-item-option');
        await options.first().waitFor();
        const names = await options.allInnerTexts();
        assert.ok(
          names.every((n) => !n.includes(`قيد النظر ${tag}`)),
          `no pending case offered: ${names.join(' | ')}`,
        );
        await lp
          .locator('.ant-select-dropdown:visible')
          .getByText(new RegExp(`حكم لصالحنا ${tag}`))
          .click();
        const closed = answer(lp, 'PATCH', `${LAWSUITS}/${made.lawsuit.id}/close`);
        await closing.getByRole('button', { name: l('lawsuits.close.ok') }).click();
        res = await closed;
        assert.equal(res.status(), 200, `closed: ${await res.text()}`);
        assert.equal((await res.json()).data.lawsuitCaseId, wonCase.id);
        await toast(lp, l('lawsuits.close.done', { name: fileNumber }));

        // The secretary's screens again (the task the lawyer gave her among them).
        await go(page, TASKS);
        await page.getByRole('main').getByText(`الاتصال بالموكل ${tag}`).waitFor();
        await waitForApp(page);

        // Nothing refused, nothing red, in either browser.
        await eventually(async () => true, { message: 'settled' });
        assert.deepEqual(deskWatch.refused, [], 'the secretary saw refused requests');
        assert.deepEqual(officeWatch.refused, [], 'the lawyer saw refused requests');
        assert.deepEqual(await deskWatch.errorToasts(), [], 'the secretary saw error toasts');
        assert.deepEqual(await officeWatch.errorToasts(), [], 'the lawyer saw error toasts');
      });
    } finally {
      fs.rmSync(files.dir, { recursive: true, force: true });
    }

    // Closing as won moved the office's success rate (the administrator's dashboard).
    const dashboard = await admin.get('/admin/dashboard');
    assert.ok(dashboard.rates.successRate > 0, `success rate ${dashboard.rates.successRate}`);
  },
);
