// The dashboard in a real browser, shared by specs/dashboard-<lng>.spec.mjs (one file per
// language, so that the two run in parallel): a payment recorded by another session changes the
// fee figures and the collection rate on an open dashboard without a reload (the refetch on the
// payments channel's event), and axe-core finds nothing serious or critical on the dashboard, with
// its charts drawn, in the light and the dark theme. One sign-in and one page for the file; the
// client and the lawsuit with its agreed fee are set up through the API.
//
// Other spec files run at the same time on the same server and make lawsuits and payments too: the
// figures expected are never fixed totals but the answer the page itself received, and the change
// is checked as a delta of that answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { eventually, useSystem } from './harness.mjs';
import { expectDirection, languageButton, signInToDashboard } from './app.mjs';
import { snap } from './browser.mjs';
import { officeToday, uniq } from './api.mjs';
import { t, tx } from './i18n.mjs';
import { arabicTag, nationalIdNumber } from './clients.mjs';
import { check as checkScreen } from './screens.mjs';

export const DASHBOARD = '/admin/dashboard';
const LAWSUITS = '/admin/lawsuits';
const PAYMENTS = '/admin/lawsuits/payments';

/**
 * The agreed fee and the payment, in minor units (the API's): large beside what the other specs
 * record (a few thousand), so that paying it moves the office's collection rate for certain.
 */
const FEE = { agreed: 700_000_000, payment: 700_000_000 };

/** Text without bidirectional marks and spaces, to compare numbers written by two ICU builds. */
const bare = (s) => s.replace(/[\s\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, '');

/**
 * The fee figures as the dashboard's fees card shows them: title → value text, keyed by the
 * figure's name (`totalFees`, `paidFees`, `pendingFees`, `collectionRate`). Null when the card is
 * not on the page.
 */
async function shownFees(page, lng) {
  const card = page.getByTestId('figure-fees');
  if ((await card.count()) === 0) return null;
  const byTitle = await card.evaluate((el) =>
    Object.fromEntries(
      [...el.querySelectorAll('.ant-statistic')].map((s) => [
        s.querySelector('.ant-statistic-title')?.textContent?.trim() ?? '',
        s.querySelector('.ant-statistic-content')?.textContent?.trim() ?? '',
      ]),
    ),
  );
  return Object.fromEntries(
    ['totalFees', 'paidFees', 'pendingFees', 'collectionRate'].map((key) => [
      key,
      bare(byTitle[t(lng, `dashboard:fees.${key}`)] ?? ''),
    ]),
  );
}

/**
 * How the page writes `figures` (the answer's `financialStatistics`), formatted by the browser's
 * own Intl as the app formats them (money with two decimals, the rate as a whole percent; Arabic-
 * Indic digits in Arabic).
 */
async function expectedFees(page, lng, figures) {
  const text = await page.evaluate(
    ({ f, lng }) => {
      const locale = lng === 'ar' ? 'ar-EG' : 'en';
      const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
      // Minor units → major as an exact decimal text (Intl formats strings without float rounding).
      const major = (minor) => {
        const s = String(minor).padStart(3, '0');
        return `${s.slice(0, -2)}.${s.slice(-2)}`;
      };
      return {
        totalFees: money.format(major(f.totalFees)),
        paidFees: money.format(major(f.paidFees)),
        pendingFees: money.format(major(f.pendingFees)),
        collectionRate: `${number.format(f.collectionRate)}${lng === 'ar' ? '٪' : '%'}`,
      };
    },
    { f: figures, lng },
  );
  return Object.fromEntries(Object.entries(text).map(([k, v]) => [k, bare(v)]));
}

/** The flow of one language. */
export function dashboardSpec(lng) {
  const sys = useSystem();
  const dir = lng === 'ar' ? 'rtl' : 'ltr';
  const fileNumber = `E2E-D-${lng}-${uniq()}`;
  /** Set up before the flow. */
  const made = { lawsuitId: 0 };
  /** The page's own answers of GET /api/admin/dashboard, latest last (what it shows). */
  const answers = [];

  describe(`dashboard in ${lng === 'ar' ? 'Arabic' : 'English'}`, () => {
    /** @type {Awaited<ReturnType<typeof sys.session>>} */
    let s;
    before(async () => {
      const api = await sys.adminApi(lng);
      const client = await api.post('/admin/customers', {
        name: `موكل لوحة ${arabicTag()}`,
        kind: 'person',
        nationalId: nationalIdNumber(),
      });
      const lawsuit = await api.post(LAWSUITS, {
        fileNumber,
        customerIds: [client.id],
        agreedFee: FEE.agreed,
      });
      made.lawsuitId = lawsuit.id;

      s = await sys.session();
      s.page.on('response', async (r) => {
        if (new URL(r.url()).pathname !== `/api${DASHBOARD}` || r.request().method() !== 'GET') return;
        if (r.status() !== 200) return;
        try {
          answers.push({ at: Date.now(), data: (await r.json()).data });
        } catch {
          // a response the page dropped (navigation): not one it shows
        }
      });
      await s.page.goto('/login');
      if (lng === 'en') {
        await languageButton(s.page, 'ar').click();
        await expectDirection(s.page, 'ltr', 'en');
      }
      await signInToDashboard(s.page, sys.admin.email, sys.admin.password);
      await expectDirection(s.page, dir, lng);
    });
    after(() => s?.context.close());

    /** Runs a step; on failure keeps a screenshot and the console of the page. */
    const step = (name, fn) =>
      test(name, { timeout: 60_000 }, async (ctx) => {
        if (!made.lawsuitId) return ctx.skip('the lawsuit was not set up');
        try {
          await fn(s.page);
        } catch (error) {
          await snap(s.page, `failures/${sys.target}-dashboard-${lng}-${name.replace(/\W+/g, '-')}`);
          if (error instanceof Error && s.logs.length)
            error.message += `\n--- browser console ---\n${s.logs.slice(-10).join('\n')}`;
          throw error;
        }
      });

    /**
     * Waits until the fees card shows one of the page's answers received since `from` that
     * `accept`s, and returns that answer's figures (the latest such one).
     */
    const shownAnswer = (page, from, accept, message) =>
      eventually(
        async () => {
          const shown = await shownFees(page, lng);
          const candidates = answers
            .slice(from)
            .map((a) => a.data.financialStatistics)
            .filter((f) => f && accept(f));
          for (const f of candidates.reverse())
            if (isDeepStrictEqual(shown, await expectedFees(page, lng, f))) return f;
          throw new Error(
            `shown ${JSON.stringify(shown)}, ${candidates.length} candidate answer(s) of ${answers.length - from}`,
          );
        },
        { message, timeout: 15_000 },
      );

    step(
      'a payment recorded by another session changes the collection rate without a reload',
      async (page) => {
        await page.getByRole('main').getByText(t(lng, 'dashboard:fees.title'), { exact: true }).waitFor();
        const before = await shownAnswer(page, 0, () => true, 'the fees card shows the page’s answer');
        // The lawsuit's fee is counted (it was made before the page was opened).
        assert.ok(before.totalFees >= FEE.agreed, `agreed fees ${before.totalFees} include this lawsuit's`);
        const shownBefore = await shownFees(page, lng);
        const answersBefore = answers.length;
        await page.evaluate(() => {
          window.__e2eNoReload = true;
        });

        // Another session (the API, signed in separately) records the payment.
        const other = sys.api(lng);
        await other.login(sys.admin.email, sys.admin.password);
        const today = await officeToday(other);
        await other.post(PAYMENTS, {
          lawsuitId: made.lawsuitId,
          amount: FEE.payment,
          paidOn: today,
          method: 'cash',
        });
        const fees = await other.get(`${LAWSUITS}/${made.lawsuitId}/fees`);
        assert.deepEqual(
          { paid: fees.paid, pending: fees.pending, collectionRate: fees.collectionRate },
          { paid: FEE.payment, pending: FEE.agreed - FEE.payment, collectionRate: 100 },
          'the lawsuit’s own figures',
        );

        // The open page asks again (the dashboard is cached 300 s: only the channel's event does
        // that) and shows an answer holding the payment.
        const after = await shownAnswer(
          page,
          answersBefore,
          (f) => f.paidFees >= before.paidFees + FEE.payment,
          'the fees card shows a new answer holding the payment',
        );
        // The collection rate moved with it (the payment outweighs what other specs record meanwhile).
        assert.ok(
          after.collectionRate > before.collectionRate,
          `collection rate ${before.collectionRate}% → ${after.collectionRate}%`,
        );
        const shownAfter = await shownFees(page, lng);
        assert.notEqual(shownAfter.collectionRate, shownBefore.collectionRate, 'the rate shown changed');
        assert.notEqual(shownAfter.paidFees, shownBefore.paidFees, 'the paid figure shown changed');
        assert.equal(await page.evaluate(() => window.__e2eNoReload), true, 'the page was not reloaded');
        assert.equal(new URL(page.url()).pathname, DASHBOARD);
      },
    );

    for (const theme of ['light', 'dark'])
      step(`axe-core finds nothing serious on the dashboard, charts drawn, ${theme} theme`, async (page) => {
        const toggle = page
          .locator('header')
          .getByRole('button', { name: tx(lng, 'layout:theme.switch') })
          .first();
        if ((await toggle.getAttribute('aria-pressed')) !== String(theme === 'dark')) await toggle.click();
        await eventually(
          async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === theme,
          { message: `html[data-theme=${theme}]` },
        );
        const main = page.getByRole('main');
        await main.getByTestId('figure-fees').waitFor();
        // The charts' chunk loaded and every chart drawn (an SVG in each).
        for (const chart of ['status', 'courtTypes', 'trend'])
          await main
            .getByRole('img', { name: t(lng, `dashboard:charts.${chart}`), exact: true })
            .locator('svg')
            .first()
            .waitFor();
        await expectDirection(page, dir, lng);
        assert.deepEqual(await checkScreen(page, lng, `dashboard-${theme}`), [], `${lng} dashboard ${theme}`);
      });
  });
}
