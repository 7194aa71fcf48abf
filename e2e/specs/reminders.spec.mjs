// Hearing reminders: a hearing tomorrow for lawyer L produces, at the general setting
// `reminderEveningTime`, the bell's notification for L (badge, drawer text with the file number, a
// link opening the hearing's page) and nothing for another lawyer U, both signed in meanwhile.
//
// The reminder is triggered by changing the general settings, which other specs compare and save
// on the shared server: this file runs on a server of its own, polling the scheduler every second.
// A daily job's next run is planned when the scheduler first sees it, and a changed time moves it
// within that same office day only; so the data and an evening time later today (23:59) are set
// first on a start of that database without the scheduler (poll 0), and the server is started
// again on it with the scheduler: the job is planned for 23:59 today, then the evening time is set
// to the office's current minute and the next poll runs it. The office's time zone is set to one where
// it is daytime, so that "tomorrow" cannot turn over while the test runs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useSystem } from '../lib/harness.mjs';
import { createReadyEmployee, signInToDashboard, toast, waitForApp } from '../lib/app.mjs';
import { addDays, apiClient, uniq } from '../lib/api.mjs';
import { t } from '../lib/i18n.mjs';
import { arabicTag, nationalIdNumber } from '../lib/clients.mjs';
import { ADMIN, createPgDatabase, startServer } from '../lib/server.mjs';

const GENERAL = '/admin/settings/system/general';
const SESSIONS = '/admin/lawsuits/sessions';
/** The seeded lawyer role's stored name (SEEDED_ROLES in permissions.ts). */
const LAWYER_ROLE = 'محامٍ';
/** After this office time the hearing's "tomorrow" could turn over during the test. */
const LATEST = '23:57';
const lng = 'ar';

/** The office's wall clock now in `timeZone`: day `YYYY-MM-DD` and minute `HH:mm`. */
function officeNow(timeZone, now = new Date()) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(now);
  const p = (type) => parts.find((x) => x.type === type)?.value ?? '';
  return { day: `${p('year')}-${p('month')}-${p('day')}`, minute: `${p('hour')}:${p('minute')}` };
}

/**
 * The office's time zone for this file: `current` if its clock reads between 06:00 and 18:00, else
 * the first zone of a few around the world whose clock does. The test sets reminders for "tomorrow"
 * at this minute: near midnight, the office day would turn over under it (a CI run at 23:57 did).
 */
function daytimeZone(current, now = new Date()) {
  const zones = [current, 'Asia/Riyadh', 'Asia/Tokyo', 'America/New_York', 'Europe/London'];
  const daytime = (zone) => {
    const { minute } = officeNow(zone, now);
    return minute >= '06:00' && minute < '18:00';
  };
  return zones.find(daytime) ?? current;
}

/** An employee with the lawyer role whose first-sign-in password change is done (through the API). */
const lawyer = (baseURL, admin, name) =>
  createReadyEmployee({ api: () => apiClient(baseURL, { lang: lng }) }, admin, {
    roleNames: [LAWYER_ROLE],
    name,
  });

const target = process.env.E2E_TARGET ?? 'sqlite';
const sys = useSystem();
// The server is this file's own, started below (node:test runs root hooks side by side, so the
// harness is kept from starting one: it would race the setting-up start on the same database).
sys.baseURL ||= 'http://127.0.0.1:9';

/** What the setting-up start made. */
const made = {
  skip: '',
  timeZone: '',
  tomorrow: '',
  fileNumber: `E2E-R-${uniq()}`,
  court: '',
  hearingId: 0,
  /** @type {{ id: number, name: string, email: string, password: string }} */
  l: /** @type {any} */ (null),
  /** @type {{ id: number, name: string, email: string, password: string }} */
  u: /** @type {any} */ (null),
};

/**
 * The setting-up start of this file's database (scheduler off): two lawyers, a client, a court, a
 * lawsuit and its hearing tomorrow for the first lawyer, the evening reminder at 23:59.
 */
async function setUp(databaseUrl) {
  const setup = await startServer({
    label: `reminders-setup-${target}`,
    databaseUrl,
    env: { MIZAN_SCHEDULER_POLL_SECONDS: '0' },
  });
  try {
    const admin = apiClient(setup.url, { lang: lng });
    await admin.login(ADMIN.email, ADMIN.password);
    made.timeZone = daytimeZone((await admin.get(GENERAL)).timeZone);
    await admin.put(GENERAL, { timeZone: made.timeZone });
    const now = officeNow(made.timeZone);
    if (now.minute >= LATEST) {
      made.skip = `office time ${now.minute} (${made.timeZone}) is after ${LATEST}: "tomorrow" would turn over during the test`;
      return;
    }
    made.tomorrow = addDays(now.day, 1);
    const tag = arabicTag();
    made.l = await lawyer(setup.url, admin, `المحامي الحاضر ${tag}`);
    made.u = await lawyer(setup.url, admin, `محامٍ آخر ${tag}`);
    const client = await admin.post('/admin/customers', {
      name: `موكل ${tag}`,
      kind: 'person',
      nationalId: nationalIdNumber(),
    });
    made.court = `محكمة ${tag}`;
    const court = await admin.post('/admin/settings/courts/courts', {
      name: made.court,
      courtType: 'general',
    });
    const lawsuit = await admin.post('/admin/lawsuits', {
      fileNumber: made.fileNumber,
      customerIds: [client.id],
      courtId: court.id,
    });
    const hearing = await admin.post(SESSIONS, {
      lawsuitId: lawsuit.id,
      date: made.tomorrow,
      time: '10:30',
      lawyerId: made.l.id,
    });
    made.hearingId = hearing.id;
    // Later today: the scheduler's first look plans the evening job for today.
    await admin.put(GENERAL, { reminderEveningTime: '23:59' });
  } finally {
    await setup.stop();
  }
}

/** The header's bell of `page`, found by its label with `count` unread. */
const bell = (page, count) =>
  page.locator('header').getByRole('button', { name: t(lng, 'notifications:bell', { count }), exact: true });

describe('hearing reminders', () => {
  // This file's database, kept across the two starts of its server (each start has its own DATA_DIR).
  const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-e2e-reminders-'));
  /** @type {Awaited<ReturnType<typeof createPgDatabase>> | undefined} */
  let pg;
  /** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
  let server;
  before(async () => {
    let databaseUrl = `sqlite:${path.join(dbDir, 'mizan.db')}`;
    if (target === 'postgres' && process.env.MIZAN_TEST_PG_URL) {
      pg = await createPgDatabase(process.env.MIZAN_TEST_PG_URL);
      databaseUrl = pg.url;
    }
    await setUp(databaseUrl);
    if (made.skip) return;
    // Again on the same database, the scheduler polling every second.
    server = await startServer({
      label: `reminders-${target}`,
      databaseUrl,
      env: { MIZAN_SCHEDULER_POLL_SECONDS: '1' },
    });
    sys.baseURL = server.url;
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dbDir, { recursive: true, force: true });
    await pg?.drop().catch((e) => console.error(`[e2e] could not drop ${pg?.name}: ${e.message}`));
  });

  test(
    'a hearing tomorrow: the bell of its lawyer gets the notification, another lawyer’s does not',
    { timeout: 90_000 },
    (ctx) => {
      if (made.skip) return ctx.skip(made.skip);
      return sys.with('reminders', async (open) => {
        const [l, u] = await Promise.all([open(), open()]);
        await Promise.all([
          signInToDashboard(l.page, made.l.email, made.l.password),
          signInToDashboard(u.page, made.u.email, made.u.password),
        ]);
        for (const { page } of [l, u]) await bell(page, 0).waitFor();
        const lApi = sys.api(lng);
        await lApi.login(made.l.email, made.l.password);
        const uApi = sys.api(lng);
        await uApi.login(made.u.email, made.u.password);
        assert.equal((await lApi.get('/notifications')).total, 0, 'L has no notification yet');

        // The evening reminder's time: this minute on the office's clock (due at the next poll).
        const admin = await sys.adminApi(lng);
        const now = officeNow(made.timeZone);
        assert.ok(now.minute < LATEST, `office time ${now.minute} still before ${LATEST}`);
        assert.equal(addDays(now.day, 1), made.tomorrow, 'still the same office day');
        await admin.put(GENERAL, { reminderEveningTime: now.minute });

        // L's badge turns to 1, live, with a toast of its title.
        const title = t(lng, 'notifications:kinds.hearingTomorrow.title', { fileNumber: made.fileNumber });
        await bell(l.page, 1).waitFor({ timeout: 30_000 });
        await toast(l.page, title);
        const mine = await lApi.get('/notifications');
        assert.equal(mine.total, 1, JSON.stringify(mine.items));
        const [row] = mine.items;
        assert.deepEqual(
          { kind: row.kind, link: row.link, fileNumber: row.params.fileNumber, date: row.params.date },
          {
            kind: 'hearingTomorrow',
            link: `${SESSIONS}/${made.hearingId}`,
            fileNumber: made.fileNumber,
            date: made.tomorrow,
          },
        );

        // U: nothing, on the API and on the bell (U's page is signed in and listening too).
        const theirs = await uApi.get('/notifications');
        assert.equal(theirs.total, 0, `U has none: ${JSON.stringify(theirs.items)}`);
        assert.equal((await uApi.get('/notifications/unread-count')).unread, 0);
        assert.equal(await bell(u.page, 0).count(), 1, 'U’s bell still at 0');
        assert.equal(await bell(u.page, 1).count(), 0);

        // L's drawer: the text with the file number and the court; its link opens the hearing.
        await bell(l.page, 1).click();
        const drawer = l.page.getByRole('dialog', { name: t(lng, 'notifications:title') });
        const list = drawer.getByRole('list', { name: t(lng, 'notifications:title') });
        const item = list.getByRole('listitem').filter({ hasText: made.fileNumber });
        await item.waitFor();
        assert.equal(await list.getByRole('listitem').count(), 1);
        const body = (await item.innerText()).replace(/\s+/g, ' ');
        assert.ok(body.includes(title), `title in "${body}"`);
        assert.ok(body.includes(made.court), `court in "${body}"`);
        const link = item.getByRole('link', { name: title, exact: true });
        assert.equal(await link.getAttribute('href'), `${SESSIONS}/${made.hearingId}`);
        await link.click();
        await l.page.waitForURL((url) => url.pathname === `${SESSIONS}/${made.hearingId}`);
        await waitForApp(l.page);
        await drawer.waitFor({ state: 'hidden' });
        // Opened: read, the badge back to 0.
        await bell(l.page, 0).waitFor();
        assert.equal((await lApi.get('/notifications/unread-count')).unread, 0);
        assert.equal(await bell(u.page, 0).count(), 1, 'U’s bell still at 0');
      });
    },
  );
});
