// A day at the office in Arabic: what an employee did reads with the verb agreeing with her
// (أغلقت), no raw action names; a postponement chain of two hearings counted in the dual, its
// steps in the dates' digits; a file's size in Arabic units; and a session that survives a
// resized window, a reload and a window reopened at another size.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { uniq } from '../lib/api.mjs';
import { allPermissions, createReadyEmployee, signInToDashboard, waitForApp } from '../lib/app.mjs';
import { arabicTag, nationalIdNumber } from '../lib/clients.mjs';
import { eventually, useSystem } from '../lib/harness.mjs';
import { pdfBytes } from '../lib/sampleFiles.mjs';
import { t } from '../lib/i18n.mjs';

const sys = useSystem();

/** Arabic-Indic digits of a number, as the screens write it. */
const arabicDigits = (n) => new Intl.NumberFormat('ar-EG', { useGrouping: false }).format(n);

/** A lawyer with every permission, named as a woman and recorded as one, signed in through the API. */
async function fatima() {
  const admin = await sys.adminApi();
  const permissionIds = (await allPermissions(admin)).map((p) => p.id);
  const role = await admin.post('/employees/roles', { name: `دور ${uniq()}`, permissionIds });
  const name = `فاطمة ${arabicTag()}`;
  const person = await createReadyEmployee(sys, admin, { roleIds: [role.id], name });
  const current = await admin.get(`/employees/employees/${person.id}`);
  await admin.patch(`/employees/employees/${person.id}`, { gender: 'female', updatedAt: current.updatedAt });
  const api = sys.api();
  await api.login(person.email, person.password);
  return { ...person, api };
}

/** A lawsuit of a new client, opened through `api`. */
async function newLawsuit(api, subject) {
  const client = await api.post('/admin/customers', {
    name: `موكل ${arabicTag()}`,
    kind: 'person',
    nationalId: nationalIdNumber(),
  });
  return api.post('/admin/lawsuits', { subject, customerIds: [client.id] });
}

describe('Arabic that reads naturally', () => {
  test('the audit trail says what she did, the verb agreeing with her; no raw action', () =>
    sys.with('audit-female', async (open) => {
      const her = await fatima();
      const stage = await her.api.post('/admin/settings/lawsuit/cases', {
        name: `حكم نهائي ${arabicTag()}`,
        outcome: 'won',
      });
      const lawsuit = await newLawsuit(her.api, 'مطالبة مالية');
      await her.api.patch(`/admin/lawsuits/${lawsuit.id}/close`, {
        lawsuitCaseId: stage.id,
        updatedAt: lawsuit.updatedAt,
      });

      const { page } = await open();
      await page.goto('/login');
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      await page.goto('/admin/settings/system/audit');
      const row = page.getByRole('row').filter({ hasText: her.name }).filter({ hasText: 'أغلقت' });
      await row.first().waitFor();
      // The lawsuit's creation by her too: "أضافت", never the masculine "أضاف" nor the raw verb.
      await page
        .getByRole('row')
        .filter({ hasText: her.name })
        .filter({ hasText: 'أضافت' })
        .first()
        .waitFor();
      const table = await page.getByRole('table').first().innerText();
      assert.doesNotMatch(table, /\b(close|create|update)\b/, `no raw action in: ${table.slice(0, 400)}`);
    }));

  test('a chain of two hearings is counted in the dual, each step in Arabic digits', () =>
    sys.with('chain-dual', async (open) => {
      const her = await fatima();
      const lawsuit = await newLawsuit(her.api, 'دعوى تأجيل');
      const first = await her.api.post('/admin/lawsuits/sessions', {
        lawsuitId: lawsuit.id,
        date: '2026-02-01',
      });
      const postponed = await her.api.patch(`/admin/lawsuits/sessions/${first.id}/postpone`, {
        decision: 'للاطلاع',
        nextDate: '2026-03-01',
        updatedAt: first.updatedAt,
      });
      assert.ok(postponed, 'the postponement answered');

      const { page } = await open();
      await page.goto('/login');
      await signInToDashboard(page, her.email, her.password);
      await page.goto(`/admin/lawsuits/sessions/${first.id}`);
      const chain = page.getByRole('region', { name: t('ar', 'legal:sessions.chain.title') });
      await chain.getByText(t('ar', 'legal:sessions.chain.count_two')).waitFor();
      const steps = await chain.getByText(/^الجلسة /).allInnerTexts();
      assert.deepEqual(steps, ['الجلسة ١', 'الجلسة ٢']);
    }));

  test("a file's size is written in Arabic units and digits", () =>
    sys.with('file-size', async (open) => {
      const her = await fatima();
      const admin = await sys.adminApi();
      const bytes = pdfBytes('ملف صغير');
      const current = await admin.get(`/employees/employees/${her.id}`);
      const form = new FormData();
      form.set('updatedAt', current.updatedAt);
      form.append('files', new Blob([bytes], { type: 'application/pdf' }), 'عقد.pdf');
      await admin.patch(`/employees/employees/${her.id}`, form);
      assert.ok(bytes.length < 1024, 'a file under a kilobyte');

      const { page } = await open();
      await page.goto('/login');
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      await page.goto(`/admin/employees/employees/${her.id}?tab=files`);
      await page
        .getByText(`${arabicDigits(bytes.length)} بايت`)
        .first()
        .waitFor();
      const body = await page.locator('main').innerText();
      assert.doesNotMatch(body, /\d+ (B|KB|MB)\b/, 'no Latin size');
    }));
});

describe('a session outlives the window', () => {
  test('a resized window, a reload and a window reopened at another size stay signed in', () =>
    sys.with('resize-reload', async (open) => {
      const { page, context } = await open();
      const unauthorised = [];
      /** Calls sent without the device's fingerprint: a session not bound to one proves nothing. */
      const unbound = [];
      context.on('request', (r) => {
        const { pathname } = new URL(r.url());
        if (pathname.startsWith('/api/') && !pathname.startsWith('/api/auth/systemSettings'))
          if (!r.headers()['x-fingerprint-session']) unbound.push(pathname);
      });
      page.on('response', (r) => {
        if (r.status() === 401 && new URL(r.url()).pathname.startsWith('/api/')) unauthorised.push(r.url());
      });
      await page.goto('/login');
      await signInToDashboard(page, sys.admin.email, sys.admin.password);

      // The screen the page sees changes with the window (what the session's fingerprint once read).
      const screenBefore = await page.evaluate(() => `${screen.width}x${screen.height}`);
      await page.setViewportSize({ width: 800, height: 600 });
      const screenAfter = await page.evaluate(() => `${screen.width}x${screen.height}`);
      assert.notEqual(screenAfter, screenBefore);
      await page.reload();
      await waitForApp(page);
      assert.match(new URL(page.url()).pathname, /^\/admin\/dashboard/);

      // The window closed and another opened with the browser's stored data, at a phone's size.
      await page.close();
      const again = await context.newPage();
      await again.setViewportSize({ width: 390, height: 844 });
      await again.goto('/admin/dashboard');
      await waitForApp(again);
      await eventually(() => /^\/admin\/dashboard/.test(new URL(again.url()).pathname));
      assert.deepEqual(unauthorised, []);
      assert.deepEqual(unbound, []);
    }));
});
