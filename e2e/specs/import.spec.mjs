// Police stations import: a CSV with one bad row shows the row's error in
// the preview and cannot be committed (nothing is written); a clean XLSX then imports.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { eventually, useSystem } from '../lib/harness.mjs';
import { openMenuItem, signInToDashboard, toast } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { t, tx } from '../lib/i18n.mjs';

const sys = useSystem();
const STATIONS = '/admin/settings/places/policeStations';

async function xlsx(rows) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('policeStations');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('police stations import', () => {
  test('a file with one bad row shows the error in the preview and imports nothing; a clean file imports', () =>
    sys.with('import', async (open) => {
      const api = await sys.adminApi();
      const id = uniq();
      const continent = await api.post('/admin/settings/places/continents', { name: `قارة ${id}` });
      const country = await api.post('/admin/settings/places/countries', {
        name: `دولة ${id}`,
        continentId: continent.id,
      });
      const governorate = await api.post('/admin/settings/places/governorates', {
        name: `محافظة ${id}`,
        countryId: country.id,
      });
      const prefix = `قسم ${id}`;

      const { page } = await open();
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      await openMenuItem(page, 'places', 'policeStations');
      await page.waitForURL(`**${STATIONS}`);
      const title = t('ar', 'entities:policeStations.title');
      await page.getByRole('heading', { name: tx('ar', 'entities:policeStations.title') }).waitFor();

      await page.getByRole('button', { name: tx('ar', 'ui:import.button') }).click();
      const dialog = page.getByRole('dialog', { name: t('ar', 'ui:import.title', { title }) });
      await dialog.waitFor();

      // Row 4 (the third data row) names a governorate that does not exist.
      const csv = [
        'name,governorate,address',
        `${prefix} 1,${governorate.name},شارع 1`,
        `${prefix} 2,${governorate.name},شارع 2`,
        `${prefix} 3,محافظة لا وجود لها ${id},شارع 3`,
      ].join('\n');
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'stations.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv, 'utf8'),
      });

      // The preview: 3 rows, 2 valid, 1 with an error, listed with its row number and reason.
      const summary = dialog.locator('.ant-descriptions');
      await summary.waitFor({ timeout: 20_000 });
      const cell = (label) =>
        summary
          .locator('th, .ant-descriptions-item-label')
          .filter({ hasText: label })
          .locator('xpath=following-sibling::*[1]');
      assert.equal((await cell(t('ar', 'ui:import.total')).innerText()).trim(), '3');
      assert.equal((await cell(t('ar', 'ui:import.valid')).innerText()).trim(), '2');
      assert.equal((await cell(t('ar', 'ui:import.invalid')).innerText()).trim(), '1');
      await dialog.getByText(t('ar', 'ui:import.errorsHint')).waitFor();
      const errorRow = dialog
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: '4', exact: true }) });
      await errorRow.waitFor();
      const reason = await errorRow.innerText();
      assert.match(reason, /[\u0600-\u06FF]{3}/, `an Arabic reason for row 4: ${reason}`);
      // All or nothing: the commit button is refused while a row is wrong.
      const commit = dialog.getByRole('button', {
        name: new RegExp(t('ar', 'ui:import.commit', { count: 2 })),
      });
      assert.equal(await commit.isDisabled(), true, 'commit disabled with an invalid row');
      assert.equal(
        (await api.get(`${STATIONS}?q=${encodeURIComponent(prefix)}`)).total,
        0,
        'nothing written',
      );

      // Another file, XLSX this time, without the bad row: it imports.
      await dialog.getByRole('button', { name: tx('ar', 'ui:import.otherFile') }).click();
      const good = await xlsx([
        ['name', 'governorate', 'address'],
        [`${prefix} 1`, governorate.name, 'شارع 1'],
        [`${prefix} 2`, governorate.name, 'شارع 2'],
      ]);
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'stations.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: good,
      });
      await summary.waitFor();
      await eventually(async () => (await cell(t('ar', 'ui:import.valid')).innerText()).trim() === '2', {
        message: 'two valid rows',
      });
      await dialog
        .getByRole('button', { name: new RegExp(t('ar', 'ui:import.commit', { count: 2 })) })
        .click();
      await dialog.getByText(t('ar', 'ui:import.doneTitle')).waitFor({ timeout: 20_000 });
      await toast(page, t('ar', 'ui:import.committed', { count: 2 }));
      // The result's own close button (the dialog's corner × has the same name).
      await dialog
        .locator('.ant-result')
        .getByRole('button', { name: tx('ar', 'ui:actions.close') })
        .click();

      const saved = await api.get(`${STATIONS}?q=${encodeURIComponent(prefix)}&pageSize=100`);
      assert.equal(saved.total, 2);
      assert.deepEqual(
        saved.items.map((s) => s.governorateId),
        [governorate.id, governorate.id],
      );
      await page
        .getByRole('row')
        .filter({ hasText: `${prefix} 1` })
        .waitFor();
    }));
});
