// The legal department in a real browser, shared by specs/legal-<lng>.spec.mjs (one file
// per language, so that the two run in parallel): a lawsuit created through its form for a client
// against an opponent (court → circuit → judge, agreed fee), a hearing added from the lawsuit's
// page, a postponement recorded on the hearing's page with the next hearing seen in the chain and
// in the calendar's month (a click opens its page), an attachment filed in a group with its PDF
// previewed inline, two payments with paid, pending and the collection rate, and axe-core (no
// serious or critical finding) on the lawsuits list, the lawsuit's and the hearing's pages and the
// calendar. One sign-in and one page for the file; the client, the opponent and the court with
// its circuit and judge are set up through the API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { eventually, useSystem } from './harness.mjs';
import {
  expectDirection,
  languageButton,
  openMenuItem,
  signInToDashboard,
  toast,
  waitForApp,
} from './app.mjs';
import { snap } from './browser.mjs';
import { addDays, officeToday, uniq } from './api.mjs';
import { escapeRegExp, t, tx } from './i18n.mjs';
import { writeSampleFiles } from './sampleFiles.mjs';
import { arabicTag, formDrawer, go, nationalIdNumber } from './clients.mjs';
import { check as checkScreen } from './screens.mjs';

export const LAWSUITS = '/admin/lawsuits';
export const SESSIONS = '/admin/lawsuits/sessions';
export const CALENDAR = '/admin/lawsuits/sessions/calendar';
export const ATTACHMENTS = '/admin/lawsuits/attachments';
export const PAYMENTS = '/admin/lawsuits/payments';

/** The agreed fee and the two payments, in major units (the form's), and what they make. */
const FEE = { agreed: 10_000, payments: [2_500, 1_500], paid: 4_000, pending: 6_000, rate: 40 };
/** Amounts on the wire are minor units (two decimals). */
const minor = (major) => major * 100;

/** `YYYY-MM-DD` → the date picker's `M/D/YYYY`. */
const typedDate = (day) => {
  const [y, m, d] = day.split('-').map(Number);
  return `${m}/${d}/${y}`;
};

/** ASCII digits in the interface language's digits (Arabic-Indic in Arabic), as dates are shown. */
const localDigits = (text, lng) =>
  lng === 'ar' ? text.replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]) : text;

/** A day as the screens write it in the Gregorian calendar (`M/D/YYYY`, the language's digits). */
const shownDate = (day, lng) => localDigits(typedDate(day), lng);

/** An amount as the fee figures show it (two decimals, the language's digits and separators). */
const money = (major, lng) =>
  new Intl.NumberFormat(lng === 'ar' ? 'ar-EG' : 'en', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(major);
const percent = (rate, lng) =>
  new Intl.NumberFormat(lng === 'ar' ? 'ar-EG' : 'en', { style: 'percent', maximumFractionDigits: 0 }).format(
    rate / 100,
  );
/** Text without bidirectional marks and spaces, to compare numbers written by two ICU builds. */
const bare = (s) => s.replace(/[\s\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, '');

/** The 15th of the month after `day`'s. */
function midNextMonth(day) {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return `${d.toISOString().slice(0, 7)}-15`;
}
/** Months from `a`'s to `b`'s (both `YYYY-MM-DD`). */
const monthsBetween = (a, b) =>
  (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));
/** The first day of the month `n` months after `day`'s. */
function monthStart(day, n) {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * A client, an opponent, and a court with a circuit and a judge of that circuit, made through the
 * API, with names unique to the run.
 * @param {ReturnType<import('./api.mjs').apiClient>} api signed in as the administrator
 */
export async function createLegalParties(api) {
  const tag = arabicTag();
  const client = await api.post('/admin/customers', {
    name: `موكل ${tag}`,
    kind: 'person',
    nationalId: nationalIdNumber(),
  });
  const opponent = await api.post('/admin/lawsuits/opponents', { name: `خصم ${tag}`, kind: 'company' });
  const court = await api.post('/admin/settings/courts/courts', {
    name: `محكمة ${tag}`,
    courtType: 'general',
  });
  const circuit = await api.post('/admin/settings/courts/circuits', {
    name: `دائرة ${tag}`,
    number: 1 + Math.floor(Math.random() * 90_000),
    courtId: court.id,
  });
  const judge = await api.post('/admin/settings/courts/judges', {
    name: `قاضٍ ${tag}`,
    circuitId: circuit.id,
  });
  return { tag, client, opponent, court, circuit, judge };
}

/**
 * Picks a value in a reference select of a form (an antd select), typing to search as a person
 * would, and waits until the field shows the choice. The options re-render when the server's
 * answer to the typed search arrives; a click that lands while they do is lost (the field stays
 * empty), so a person, and this helper, picks again (three tries). A select without search
 * (`{ search: false }`) is opened and chosen from without typing.
 */
export async function pickOption(page, scope, label, option, { search = true } = {}) {
  // By its label: a required field's accessible name also holds the asterisk antd draws before it.
  const combo = scope.getByLabel(label, { exact: true });
  const chosen = formItem(scope, label).filter({ hasText: option });
  for (let attempt = 1; ; attempt++) {
    await combo.click();
    if (search) await combo.fill(option);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
    try {
      await chosen.waitFor({ timeout: attempt < 3 ? 5_000 : 15_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      // No Escape to close the options first: when they have closed already, Escape reaches the
      // form's drawer, which asks whether to discard the changes (seen in CI on PostgreSQL, its
      // dialog then covering the field). The next try's click and typing open them again.
    }
  }
}

/** The form item (label, input and messages) of the field labelled `label`. */
export function formItem(scope, label) {
  // An inner locator of `has` is matched from each item, so it starts from the page.
  const page = typeof scope.page === 'function' ? scope.page() : scope;
  return scope.locator('.ant-form-item').filter({ has: page.getByLabel(label, { exact: true }) });
}

/** Types a day into a date field (`M/D/YYYY`) and leaves it (Enter would submit the form). */
export async function fillDate(scope, label, day) {
  const input = scope.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(typedDate(day));
  await input.press('Tab');
  await eventually(async () => (await input.inputValue()) === typedDate(day), {
    message: `${label} holds ${typedDate(day)}`,
  });
}

/** The response to `method path` (the path under /api, exact), to await after the click that sends it. */
function answer(page, method, path) {
  return page.waitForResponse(
    (r) => new URL(r.url()).pathname === `/api${path}` && r.request().method() === method,
  );
}

/** The flow of one language. */
export function legalSpec(lng) {
  const sys = useSystem();
  const dir = lng === 'ar' ? 'rtl' : 'ltr';
  const e = (key, vars) => t(lng, `entities:${key}`, vars);
  const l = (key, vars) => t(lng, `legal:${key}`, vars);
  const files = writeSampleFiles(`${lng}-${uniq()}`);
  const fileNumber = `E2E-${lng}-${uniq()}`;
  /** Set up before the flow, or as it goes. */
  const made = {
    /** @type {Awaited<ReturnType<typeof createLegalParties>>} */
    parties: /** @type {any} */ (null),
    officeToday: '',
    lawsuitId: 0,
    hearingDay: '',
    hearingId: 0,
    nextDay: '',
    nextId: 0,
    attachmentId: 0,
  };

  describe(`legal department in ${lng === 'ar' ? 'Arabic' : 'English'}`, () => {
    /** @type {Awaited<ReturnType<typeof sys.session>>} */
    let s;
    before(async () => {
      const api = await sys.adminApi(lng);
      made.parties = await createLegalParties(api);
      made.officeToday = await officeToday(sys.api(lng));
      // Two days ahead: not "past without a decision" in any time zone of the day.
      made.hearingDay = addDays(made.officeToday, 2);
      made.nextDay = midNextMonth(made.hearingDay);

      s = await sys.session();
      await s.page.goto('/login');
      if (lng === 'en') {
        await languageButton(s.page, 'ar').click();
        await expectDirection(s.page, 'ltr', 'en');
      }
      await signInToDashboard(s.page, sys.admin.email, sys.admin.password);
      await expectDirection(s.page, dir, lng);
    });
    after(async () => {
      await s?.context.close();
      fs.rmSync(files.dir, { recursive: true, force: true });
    });

    /**
     * Runs a step; on failure keeps a screenshot and the console of the page. `needs`: what earlier
     * steps made that this one works on; missing (that step failed), it is skipped, not timed out.
     */
    const step = (name, needs, fn) =>
      test(name, { timeout: 60_000 }, async (ctx) => {
        const missing = needs.filter((key) => !made[key]);
        if (missing.length) return ctx.skip(`an earlier step did not make ${missing.join(', ')}`);
        try {
          await fn(s.page);
        } catch (error) {
          await snap(s.page, `failures/${sys.target}-legal-${lng}-${name.replace(/\W+/g, '-')}`);
          if (error instanceof Error && s.logs.length)
            error.message += `\n--- browser console ---\n${s.logs.slice(-10).join('\n')}`;
          throw error;
        }
      });

    /** The lawsuit's record page, on the tab named `tab`. */
    const lawsuitTab = async (page, tab) => {
      if (new URL(page.url()).pathname !== `${LAWSUITS}/${made.lawsuitId}`)
        await go(page, `${LAWSUITS}/${made.lawsuitId}`);
      await page.getByRole('main').getByRole('heading', { name: fileNumber }).waitFor();
      await page.getByRole('tab', { name: tab, exact: true }).click();
      return page.getByRole('tabpanel', { name: tab, exact: true });
    };

    /**
     * The link of the chain's `number`th hearing (on `day`): named by the date it shows (both
     * calendars, in the office's order), in the step headed "session N".
     */
    const chainLink = (chain, number, day) =>
      chain
        .getByTestId(/^chain-/)
        .filter({ hasText: l('sessions.chain.step', { number }) })
        .getByRole('link', { name: new RegExp(escapeRegExp(shownDate(day, lng))) });

    step(
      'a lawsuit is created through its form: client, opponent, court → circuit → judge, fee',
      [],
      async (page) => {
        const { client, opponent, court, circuit, judge } = made.parties;
        await openMenuItem(page, 'legal', 'lawsuits', lng);
        await page.waitForURL((url) => url.pathname === LAWSUITS);
        const main = page.getByRole('main');
        await main.getByRole('heading', { name: tx(lng, 'entities:lawsuits.title') }).waitFor();
        await page
          .getByRole('button', { name: tx(lng, 'ui:actions.createNamed', { name: e('lawsuits.singular') }) })
          .click();
        const drawer = formDrawer(page, lng, 'lawsuits');
        // The form by sections.
        for (const section of ['file', 'parties', 'team', 'money'])
          await drawer.getByRole('region', { name: l(`lawsuits.form.sections.${section}`) }).waitFor();
        await drawer.getByLabel(e('lawsuits.fields.fileNumber'), { exact: true }).fill(fileNumber);
        // The circuit waits for the court.
        const circuitBox = drawer.getByLabel(e('lawsuits.fields.circuitId'), { exact: true });
        assert.equal(await circuitBox.isDisabled(), true, 'no circuit before a court');
        await pickOption(page, drawer, e('lawsuits.fields.courtId'), court.name);
        await pickOption(page, drawer, e('lawsuits.fields.circuitId'), circuit.name);
        await pickOption(page, drawer, e('lawsuits.fields.judgeId'), judge.name);
        await pickOption(page, drawer, e('lawsuits.fields.customerIds'), client.name);
        await pickOption(page, drawer, e('lawsuits.fields.opponentIds'), opponent.name);
        const fee = drawer.getByLabel(e('lawsuits.fields.agreedFee'), { exact: true });
        await fee.fill(String(FEE.agreed));
        await eventually(async () => Number((await fee.inputValue()).replace(/[^\d.]/g, '')) === FEE.agreed, {
          message: 'the agreed fee holds what was typed',
        });

        const created = answer(page, 'POST', LAWSUITS);
        await drawer.getByRole('button', { name: tx(lng, 'ui:actions.save') }).click();
        const res = await created;
        assert.equal(res.status(), 201, `created: ${await res.text()}`);
        const body = (await res.json()).data;
        made.lawsuitId = body.id;
        assert.equal(body.fileNumber, fileNumber);
        assert.deepEqual(
          {
            courtId: body.courtId,
            circuitId: body.circuitId,
            judgeId: body.judgeId,
            customerIds: body.customerIds,
            opponentIds: body.opponentIds,
            agreedFee: body.agreedFee,
            state: body.state,
          },
          {
            courtId: court.id,
            circuitId: circuit.id,
            judgeId: judge.id,
            customerIds: [client.id],
            opponentIds: [opponent.id],
            agreedFee: minor(FEE.agreed),
            state: 'active',
          },
        );
        await toast(page, t(lng, 'ui:form.created', { name: e('lawsuits.singular') }));
        await drawer.waitFor({ state: 'hidden' });

        // The list shows it; its file number opens its record page.
        await main.getByRole('table').getByRole('link', { name: fileNumber, exact: true }).click();
        await page.waitForURL((url) => url.pathname === `${LAWSUITS}/${made.lawsuitId}`);
        await waitForApp(page);
        await main.getByRole('heading', { name: fileNumber }).waitFor();
        const details = await lawsuitTab(page, l('lawsuits.tabs.details'));
        for (const name of [court.name, circuit.name, judge.name, client.name, opponent.name])
          await details.getByText(name, { exact: true }).first().waitFor();
        await details.getByText(money(FEE.agreed, lng), { exact: true }).waitFor();
      },
    );

    step(
      'a hearing is added from the lawsuit’s page, court and judge taken from the lawsuit',
      ['lawsuitId'],
      async (page) => {
        const panel = await lawsuitTab(page, e('sessions.title'));
        await panel
          .getByRole('button', { name: tx(lng, 'ui:actions.createNamed', { name: e('sessions.singular') }) })
          .click();
        const drawer = formDrawer(page, lng, 'sessions');
        // The lawsuit is already chosen.
        await formItem(drawer, e('sessions.fields.lawsuitId')).filter({ hasText: fileNumber }).waitFor();
        await fillDate(drawer, e('sessions.fields.date'), made.hearingDay);
        await drawer.getByLabel(e('sessions.fields.time'), { exact: true }).fill('09:30');
        const created = answer(page, 'POST', SESSIONS);
        await drawer.getByRole('button', { name: tx(lng, 'ui:actions.save') }).click();
        const res = await created;
        assert.equal(res.status(), 201, `created: ${await res.text()}`);
        const body = (await res.json()).data;
        made.hearingId = body.id;
        assert.deepEqual(
          {
            lawsuitId: body.lawsuitId,
            date: body.date,
            time: body.time,
            courtId: body.courtId,
            judgeId: body.judgeId,
          },
          {
            lawsuitId: made.lawsuitId,
            date: made.hearingDay,
            time: '09:30',
            courtId: made.parties.court.id,
            judgeId: made.parties.judge.id,
          },
        );
        await toast(page, t(lng, 'ui:form.created', { name: e('sessions.singular') }));
        await drawer.waitFor({ state: 'hidden' });
        // Its row in the tab opens its page.
        await panel
          .getByRole('table')
          .getByRole('link', { name: new RegExp(escapeRegExp(shownDate(made.hearingDay, lng))) })
          .click();
        await page.waitForURL((url) => url.pathname === `${SESSIONS}/${made.hearingId}`);
        await waitForApp(page);
      },
    );

    step(
      'a postponement recorded on the hearing’s page makes the next hearing, seen in the chain',
      ['hearingId'],
      async (page) => {
        const main = page.getByRole('main');
        const chain = page.getByRole('tabpanel', { name: l('sessions.chain.title'), exact: true });
        await chain.getByText(l('sessions.chain.single'), { exact: true }).waitFor();
        await main.getByRole('button', { name: tx(lng, 'legal:sessions.postpone.action') }).click();
        const dialog = page.getByRole('dialog', { name: l('sessions.postpone.title') });
        const decision = `${l('sessions.postpone.action')} ${uniq()}`;
        await dialog.getByLabel(e('sessions.fields.decision'), { exact: true }).fill(decision);
        await fillDate(dialog, e('sessions.fields.nextDate'), made.nextDay);
        const postponed = answer(page, 'PATCH', `${SESSIONS}/${made.hearingId}/postpone`);
        await dialog.getByRole('button', { name: tx(lng, 'legal:sessions.postpone.ok') }).click();
        const res = await postponed;
        assert.equal(res.status(), 200, `postponed: ${await res.text()}`);
        const body = (await res.json()).data;
        assert.equal(body.nextDate, made.nextDay);
        assert.equal(typeof body.nextId, 'number', 'the next hearing was made');
        made.nextId = body.nextId;
        await toast(page, l('sessions.postpone.done'));
        await dialog.waitFor({ state: 'hidden' });

        // The chain: this hearing with its decision and date, then the next one, linked.
        await chain.getByText(decision, { exact: true }).waitFor();
        const next = chainLink(chain, 2, made.nextDay);
        await next.waitFor();
        assert.equal(await next.getAttribute('href'), `${SESSIONS}/${made.nextId}`);
        assert.match(await next.innerText(), new RegExp(escapeRegExp(shownDate(made.nextDay, lng))));
        // Postponed once: the action gives way to a link to the next hearing.
        const postpone = main.getByRole('button', { name: tx(lng, 'legal:sessions.postpone.action') });
        await eventually(() => postpone.isDisabled(), { message: 'the postpone action disabled' });
        const openNext = main.getByRole('link', {
          name: new RegExp(`^${escapeRegExp(l('sessions.postpone.openNext'))}`),
        });
        assert.equal(await openNext.getAttribute('href'), `${SESSIONS}/${made.nextId}`);
        // The server's chain agrees.
        const api = await sys.adminApi(lng);
        const stored = await api.get(`${SESSIONS}/${made.nextId}/chain`);
        assert.deepEqual(
          stored.items.map((h) => [h.id, h.date, h.previousId]),
          [
            [made.hearingId, made.hearingDay, null],
            [made.nextId, made.nextDay, made.hearingId],
          ],
        );
      },
    );

    step(
      'the calendar shows the next hearing in its month; a click opens its page',
      ['nextId'],
      async (page) => {
        const { client, opponent } = made.parties;
        await openMenuItem(page, 'legal', 'sessions', lng);
        await page.waitForURL((url) => url.pathname === SESSIONS);
        await page.getByRole('link', { name: l('sessions.openCalendar'), exact: true }).click();
        await page.waitForURL((url) => url.pathname === CALENDAR);
        const main = page.getByRole('main');
        await main.getByRole('heading', { name: l('calendar.title'), exact: true }).waitFor();
        // Forward to the next hearing's month, one month at a time (the address follows).
        const months = monthsBetween(made.officeToday, made.nextDay);
        for (let i = 1; i <= months; i++) {
          await main.getByRole('button', { name: l('calendar.next'), exact: true }).click();
          const anchor = monthStart(made.officeToday, i);
          await eventually(() => new URL(page.url()).searchParams.get('date') === anchor, {
            message: `the calendar shows the month of ${anchor}`,
          });
        }
        const title = `${fileNumber} · ${client.name} ${l('calendar.versus')} ${opponent.name}`;
        const day = main.locator(`[data-date="${made.nextDay}"]`).first();
        const event = day.getByText(title, { exact: true });
        await event.waitFor();
        await event.click();
        await page.waitForURL((url) => url.pathname === `${SESSIONS}/${made.nextId}`);
        await waitForApp(page);
        // The next hearing's page: the second of the chain, marked as this one.
        const chain = page.getByRole('tabpanel', { name: l('sessions.chain.title'), exact: true });
        await chain.getByText(l('sessions.chain.current'), { exact: true }).waitFor();
        await chainLink(chain, 1, made.hearingDay).waitFor();
      },
    );

    step('an attachment filed in a group, its PDF previewed inline', ['lawsuitId'], async (page) => {
      const groups = await (await sys.adminApi(lng)).get(`${ATTACHMENTS}/groups?sort=order:asc&pageSize=100`);
      const evidence = groups.items.find((g) => g.name === 'المستندات والأدلة');
      assert.ok(evidence, `the evidence group is seeded: ${groups.items.map((g) => g.name).join(', ')}`);
      const groupName = lng === 'en' ? evidence.nameEn : evidence.name;
      const panel = await lawsuitTab(page, e('attachments.title'));
      // A group adds from inside its panel, folded at first while empty.
      const groupHeader = panel.getByRole('button', {
        name: new RegExp(`^${escapeRegExp(groupName)}\\s+[0-9٠-٩]+(\\s|$)`),
      });
      if ((await groupHeader.getAttribute('aria-expanded')) === 'false') await groupHeader.click();
      await panel
        .getByRole('button', { name: l('attachments.addTo', { group: groupName }), exact: true })
        .click();
      const drawer = formDrawer(page, lng, 'attachments');
      // The lawsuit and the group are already chosen.
      for (const [field, value] of [
        ['lawsuitId', fileNumber],
        ['groupId', groupName],
      ])
        await formItem(drawer, e(`attachments.fields.${field}`))
          .filter({ hasText: value })
          .waitFor();
      const attachmentTitle = `${e('attachments.singular')} ${uniq()}`;
      await drawer.getByLabel(e('attachments.fields.title'), { exact: true }).fill(attachmentTitle);
      await drawer.locator('input[type=file]').setInputFiles([files.pdf.path]);
      await drawer.getByText(files.pdf.name, { exact: true }).waitFor();
      const created = answer(page, 'POST', ATTACHMENTS);
      await drawer.getByRole('button', { name: tx(lng, 'ui:actions.save') }).click();
      const res = await created;
      assert.equal(res.status(), 201, `created: ${await res.text()}`);
      const body = (await res.json()).data;
      made.attachmentId = body.id;
      assert.equal(body.groupId, evidence.id);
      assert.equal(body.lawsuitId, made.lawsuitId);
      assert.deepEqual(
        body.files.map((f) => f.originalName),
        [files.pdf.name],
      );
      await toast(page, t(lng, 'ui:form.created', { name: e('attachments.singular') }));
      await drawer.waitFor({ state: 'hidden' });

      // Filed under its group (the group's badge counts 1), whose panel is opened if it was folded.
      const header = panel.getByRole('button', {
        name: new RegExp(`^${escapeRegExp(groupName)}\\s+[1١](\\s|$)`),
      });
      await header.waitFor();
      if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
      const list = panel.getByRole('list', { name: groupName, exact: true });
      const item = list.getByRole('listitem').filter({ hasText: attachmentTitle });
      await item.waitFor();
      await item
        .getByRole('button', {
          name: t(lng, 'ui:record.files.preview', { name: files.pdf.name }),
          exact: true,
        })
        .click();
      const frame = item.locator(
        `iframe[title="${t(lng, 'ui:record.files.previewTitle', { name: files.pdf.name })}"]`,
      );
      await frame.waitFor();
      assert.match(
        (await frame.getAttribute('src')) ?? '',
        /^blob:/,
        'fetched with authorisation, as a blob',
      );
      const loaded = await frame.evaluate(async (el) => {
        const blob = await (await fetch(el.src)).blob();
        const head = new TextDecoder().decode(await blob.slice(0, 5).arrayBuffer());
        return { type: blob.type, size: blob.size, head };
      });
      assert.deepEqual(loaded, { type: 'application/pdf', size: files.pdf.size, head: '%PDF-' });
      await eventually(() => frame.evaluate((el) => el.contentWindow?.location.href === el.src), {
        message: 'the frame navigated to the PDF',
      });
    });

    step('two payments: paid, pending and the collection rate', ['lawsuitId'], async (page) => {
      const panel = await lawsuitTab(page, l('lawsuits.tabs.payments'));
      const fees = panel.getByRole('region', { name: l('fees.title') });
      const figures = async () => bare(await fees.innerText());
      const expectFigure = (key, text) =>
        eventually(async () => (await figures()).includes(bare(`${l(`fees.${key}`)}${text}`)), {
          message: `${key} reads ${text}`,
        });
      // Nothing paid yet.
      await expectFigure('agreedFee', money(FEE.agreed, lng));
      await expectFigure('pending', money(FEE.agreed, lng));
      const receipts = FEE.payments.map((_, i) => `R-${i + 1}-${uniq()}`);
      for (const [i, amount] of FEE.payments.entries()) {
        await panel
          .getByRole('button', {
            name: tx(lng, 'ui:actions.createNamed', { name: e('lawsuitPayments.singular') }),
          })
          .click();
        const drawer = formDrawer(page, lng, 'lawsuitPayments');
        await formItem(drawer, e('lawsuitPayments.fields.lawsuitId'))
          .filter({ hasText: fileNumber })
          .waitFor();
        const field = drawer.getByLabel(e('lawsuitPayments.fields.amount'), { exact: true });
        await field.fill(String(amount));
        await eventually(async () => Number((await field.inputValue()).replace(/[^\d.]/g, '')) === amount, {
          message: 'the amount holds what was typed',
        });
        await fillDate(drawer, e('lawsuitPayments.fields.paidOn'), made.officeToday);
        await drawer.getByLabel(e('lawsuitPayments.fields.receiptNumber'), { exact: true }).fill(receipts[i]);
        const created = answer(page, 'POST', PAYMENTS);
        await drawer.getByRole('button', { name: tx(lng, 'ui:actions.save') }).click();
        const res = await created;
        assert.equal(res.status(), 201, `payment ${i + 1}: ${await res.text()}`);
        const body = (await res.json()).data;
        assert.deepEqual(
          { lawsuitId: body.lawsuitId, amount: body.amount, method: body.method },
          { lawsuitId: made.lawsuitId, amount: minor(amount), method: 'cash' },
        );
        await toast(page, t(lng, 'ui:form.created', { name: e('lawsuitPayments.singular') }));
        await drawer.waitFor({ state: 'hidden' });
      }
      // Both listed; the figures read again.
      for (const receipt of receipts)
        await panel.getByRole('table').getByRole('cell', { name: receipt, exact: true }).waitFor();
      await expectFigure('paid', money(FEE.paid, lng));
      await expectFigure('pending', money(FEE.pending, lng));
      await expectFigure('collectionRate', percent(FEE.rate, lng));
      const bar = fees.getByRole('progressbar', { name: l('fees.collectionRate') });
      assert.equal(await bar.getAttribute('aria-valuenow'), String(FEE.rate));
      // The server's figures agree.
      const api = await sys.adminApi(lng);
      assert.deepEqual(await api.get(`${LAWSUITS}/${made.lawsuitId}/fees`), {
        agreedFee: minor(FEE.agreed),
        paid: minor(FEE.paid),
        pending: minor(FEE.pending),
        overpaid: 0,
        collectionRate: FEE.rate,
      });
    });

    /** axe-core, raw keys and a screenshot of the screen shown, named `legal-<screen>`. */
    const axeStep = (name, needs, open) =>
      step(`axe: ${name}`, needs, async (page) => {
        await page.keyboard.press('Escape');
        await open(page);
        await waitForApp(page);
        assert.deepEqual(
          await checkScreen(page, lng, `legal-${name.replace(/\W+/g, '-')}`),
          [],
          `${lng} ${name}`,
        );
      });

    axeStep('lawsuits list', ['lawsuitId'], async (page) => {
      await openMenuItem(page, 'legal', 'lawsuits', lng);
      await page.waitForURL((url) => url.pathname === LAWSUITS);
      await page
        .getByRole('main')
        .getByRole('table')
        .getByRole('link', { name: fileNumber, exact: true })
        .waitFor();
    });
    // The lawsuit's page on its attachments and payments tabs (a hidden panel is not checked; the
    // hearings tab is the generic list).
    for (const [name, tab, ready] of [
      [
        'attachments',
        () => e('attachments.title'),
        (panel) =>
          panel.getByRole('button', {
            name: t(lng, 'ui:record.files.preview', { name: files.pdf.name }),
            exact: true,
          }),
      ],
      [
        'payments',
        () => l('lawsuits.tabs.payments'),
        (panel) => panel.getByRole('region', { name: l('fees.title') }).getByRole('progressbar'),
      ],
    ])
      axeStep(`lawsuit record, ${name}`, ['lawsuitId'], async (page) => {
        await ready(await lawsuitTab(page, tab())).waitFor();
      });
    axeStep('hearing record', ['nextId'], async (page) => {
      await go(page, `${SESSIONS}/${made.hearingId}`);
      await chainLink(
        page.getByRole('tabpanel', { name: l('sessions.chain.title'), exact: true }),
        2,
        made.nextDay,
      ).waitFor();
    });
    axeStep('hearings calendar', ['nextId'], async (page) => {
      await go(page, `${CALENDAR}?date=${made.nextDay.slice(0, 7)}-01`);
      await page
        .getByRole('main')
        .locator(`[data-date="${made.nextDay}"]`)
        .first()
        .getByText(fileNumber, { exact: false })
        .waitFor();
    });
  });
}
