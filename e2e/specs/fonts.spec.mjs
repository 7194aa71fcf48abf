// The application's own fonts: what a person sees does not depend on the fonts their system has.
// Chromium reports which font drew each text (DevTools `CSS.getPlatformFontsForNode`): Arabic and
// Latin text of the page are drawn by the served IBM Plex Sans Arabic, a web font of the build
// (not a system font such as DejaVu or Noto), fetched from the application's own origin, cached
// as immutable, and only the faces the page shows are downloaded.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSystem } from '../lib/harness.mjs';

const sys = useSystem();
const FAMILY = 'IBM Plex Sans Arabic';
/** The woff2 files a page of both scripts in both weights downloads at most (measured: about 130 KB). */
const FONT_BUDGET = 160 * 1024;

/** The fonts Chromium drew the text of the first element matching `selector` with. */
async function platformFonts(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    assert.ok(nodeId, `${selector} is on the page`);
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts;
  } finally {
    await cdp.detach();
  }
}

describe('fonts', () => {
  test('Arabic and Latin text is drawn by the served font, whatever the system has', () =>
    sys.with('fonts', async (open) => {
      const { page } = await open();
      const fontResponses = [];
      page.on('response', (response) => {
        if (/\.woff2?$/.test(new URL(response.url()).pathname)) fontResponses.push(response);
      });
      await page.goto('/login');
      await page.locator('form input[type=password]').waitFor();
      // Text of both scripts in the application's own text style (antd's App root carries the family).
      await page.evaluate(() => {
        const probe = document.createElement('span');
        probe.id = 'font-probe-latin';
        probe.textContent = 'Mizan law office 2026';
        const arabic = document.createElement('span');
        arabic.id = 'font-probe-arabic';
        arabic.textContent = 'ميزان للمحاماة ٢٠٢٦';
        const root = document.querySelector('.ant-app') ?? document.body;
        root.append(probe, arabic);
      });
      await page.evaluate(() => document.fonts.ready);
      await page.waitForFunction(
        (family) =>
          [...document.fonts].filter((f) => f.family.replace(/"/g, '') === family && f.status === 'loaded')
            .length >= 2,
        FAMILY,
      );

      for (const id of ['font-probe-arabic', 'font-probe-latin']) {
        const fonts = await platformFonts(page, `#${id}`);
        assert.deepEqual(
          fonts.map((f) => ({ family: f.familyName, custom: f.isCustomFont })),
          [{ family: FAMILY, custom: true }],
          `${id}: every glyph from the served font, none from a system font`,
        );
      }

      // Same origin, immutable, woff2 only, and no weight or subset the page did not use.
      assert.ok(fontResponses.length >= 2, 'fonts downloaded');
      const origin = new URL(page.url()).origin;
      for (const response of fontResponses) {
        const url = new URL(response.url());
        assert.equal(url.origin, origin, `${url.pathname} from the application's origin`);
        assert.match(url.pathname, /\.woff2$/);
        assert.equal(response.status(), 200);
        assert.match(response.headers()['cache-control'] ?? '', /immutable/);
      }
      const bytes = (await Promise.all(fontResponses.map((r) => r.body()))).reduce((n, b) => n + b.length, 0);
      assert.ok(bytes <= FONT_BUDGET, `fonts of the login page ${bytes} B within ${FONT_BUDGET} B`);
      const names = fontResponses.map((r) => new URL(r.url()).pathname.split('/').pop());
      assert.ok(
        names.every((n) => /-(arabic|latin)-(400|600)-normal\./.test(n)),
        `only the Arabic and Latin subsets, weights 400 and 600: ${names.join(', ')}`,
      );
    }));
});
