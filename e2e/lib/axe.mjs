// axe-core run straight in the page: the source is evaluated once per document (the single-page
// app keeps it across its own navigations) and only the violations are described. AxeBuilder
// (@axe-core/playwright) sends the 550 kB source three times per check and finishes each run in a
// new blank page, which cost about five times as much CPU as the check itself.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * axe-core's serious and critical violations on the page's top document, summarised (frames are
 * not ours: the PDF preview is Chromium's viewer).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
export async function axeProblems(page) {
  if (!(await page.evaluate(() => typeof window.axe?.run === 'function'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
      iframes: false,
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => {
        const where = v.nodes
          .slice(0, 2)
          .map((n) => String(n.target.at(-1)).split(' > ').slice(-2).join(' > '));
        return `axe ${v.impact} ${v.id} on ${v.nodes.length} element(s): ${v.help} (e.g. ${where.join(' | ')})`;
      });
  }, TAGS);
}
