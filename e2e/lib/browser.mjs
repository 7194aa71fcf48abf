// One Debian Chromium for the whole run: the runner launches it as a Playwright browser server and
// spec processes connect to it (E2E_BROWSER_WS); a spec run on its own launches its own.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, CHROMIUM } from './paths.mjs';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches a browser server for other processes to connect to. */
export async function launchBrowserServer() {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
  return chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** @returns {Promise<import('playwright-core').Browser>} */
export async function getBrowser() {
  const ws = process.env.E2E_BROWSER_WS;
  if (ws) return chromium.connect(ws);
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A fresh context (own storage, cookies) per test, as a person on a new machine.
 * @param {import('playwright-core').Browser} browser
 * @param {{ baseURL: string, viewport?: { width: number, height: number } }} options
 */
export async function newContext(browser, { baseURL, viewport = { width: 1440, height: 900 } }) {
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale: 'ar-SA',
    timezoneId: 'Asia/Riyadh',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

/** Records what the page logged and which requests failed, for failure messages. */
export function recordConsole(page) {
  const lines = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') lines.push(`[${m.type()}] ${m.text()}`);
  });
  page.on('pageerror', (e) => lines.push(`[pageerror] ${e.message}`));
  page.on('requestfailed', (r) =>
    lines.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText}`),
  );
  return lines;
}

export function artifactPath(...parts) {
  const file = path.join(ARTIFACTS, ...parts);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/** Saves a screenshot of the page under artifacts/ (best effort: a closed page is ignored). */
export async function snap(page, name) {
  try {
    await page.screenshot({ path: artifactPath('screenshots', `${name}.png`), fullPage: true });
  } catch {
    // the page may already be gone; the screenshot is only an aid
  }
}
