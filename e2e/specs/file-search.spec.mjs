// A power of attorney scanned on paper is found by a word inside it: a two-page scan (images only,
// no text layer: Chromium draws the Arabic pages with the application's own font and prints them as
// pictures) is uploaded with the power of attorney, read by OCR in the background, and the header
// search finds it by a spelling without hamza; choosing the hit opens the power of attorney's files
// tab with the scan previewed at the page where the word stands. (The OCR itself, its folding and
// its pages are checked by server/src/filetext/filetext.test.ts.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import { signInToDashboard } from '../lib/app.mjs';
import { addDays, officeToday, uniq } from '../lib/api.mjs';
import { t } from '../lib/i18n.mjs';
import { CUSTOMERS, PROCURATIONS, nationalIdNumber } from '../lib/clients.mjs';

/** A word no other row of the run holds, in the Arabic script, so that the search finds only it. */
const uniqueWord = () =>
  Array.from(uniq().slice(-5), (c) => 'بتثجحخدذرزسشصضطظعغفقكلمنهوي'[c.charCodeAt(0) % 27]).join('');

/**
 * A scanned PDF of two A4 pages, each only a picture of Arabic text: page 1 a heading, page 2 the
 * clause holding `word`. Drawn in `page` (on the application's origin, whose font is loaded).
 */
async function scannedPdf(page, word) {
  const pictures = [];
  for (const lines of [
    ['توكيل رسمي عام', 'صورة طبق الأصل'],
    ['البند الثالث', `للوكيل حق فسخ عقد الإيجار ${word}`, 'وقبض الأجرة والتصالح'],
  ]) {
    await page.evaluate((texts) => {
      document.body.innerHTML = '';
      document.body.style.cssText = 'margin:0;background:#fff';
      const sheet = document.createElement('div');
      sheet.dir = 'rtl';
      sheet.style.cssText =
        'width:1240px;height:1754px;padding:160px 120px;box-sizing:border-box;background:#fff;color:#000;' +
        "font:600 56px/1.9 'IBM Plex Sans Arabic',sans-serif";
      for (const text of texts)
        sheet.append(Object.assign(document.createElement('p'), { textContent: text }));
      document.body.append(sheet);
    }, lines);
    // Loaded before the picture is taken: the faces swap in once fetched (`font-display: swap`),
    // and `document.fonts.ready` may resolve before a face's fetch has begun, leaving the page in
    // a system font that OCR reads otherwise.
    const faces = await page.evaluate(
      (texts) =>
        document.fonts.load("600 56px 'IBM Plex Sans Arabic'", texts.join(' ')).then((f) => f.length),
      lines,
    );
    assert.ok(faces > 0, "the application's font is declared on the page");
    pictures.push((await page.locator('body > div').screenshot({ type: 'png' })).toString('base64'));
  }
  await page.setContent(
    `<style>@page{size:A4;margin:0}body{margin:0}img{display:block;width:210mm;height:297mm}</style>` +
      pictures.map((png) => `<img src="data:image/png;base64,${png}">`).join(''),
  );
  return page.pdf({ format: 'A4', printBackground: true });
}

describe('files found by what they say', () => {
  const sys = useSystem();

  test(
    'ar: a scanned power of attorney is found by a word on its second page and opened there',
    { timeout: 300_000 },
    () =>
      sys.with('file-search-ar', async (open) => {
        const lng = 'ar';
        const api = await sys.adminApi(lng);
        const { page } = await open();
        // The sign-in page carries the application's fonts for the scan to be drawn with.
        await page.goto('/login');
        await page.waitForLoadState('networkidle');
        const word = uniqueWord();
        const scan = await scannedPdf(page, word);

        const client = await api.post(CUSTOMERS, {
          name: `سعاد الأنصاري ${word}`,
          kind: 'person',
          nationalId: nationalIdNumber(),
        });
        const form = new FormData();
        form.set('number', `E2E-SCAN-${uniq()}`);
        form.set('year', '2025');
        form.append('customerIds', String(client.id));
        const today = await officeToday(api);
        form.set('issueDate', addDays(today, -30));
        form.set('expiryDate', addDays(today, 300));
        form.append('files', new Blob([scan], { type: 'application/pdf' }), 'توكيل ممسوح.pdf');
        const procuration = await api.post(PROCURATIONS, form);
        const fileId = procuration.files[0].id;

        const state = await eventually(
          async () => {
            const text = await api.get(
              `/files/text?entity=procurations&id=${procuration.id}&fileId=${fileId}`,
            );
            // `ocr` once a page is read: every page is, once the progress is complete.
            const read = text.progress.done >= text.progress.total;
            return ['failed', 'unavailable'].includes(text.state) || (text.state === 'ocr' && read)
              ? text
              : null;
          },
          { timeout: 180_000, interval: 1_000, message: 'both pages of the scan read in the background' },
        );
        // Without tesseract the file is kept and says why it has no text: nothing to search.
        if (state.state === 'unavailable') return;
        assert.equal(state.state, 'ocr', JSON.stringify(state));
        assert.match(
          state.pages.find((p) => p.page === 2)?.text ?? '',
          /للوكيل/,
          JSON.stringify(state.pages),
        );

        await page.goto('/login');
        await signInToDashboard(page, sys.admin.email, sys.admin.password);
        const search = page.getByRole('combobox', { name: t(lng, 'layout:search.label') });
        // Typed as people type it: "الايجار" without the hamza the scan has. Only this file of the
        // run's database holds these two words. Short words are left out: OCR reads an Arabic and
        // English page, and took the random word, and once "عقد", for Latin letters ("adc");
        // words of six letters and more it reads as drawn.
        const hit = page
          .locator('.ant-select-dropdown:visible')
          .getByText(t(lng, 'layout:search.filePage', { page: 2 }), { exact: false });
        // In the full run (never alone) the box once showed "no results" for a query the server
        // answered with the file: typed again, as a person would, until the hit shows (three tries).
        for (let attempt = 1; ; attempt++) {
          await search.fill('');
          await search.fill('للوكيل الايجار');
          try {
            await hit.waitFor({ timeout: 10_000 });
            break;
          } catch (error) {
            if (attempt >= 3) throw error;
          }
        }
        await hit.click();
        await page.waitForURL(
          (url) =>
            url.pathname.endsWith(`/procurations/${procuration.id}`) &&
            url.searchParams.get('file') === String(fileId) &&
            url.searchParams.get('page') === '2',
        );
        const preview = page.getByRole('tabpanel').locator('iframe');
        await preview.waitFor();
        assert.match((await preview.getAttribute('src')) ?? '', /#page=2$/);
        await page
          .getByRole('tabpanel')
          .getByText(t(lng, 'ui:record.files.text.ocr', { confidence: '' }).split('(')[0].trim(), {
            exact: false,
          })
          .waitFor();
      }),
  );
});
