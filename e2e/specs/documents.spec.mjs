// Documents generated from the lawsuit page, in Arabic: "Generate document" → the seeded fee
// receipt → a DOCX stored as the lawsuit's attachment; the fields the lawsuit lacks are listed in
// the dialog. When LibreOffice is on the machine, the PDF choice is enabled and the preview shows
// in a frame. (What the document says is checked by server/src/documents/documents.test.ts.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSystem } from '../lib/harness.mjs';
import { animationsDone, signInToDashboard, waitForApp } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { t } from '../lib/i18n.mjs';
import { go } from '../lib/clients.mjs';
import { ATTACHMENTS, LAWSUITS, createLegalParties, pickOption } from '../lib/legal.mjs';

describe('documents generated from a record page', () => {
  const sys = useSystem();

  test(
    'ar: a fee receipt generated from the lawsuit page is stored with the lawsuit',
    { timeout: 240_000 },
    () =>
      sys.with('documents-generate-ar', async (open) => {
        const lng = 'ar';
        const ui = (key, vars) => t(lng, `ui:${key}`, vars);
        const api = await sys.adminApi(lng);
        const parties = await createLegalParties(api);
        const lawsuit = await api.post(LAWSUITS, {
          fileNumber: `E2E-DOC-${uniq()}`,
          courtId: parties.court.id,
          customerIds: [parties.client.id],
          agreedFee: 120_000,
        });
        const templates = await api.get('/admin/documents/templates?record=lawsuit&pageSize=50');
        const receipt = templates.items.find((row) => row.kind === 'receipt');
        assert.ok(receipt, 'the seeded fee receipt template');
        const tools = await api.get('/admin/documents/tools');

        const { page } = await open();
        await page.goto('/login');
        await signInToDashboard(page, sys.admin.email, sys.admin.password);
        await go(page, `${LAWSUITS}/${lawsuit.id}`);
        await waitForApp(page);
        await page
          .getByRole('main')
          .getByRole('button')
          .filter({ hasText: ui('documents.generate') })
          .click();
        const dialog = page.getByRole('dialog', { name: ui('documents.generateTitle') });
        await dialog.waitFor();
        await animationsDone(dialog);
        // The templates load as the dialog opens: a click on an option while they arrive is lost.
        await pickOption(page, dialog, ui('documents.template'), receipt.name, { search: false });
        // PDF is offered exactly when the server can make it.
        assert.equal(await dialog.getByRole('radio', { name: 'PDF' }).isDisabled(), !tools.pdf);
        const generated = page.waitForResponse(
          (r) =>
            new URL(r.url()).pathname === '/api/admin/documents/generate' && r.request().method() === 'POST',
        );
        await dialog.getByRole('button', { name: ui('documents.generate') }).click();
        const answer = await generated;
        assert.equal(answer.status(), 201);
        const { data } = await answer.json();
        await dialog.getByText(ui('documents.generated', { name: data.attachment.name })).waitFor();
        // The lawsuit has no case number: the dialog says which fields were left empty.
        await dialog.getByText('lawsuit.caseNumber', { exact: false }).waitFor();
        if (tools.pdf) await dialog.locator('iframe').waitFor({ timeout: 120_000 });

        const attachments = await api.get(`${ATTACHMENTS}?lawsuitId=${lawsuit.id}`);
        assert.equal(attachments.items.length, 1);
        assert.equal(attachments.items[0].id, data.attachment.id);
      }),
  );
});
