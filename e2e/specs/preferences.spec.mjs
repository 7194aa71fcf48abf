// Language and theme: Arabic RTL by default, a live switch to English LTR that is
// remembered, and the dark theme kept after a reload.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import { expectDirection, languageButton, hasArabic, signInToDashboard, waitForApp } from '../lib/app.mjs';
import { snap } from '../lib/browser.mjs';
import { t, tx } from '../lib/i18n.mjs';

const sys = useSystem();

/** Relative luminance (0 black … 1 white) of an element's computed background. */
async function backgroundLuminance(page, selector) {
  return page.evaluate((sel) => {
    let el = document.querySelector(sel);
    // Walk up until an element paints a background (transparent ones show their parent's).
    while (el) {
      const c = getComputedStyle(el).backgroundColor;
      const m = c.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?/);
      if (m && (m[4] === undefined || Number(m[4]) > 0.5)) {
        const [r, g, b] = [m[1], m[2], m[3]].map((v) => {
          const s = Number(v) / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      }
      el = el.parentElement;
    }
    return 1; // nothing painted: the browser's white canvas
  }, selector);
}

describe('language and theme', () => {
  test('Arabic RTL by default; switching to English turns the page LTR, live, and is remembered', () =>
    sys.with('language', async (open) => {
      const { page } = await open();
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      await expectDirection(page, 'rtl', 'ar');
      const nav = page.getByRole('navigation', { name: 'main' });
      await nav.getByText(t('ar', 'menu:items.dashboard'), { exact: true }).waitFor();
      assert.ok(hasArabic(await nav.innerText()), 'Arabic menu');

      const urlBefore = page.url();
      await languageButton(page, 'ar').click();
      await expectDirection(page, 'ltr', 'en');
      // Live: same page, no reload, texts now in English.
      assert.equal(page.url(), urlBefore);
      await nav.getByText(t('en', 'menu:items.dashboard'), { exact: true }).waitFor();
      await eventually(async () => !hasArabic(await nav.innerText()), {
        message: 'menu without Arabic text',
      });
      const sider = await page.locator('.ant-layout-sider').boundingBox();
      assert.ok(sider && sider.x < 200, `side navigation on the left in LTR (x=${sider?.x})`);

      await page.reload();
      await waitForApp(page);
      await expectDirection(page, 'ltr', 'en');
      await nav.getByText(t('en', 'menu:items.dashboard'), { exact: true }).waitFor();

      await languageButton(page, 'en').click();
      await expectDirection(page, 'rtl', 'ar');
      const siderRtl = await page.locator('.ant-layout-sider').boundingBox();
      const width = page.viewportSize()?.width ?? 0;
      assert.ok(siderRtl && siderRtl.x > width / 2, `side navigation on the right in RTL (x=${siderRtl?.x})`);
    }));

  test('the language can be switched on the login page too', () =>
    sys.with('language-login', async (open) => {
      const { page } = await open();
      await page.goto('/login');
      await expectDirection(page, 'rtl', 'ar');
      await languageButton(page, 'ar').click();
      await expectDirection(page, 'ltr', 'en');
      await page.getByRole('heading', { name: tx('en', 'auth:login.title') }).waitFor();
      await page.getByRole('button', { name: tx('en', 'auth:login.submit') }).waitFor();
      await snap(page, 'en/login');
    }));

  test('the dark theme is kept after a reload', () =>
    sys.with('dark-theme', async (open) => {
      const { page } = await open();
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      const toggle = page.getByRole('button', { name: tx('ar', 'layout:theme.switch') }).first();
      assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
      const light = await backgroundLuminance(page, 'main');
      assert.ok(light > 0.5, `light theme paints a light background (${light.toFixed(2)})`);

      await toggle.click();
      await eventually(
        async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark',
        {
          message: 'html[data-theme=dark]',
        },
      );
      await eventually(async () => (await backgroundLuminance(page, 'main')) < 0.2, {
        message: 'dark background',
      });

      await page.reload();
      await waitForApp(page);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      await eventually(async () => (await backgroundLuminance(page, 'main')) < 0.2, {
        message: 'dark background after reload',
      });
      const after = page.getByRole('button', { name: tx('ar', 'layout:theme.switch') }).first();
      assert.equal(await after.getAttribute('aria-pressed'), 'true');
      await snap(page, 'ar/dashboard-dark');
    }));
});
