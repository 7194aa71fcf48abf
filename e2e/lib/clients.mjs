// The clients area in a real browser, shared by specs/clients-<lng>.spec.mjs (one file
// per language, so that the two run in parallel): a client created through the form with an
// Arabic name, found by a folded variant of the name and by the Arabic-Indic digits of the ID, its
// record page, a power of attorney with two files added from the client's tab (the upload watched
// to the end), the PDF previewed inline, one file deleted and the other kept, the expiry flags of
// the powers of attorney list, and the conflict warning on a second client with a variant
// spelling. One sign-in and one page for the file; what the flow is not about is set up through
// the API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
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
import { t, tx } from './i18n.mjs';
import { writeSampleFiles } from './sampleFiles.mjs';

export const CUSTOMERS = '/admin/customers';
export const PROCURATIONS = '/admin/customers/procurations';

/** Letters that no folding changes (no alef, hamza carriers, ta marbuta, ya or waw forms). */
const STABLE_LETTERS = 'بتثجحخدذرزسشصضطظعغفقكلمن';

/** A made-up Arabic word unique to this run, so that names of parallel runs never collide. */
export function arabicTag(length = 6) {
  return Array.from(randomBytes(length), (b) => STABLE_LETTERS[b % STABLE_LETTERS.length]).join('');
}

/** A well-formed national ID (14 digits) unique to this run. */
export const nationalIdNumber = () =>
  `2${String(randomInt(0, 1e6)).padStart(6, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;

/** ASCII digits as Arabic-Indic ones (what an Arabic keyboard types). */
export const arabicIndic = (digits) => digits.replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]);

/** Moves within the single-page app without a reload (keeps the one sign-in and the page state). */
export async function go(page, path) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((url) => url.pathname + url.search === path);
}

/**
 * A client and a power of attorney of theirs with a PDF and a PNG, made through the API: the data
 * of the record pages the screen and layout checks visit.
 * @param {ReturnType<import('./api.mjs').apiClient>} api signed in as the administrator
 * @param {{ name?: string }} [options] `name`: the client's name (default a unique Arabic one)
 */
export async function createClientWithProcuration(api, options = {}) {
  const client = await api.post(CUSTOMERS, {
    name: options.name ?? `أحمد إبراهيم ${arabicTag()}`,
    kind: 'person',
    nationalId: nationalIdNumber(),
  });
  const files = writeSampleFiles(uniq());
  try {
    const form = new FormData();
    form.set('number', `E2E-${uniq()}`);
    form.set('year', '2025');
    form.append('customerIds', String(client.id));
    const today = await officeToday(api);
    form.set('issueDate', addDays(today, -30));
    form.set('expiryDate', addDays(today, 10));
    for (const [f, type] of [
      [files.pdf, 'application/pdf'],
      [files.png, 'image/png'],
    ])
      form.append('files', new Blob([fs.readFileSync(f.path)], { type }), f.name);
    const procuration = await api.post(PROCURATIONS, form);
    return { client, procuration };
  } finally {
    fs.rmSync(files.dir, { recursive: true, force: true });
  }
}

/** The open drawer of an entity form (create or edit), by its title. */
export function formDrawer(page, lng, entity, mode = 'create') {
  return page.getByRole('dialog').filter({
    hasText: t(lng, mode === 'create' ? 'ui:form.createTitle' : 'ui:form.editTitle', {
      name: t(lng, `entities:${entity}.singular`),
    }),
  });
}

/** Closes an entity form drawer, discarding what was typed. */
export async function discardDrawer(page, lng) {
  await page.keyboard.press('Escape');
  const discard = page.getByRole('button', { name: tx(lng, 'ui:unsaved.discard') });
  if (await discard.isVisible().catch(() => false)) await discard.click();
}

/** Records every `aria-valuetext` an upload progress bar takes on (they come and go quickly). */
async function watchProgress(page) {
  await page.evaluate(() => {
    const seen = new Set();
    window.__e2eProgress = seen;
    const collect = () => {
      for (const el of document.querySelectorAll('[role=progressbar][aria-valuetext]'))
        seen.add(el.getAttribute('aria-valuetext'));
    };
    new MutationObserver(collect).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuetext'],
    });
  });
}
const progressSeen = (page) => page.evaluate(() => [...(window.__e2eProgress ?? [])]);

/**
 * From now on, records in the page what may put a search box's text back: every history change
 * (with where it came from) and every search input leaving or entering the page (a remount). Read
 * by `searchEvents` for the report of a missed search.
 */
async function watchSearchBox(page) {
  await page.evaluate(() => {
    // Watchers are put in once per document; each call starts a new list of what they see.
    window.__e2eSearchEvents = [];
    if (window.__e2eSearchWatched) return;
    window.__e2eSearchWatched = true;
    const record = (event) => window.__e2eSearchEvents.push({ at: Math.round(performance.now()), ...event });
    for (const method of ['pushState', 'replaceState']) {
      const original = history[method].bind(history);
      history[method] = (state, unused, url) => {
        const from = (new Error().stack ?? '')
          .split('\n')
          .slice(2, 7)
          .map((l) => l.trim());
        record({ method, url: String(url), from });
        return original(state, unused, url);
      };
    }
    window.addEventListener('popstate', () => record({ popstate: location.href }));
    const isSearch = (node) =>
      node instanceof HTMLElement && node.querySelector?.('input[type=search], .ant-input-search input');
    new MutationObserver((records) => {
      for (const { removedNodes, addedNodes } of records) {
        for (const node of removedNodes) if (isSearch(node)) record({ removed: node.nodeName });
        for (const node of addedNodes) if (isSearch(node)) record({ added: node.nodeName });
      }
    }).observe(document.body, { subtree: true, childList: true });
    document.addEventListener(
      'input',
      (event) => event.target instanceof HTMLInputElement && record({ input: event.target.value }),
      true,
    );
  });
}
const searchEvents = (page) => page.evaluate(() => JSON.stringify(window.__e2eSearchEvents ?? []));

/**
 * Presses Enter in a list's search box and waits until `applied()` says the search reached the URL.
 * A miss fails with what the page did meanwhile (`watchSearchBox`): the box's text, the focus, the
 * URL, the history changes and any search box remounted. The box once put back the previous search
 * between the fill and the Enter (the URL's earlier `q` committing late, as a transition), so that
 * Enter searched the old text again; `SearchBox` now keeps what was typed (27 November).
 */
async function submitSearch(page, search, applied, typed) {
  await search.press('Enter');
  try {
    await eventually(applied, { timeout: 10_000, message: `the URL carries the search "${typed}"` });
  } catch (error) {
    const state = await page.evaluate(() => ({
      url: window.location.href,
      focused: document.activeElement?.outerHTML.slice(0, 160) ?? null,
    }));
    error.message += `; box "${await search.inputValue()}", focus ${state.focused}, URL ${state.url}, events ${await searchEvents(page)}`;
    throw error;
  }
}

/** The flow of one language. */
export function clientsSpec(lng) {
  const sys = useSystem();
  const dir = lng === 'ar' ? 'rtl' : 'ltr';
  const e = (key, vars) => t(lng, `entities:${key}`, vars);
  const tag = arabicTag();
  const clientName = `أحمد إبراهيم ${tag}`;
  const foldedName = `احمد ابراهيم ${tag}`;
  const nationalId = nationalIdNumber();
  const files = writeSampleFiles(`${lng}-${uniq()}`);
  const poaNumber = `E2E-${lng}-${uniq()}`;
  /** Set as the flow goes. */
  const made = { clientId: 0, procurationId: 0 };

  describe(`clients in ${lng === 'ar' ? 'Arabic' : 'English'}`, () => {
    /** @type {Awaited<ReturnType<typeof sys.session>>} */
    let s;
    before(async () => {
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

    /** Runs a step; on failure keeps a screenshot and the console of the page. */
    const step = (name, fn) =>
      test(name, { timeout: 60_000 }, async () => {
        try {
          await fn(s.page);
        } catch (error) {
          await snap(s.page, `failures/${sys.target}-clients-${lng}-${name.replace(/\W+/g, '-')}`);
          if (error instanceof Error && s.logs.length)
            error.message += `\n--- browser console ---\n${s.logs.slice(-10).join('\n')}`;
          throw error;
        }
      });

    step('a client with an Arabic name is created through the form', async (page) => {
      await openMenuItem(page, 'clients', 'customers', lng);
      await page.waitForURL(`**${CUSTOMERS}`);
      await page
        .getByRole('main')
        .getByRole('heading', { name: tx(lng, 'entities:customers.title') })
        .waitFor();
      await page
        .getByRole('button', { name: tx(lng, 'ui:actions.createNamed', { name: e('customers.singular') }) })
        .click();
      const drawer = formDrawer(page, lng, 'customers');
      await drawer.getByLabel(e('customers.fields.name'), { exact: true }).fill(clientName);
      if (lng === 'en')
        await drawer
          .getByLabel(e('customers.fields.nameEn'), { exact: true })
          .fill(`Ahmed Ibrahim ${uniq()}`);
      // Arabic typing gives Arabic-Indic digits: stored as ASCII.
      await drawer
        .getByLabel(e('customers.fields.nationalId'), { exact: true })
        .fill(lng === 'ar' ? arabicIndic(nationalId) : nationalId);
      const created = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/api${CUSTOMERS}` && r.request().method() === 'POST',
      );
      await drawer.getByRole('button', { name: tx(lng, 'ui:actions.save') }).click();
      const res = await created;
      assert.equal(res.status(), 201, `created: ${await res.text()}`);
      const body = await res.json();
      made.clientId = body.data.id;
      assert.equal(body.data.name, clientName);
      assert.equal(body.data.nationalId, nationalId, 'national ID stored with ASCII digits');
      assert.equal(body.data.kind, 'person');
      await toast(page, t(lng, 'ui:form.created', { name: e('customers.singular') }));
      await drawer.waitFor({ state: 'hidden' });
    });

    step('the list finds it by a folded variant of the name and by Arabic-Indic ID digits', async (page) => {
      const search = page.getByLabel(t(lng, 'ui:table.search', { title: e('customers.title') }), {
        exact: true,
      });
      const table = page.getByRole('main').getByRole('table');
      const link = table.getByRole('link', { name: clientName, exact: true });
      const searched = () => new URL(page.url()).searchParams.get('q');
      for (const typed of [foldedName, arabicIndic(nationalId)]) {
        const before = searched();
        await watchSearchBox(page);
        await search.fill(typed);
        // The box holds what was typed before it is submitted (a re-render cannot have replaced it).
        await eventually(async () => (await search.inputValue()) === typed, {
          message: `the search box holds "${typed}"`,
        });
        // The search reaches the URL (as typed, or with its digits normalised): a history update,
        // not a page load, so it is polled rather than awaited as a navigation.
        await submitSearch(page, search, () => searched() !== before && searched() !== null, typed);
        await link.waitFor();
        // Only this client: the folded words (or the ID) match no other row.
        await eventually(async () => (await table.locator('tbody tr.ant-table-row').count()) === 1, {
          message: `one row for "${typed}"`,
        });
      }
    });

    step('its record page opens from the list', async (page) => {
      await page
        .getByRole('main')
        .getByRole('table')
        .getByRole('link', { name: clientName, exact: true })
        .click();
      await page.waitForURL((url) => url.pathname === `${CUSTOMERS}/${made.clientId}`);
      await waitForApp(page);
      await page.getByRole('main').getByRole('heading', { name: clientName }).waitFor();
      const details = page.getByRole('region', { name: t(lng, 'ui:record.details') });
      await details.getByText(nationalId, { exact: true }).waitFor();
      await details.getByText(e('customers.values.kind.person'), { exact: true }).waitFor();
      await page
        .getByRole('link', { name: t(lng, 'ui:record.back', { title: e('customers.title') }) })
        .waitFor();
    });

    // Arabic only: the communications tab's one-off message, sent and listed with its state (queued,
    // then sent or failed by the office's SMS gateway, whichever it is on this server).
    if (lng === 'ar')
      step('a one-off message to the client is sent from the communications tab and listed', async (page) => {
        const api = await sys.adminApi(lng);
        const current = await api.get(`${CUSTOMERS}/${made.clientId}`);
        await api.patch(`${CUSTOMERS}/${made.clientId}`, {
          mobile: '+201001234567',
          smsOptIn: await officeToday(api),
          updatedAt: current.updatedAt,
        });
        await page.getByRole('tab', { name: t(lng, 'clients:messages.tab'), exact: true }).click();
        const panel = page.getByRole('tabpanel');
        const text = `موعدكم غدًا ${arabicTag()}`;
        await panel.getByLabel(t(lng, 'ui:messages.body'), { exact: true }).fill(text);
        await panel.getByRole('button', { name: t(lng, 'ui:messages.send'), exact: true }).click();
        await toast(page, t(lng, 'ui:messages.queued'));
        const row = panel.getByRole('row').filter({ hasText: text });
        const tag = row.locator('[data-state]');
        await tag.waitFor();
        const state = await tag.getAttribute('data-state');
        assert.ok(['queued', 'sent', 'delivered', 'failed'].includes(state ?? ''), `state ${state}`);
        assert.equal((await tag.textContent())?.trim(), t(lng, `ui:messages.states.${state}`));
        await row.getByText(t(lng, 'ui:messages.oneOff'), { exact: true }).waitFor();
      });

    step('a power of attorney with two files is added from the client’s tab', async (page) => {
      await page.getByRole('tab', { name: e('procurations.title'), exact: true }).click();
      const panel = page.getByRole('tabpanel');
      await panel
        .getByRole('button', {
          name: tx(lng, 'ui:actions.createNamed', { name: e('procurations.singular') }),
        })
        .click();
      const drawer = formDrawer(page, lng, 'procurations');
      await drawer.getByLabel(e('procurations.fields.number'), { exact: true }).fill(poaNumber);
      await drawer.getByLabel(e('procurations.fields.year'), { exact: true }).fill('2025');
      // The client is already chosen: the tab pre-fills the reference with its name.
      const clientsItem = drawer.locator('.ant-form-item').filter({
        has: page.getByText(e('procurations.fields.customerIds'), { exact: true }),
      });
      await clientsItem.getByText(clientName, { exact: true }).waitFor();
      const issue = drawer.getByLabel(e('procurations.fields.issueDate'), { exact: true });
      await issue.click();
      await issue.fill('3/15/2025');
      // Leaving the box keeps the typed day (Enter would submit the form at once).
      await issue.press('Tab');
      await eventually(async () => (await issue.inputValue()) === '3/15/2025', {
        message: 'issue date kept',
      });
      await drawer.locator('input[type=file]').setInputFiles([files.pdf.path, files.png.path]);
      for (const f of [files.pdf, files.png]) await drawer.getByText(f.name, { exact: true }).waitFor();

      await watchProgress(page);
      const created = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/api${PROCURATIONS}` && r.request().method() === 'POST',
      );
      await drawer.getByRole('button', { name: tx(lng, 'ui:actions.save') }).click();
      const res = await created;
      assert.equal(res.status(), 201, `created: ${await res.text()}`);
      const body = (await res.json()).data;
      made.procurationId = body.id;
      assert.deepEqual(body.customerIds, [made.clientId], 'from the client of the page');
      assert.equal(body.issueDate.slice(0, 10), '2025-03-15');
      assert.deepEqual(body.files.map((f) => f.originalName).sort(), [files.pdf.name, files.png.name].sort());
      await toast(page, t(lng, 'ui:form.created', { name: e('procurations.singular') }));
      // Each file's bar went to "uploaded" before the drawer closed.
      const seen = await progressSeen(page);
      for (const f of [files.pdf, files.png])
        assert.ok(
          seen.includes(t(lng, 'ui:files.progress.done', { name: f.name })),
          `${f.name} shown uploaded; progress seen: ${JSON.stringify(seen)}`,
        );
      await drawer.waitFor({ state: 'hidden' });
      // The client's tab lists it.
      await panel.getByRole('link', { name: poaNumber, exact: true }).waitFor();
    });

    step('the PDF is previewed inline; one file deleted, the other kept', async (page) => {
      await page.getByRole('tabpanel').getByRole('link', { name: poaNumber, exact: true }).click();
      await page.waitForURL((url) => url.pathname === `${PROCURATIONS}/${made.procurationId}`);
      await page.getByRole('main').getByRole('heading', { name: poaNumber }).waitFor();
      await page.getByRole('tab', { name: t(lng, 'ui:record.tabs.files'), exact: true }).click();
      const panel = page.getByRole('tabpanel');
      await panel
        .getByRole('button', {
          name: t(lng, 'ui:record.files.preview', { name: files.pdf.name }),
          exact: true,
        })
        .click();
      const frame = panel.locator(
        `iframe[title="${t(lng, 'ui:record.files.previewTitle', { name: files.pdf.name })}"]`,
      );
      await frame.waitFor();
      const src = await frame.getAttribute('src');
      assert.match(src ?? '', /^blob:/, 'the PDF comes from an authorised fetch, as a blob');
      // The frame holds the stored PDF itself, and the browser loaded it.
      const loaded = await frame.evaluate(async (el) => {
        const blob = await (await fetch(el.src)).blob();
        const head = new TextDecoder().decode(await blob.slice(0, 5).arrayBuffer());
        return { type: blob.type, size: blob.size, head, frameUrl: el.contentWindow?.location.href ?? '' };
      });
      assert.deepEqual(
        { type: loaded.type, size: loaded.size, head: loaded.head },
        { type: 'application/pdf', size: files.pdf.size, head: '%PDF-' },
      );
      await eventually(() => frame.evaluate((el) => el.contentWindow?.location.href === el.src), {
        message: 'the frame navigated to the PDF',
      });

      // Delete the PNG.
      await panel
        .getByRole('button', { name: t(lng, 'ui:files.delete', { name: files.png.name }), exact: true })
        .click();
      const confirm = page
        .locator('.ant-popover:visible')
        .filter({ hasText: t(lng, 'ui:files.confirmDelete', { name: files.png.name }) });
      const removed = page.waitForResponse(
        (r) => r.url().includes(`/api${PROCURATIONS}/files/`) && r.request().method() === 'DELETE',
      );
      await confirm.getByRole('button', { name: tx(lng, 'ui:actions.delete') }).click();
      const removedStatus = (await removed).status();
      assert.ok(removedStatus >= 200 && removedStatus < 300, `file deleted: ${removedStatus}`);
      await toast(page, t(lng, 'ui:record.files.deleted'));
      await panel.getByText(files.png.name, { exact: true }).waitFor({ state: 'detached' });
      await panel.getByText(files.pdf.name, { exact: true }).waitFor();
      // The server keeps the PDF only.
      const api = await sys.adminApi(lng);
      const stored = await api.get(`${PROCURATIONS}/${made.procurationId}`);
      assert.deepEqual(
        stored.files.map((f) => f.originalName),
        [files.pdf.name],
      );
    });

    step('the powers of attorney list flags one expiring in 10 days and an expired one', async (page) => {
      const api = await sys.adminApi(lng);
      const base = { customerIds: [made.clientId], year: 2025 };
      // Days counted from the office's today, as the flags are (it is the next day in Riyadh, the
      // browser's zone, for hours before the office's midnight).
      const today = await officeToday(api);
      await api.post(PROCURATIONS, {
        ...base,
        number: `${poaNumber}-soon`,
        issueDate: addDays(today, -30),
        expiryDate: addDays(today, 10),
      });
      await api.post(PROCURATIONS, {
        ...base,
        number: `${poaNumber}-old`,
        issueDate: addDays(today, -400),
        expiryDate: addDays(today, -5),
      });
      await openMenuItem(page, null, 'procurations', lng);
      await page.waitForURL((url) => url.pathname === PROCURATIONS);
      const main = page.getByRole('main');
      await main.getByRole('heading', { name: tx(lng, 'entities:procurations.title') }).waitFor();
      const search = page.getByLabel(t(lng, 'ui:table.search', { title: e('procurations.title') }), {
        exact: true,
      });
      await watchSearchBox(page);
      await search.fill(poaNumber);
      await submitSearch(
        page,
        search,
        () => new URL(page.url()).searchParams.get('q') === poaNumber,
        poaNumber,
      );
      const table = main.getByRole('table');
      await table.getByRole('columnheader', { name: t(lng, 'clients:procurations.expiry.column') }).waitFor();
      const flagOf = async (number) => {
        const row = table
          .getByRole('row')
          .filter({ has: page.getByRole('link', { name: number, exact: true }) });
        await row.waitFor();
        return (await row.locator('[data-expiry]').innerText()).trim();
      };
      assert.equal(
        await flagOf(`${poaNumber}-soon`),
        t(lng, 'clients:procurations.expiry.soon', { count: 10 }),
      );
      assert.equal(await flagOf(`${poaNumber}-old`), t(lng, 'clients:procurations.expiry.expired'));
      // The one made through the tab has no expiry date: open-ended.
      assert.equal(await flagOf(poaNumber), t(lng, 'clients:procurations.expiry.open'));
    });

    step('a second client with a variant spelling gets the conflict warning with a link', async (page) => {
      await openMenuItem(page, 'clients', 'customers', lng);
      await page.waitForURL((url) => url.pathname === CUSTOMERS);
      await page
        .getByRole('button', { name: tx(lng, 'ui:actions.createNamed', { name: e('customers.singular') }) })
        .click();
      const drawer = formDrawer(page, lng, 'customers');
      // Another spelling: no hamza on the alefs, words in another order.
      await drawer.getByLabel(e('customers.fields.name'), { exact: true }).fill(`ابراهيم احمد ${tag}`);
      const panel = drawer.getByRole('region', { name: t(lng, 'ui:parties.conflicts.title') });
      const link = panel.getByRole('link', {
        name: t(lng, 'ui:parties.conflicts.open', { name: clientName }),
        exact: true,
      });
      await link.waitFor({ timeout: 15_000 });
      assert.equal(await link.getAttribute('href'), `${CUSTOMERS}/${made.clientId}`);
      await panel.getByText(t(lng, 'ui:parties.conflicts.mayStillSave'), { exact: true }).waitFor();
      // A warning only: the save button stays enabled.
      assert.equal(await drawer.getByRole('button', { name: tx(lng, 'ui:actions.save') }).isEnabled(), true);
      await expectDirection(page, dir, lng);
      await discardDrawer(page, lng);
    });
  });
}
