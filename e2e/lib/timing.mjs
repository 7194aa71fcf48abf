// Times measured inside the page, for `npm run budget` (scripts/budget.mjs) and the bench's
// dashboard in Chromium (bench/browser.mjs).

/**
 * Times, in the page, from the next click to the first animation frame where `selector` (or every
 * one of a list of selectors) is visible (and, with `idle`, no spinner turns in the main area; with
 * `heading`, a heading of the main area reads that). Measured in the page because Playwright's
 * waits poll ever more slowly (up to 500 ms apart) and added up to 300 ms to the old figures (and
 * whole seconds now and then to the bench's dashboard in Chromium). Answers a function that waits
 * until the page got there and resolves the milliseconds.
 */
export async function timeFromClick(page, selector, { idle = false, heading = null } = {}) {
  await page.evaluate(
    ({ selector, idle, heading }) => {
      const timer = { clicked: null, ready: null };
      window.__budgetTimer = timer;
      document.addEventListener('click', () => (timer.clicked ??= performance.now()), { capture: true });
      const poll = () => {
        const shown = [selector].flat().every((one) => document.querySelector(one)?.checkVisibility());
        const busy = idle && document.querySelector('main .ant-spin-spinning');
        const titled =
          heading === null ||
          [...document.querySelectorAll('main h1, main h2, main h3')].some(
            (h) => h.textContent?.trim() === heading && h.checkVisibility(),
          );
        if (timer.clicked !== null && titled && shown && !busy) timer.ready = performance.now();
        else requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
    },
    { selector, idle, heading },
  );
  return async () => {
    const handle = await page.waitForFunction(
      () => window.__budgetTimer?.ready != null && window.__budgetTimer,
    );
    const { clicked, ready } = await handle.jsonValue();
    return Math.round(ready - clicked);
  };
}
