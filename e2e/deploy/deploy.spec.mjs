// The separate deployment, through Debian's nginx with deploy/nginx (deployment.mjs): two people
// signed in on the host's origin, their chat sockets on different API instances; a file stored
// through one instance and read through the other (both on one S3 bucket); the chat remote
// released while the page is open; both instances restarted one at a time; a remote's origin
// stopped; one instance killed with SIGKILL while a message is being typed. The tests run in
// order on one deployment and one pair of browser sessions, as the same office's day would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getBrowser, newContext, recordConsole, snap } from '../lib/browser.mjs';
import { chooseUserMenuItem, openMenuItem, signInToDashboard, waitForApp } from '../lib/app.mjs';
import { apiClient, uniq } from '../lib/api.mjs';
import { CHATS, createChatter, sendMessage, shownTexts } from '../lib/chat.mjs';
import { t, tx } from '../lib/i18n.mjs';
import { pdfBytes } from '../lib/sampleFiles.mjs';
import { arabicTag, CUSTOMERS, nationalIdNumber, PROCURATIONS } from '../lib/clients.mjs';
import { ADMIN } from '../lib/server.mjs';
import { fingerprintHeaders, listening, startDeployment, waitFor } from './deployment.mjs';

/** `fail_timeout` of the upstream's servers in deploy/nginx/mizan.conf, and a second more. */
const NGINX_FAIL_TIMEOUT_MS = 11_000;

const PG_URL = process.env.MIZAN_TEST_PG_URL;

/** @type {Awaited<ReturnType<typeof startDeployment>>} */
let d;
/** @type {import('playwright-core').Browser} */
let browser;
let adminApi;
let colleague;
let adminName;
let room;
/** A: the administrator; B: a colleague. Each `{ context, page, logs }`. */
const people = {};
const tag = uniq();

const composer = (page) => page.getByRole('textbox', { name: t('ar', 'chat:composer.label') });
const connectionOpen = (page) => page.getByRole('status', { name: t('ar', 'layout:connection.open') });

/** Runs a test's body; on failure keeps both pages' screenshots and adds what the pieces logged. */
async function step(name, fn) {
  try {
    await fn();
  } catch (error) {
    for (const [who, s] of Object.entries(people)) await snap(s.page, `failures/deploy-${name}-${who}`);
    const logs = Object.values(people)
      .flatMap((s) => s.logs)
      .slice(-15);
    if (error instanceof Error) {
      if (logs.length) error.message += `\n--- browser console ---\n${logs.join('\n')}`;
      error.message += `\n--- nginx error.log ---\n${d?.nginx?.errorLog() ?? ''}`;
      error.message += `\n(server logs: ${d?.instances?.map((i) => i.logFile).join(', ')})`;
      const sessions = await d
        ?.query(
          'select id, employee_id, created_at, last_seen_at, expires_at, revoked_at from sessions order by id',
        )
        .catch((e) => e.message);
      error.message += `\n--- sessions ---\n${JSON.stringify(sessions, null, 1)}`;
    }
    throw error;
  }
}

async function openPerson(key, email, password) {
  const context = await newContext(browser, { baseURL: d.baseURL });
  const page = await context.newPage();
  people[key] = { context, page, logs: recordConsole(page) };
  await signInToDashboard(page, email, password);
  return page;
}

/** Open WebSockets on each instance, in order. */
const socketCounts = () => Promise.all(d.instances.map((i) => (i.running ? i.websockets() : 0)));

/** Waits until the instances hold `expected` sockets (an array, one count per instance). */
async function socketsAre(expected, message, timeout = 20_000) {
  let last;
  await waitFor(
    async () => {
      last = await socketCounts();
      return last.every((n, i) => n === expected[i]);
    },
    { timeout, message: `${message} (sockets per instance ${JSON.stringify(expected)})` },
  ).catch((error) => {
    error.message += `; last ${JSON.stringify(last)}`;
    throw error;
  });
}

/** The instance (0-based) holding the only socket open, once exactly one is. */
async function soleSocket() {
  return waitFor(
    async () => {
      const counts = await socketCounts();
      const total = counts.reduce((a, b) => a + b, 0);
      return total === 1 ? String(counts.indexOf(1)) : null;
    },
    { timeout: 20_000, message: 'exactly one socket open' },
  ).then(Number);
}

/**
 * Puts A's and B's chat sockets on different instances and returns A's (0-based): B's page leaves
 * the application, so that A's socket is the only one, then comes back, and nginx's `least_conn`
 * gives B's new socket to the other instance. A socket that an nginx worker retired by a reload
 * still holds is not counted by the new one, which then chooses between equals in turn: B tries
 * again, a few times at most.
 */
async function splitSockets() {
  const { b } = people;
  for (let attempt = 1; ; attempt++) {
    await b.page.goto('about:blank');
    const aOn = await soleSocket();
    await openRoom(b.page);
    try {
      await socketsAre(
        d.instances.map(() => 1),
        'one socket on each instance',
        attempt < 4 ? 5_000 : 20_000,
      );
      return aOn;
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
}

async function openRoom(page) {
  await page.goto(room);
  await waitForApp(page);
  await composer(page).waitFor({ timeout: 20_000 });
  await connectionOpen(page).waitFor({ timeout: 20_000 });
}

/** `from` sends `text`; `to` shows it exactly once. */
async function exchange(from, to, text) {
  await sendMessage(from, 'ar', text);
  await waitFor(async () => (await shownTexts(to)).filter((x) => x === text).length === 1, {
    timeout: 30_000,
    message: `"${text}" shown once to the other person`,
  });
}

/** The version the about dialog lists for the chat remote on this page. */
async function aboutChatVersion(page) {
  const dialog = page.getByRole('dialog', { name: t('ar', 'layout:about.title') });
  await chooseUserMenuItem(page, adminName, 'layout:about.menu', () => dialog.waitFor({ timeout: 5_000 }));
  const version = dialog
    .getByRole('row', { name: new RegExp(t('ar', 'layout:remote.names.chat')) })
    .getByTestId('remote-version');
  const text = (await version.innerText({ timeout: 20_000 })).trim();
  await dialog.getByRole('button').click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

/** Signs in straight to one instance's port, bypassing nginx; `bytes(path)` reads a file's body. */
async function directClient(url) {
  const headers = fingerprintHeaders();
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  assert.equal(res.status, 200, `sign-in at ${url}`);
  const { token } = (await res.json()).data;
  const auth = { ...headers, authorization: `Bearer ${token}` };
  return {
    async post(path, body) {
      const json = !(body instanceof FormData);
      const r = await fetch(`${url}/api${path}`, {
        method: 'POST',
        headers: json ? { ...auth, 'content-type': 'application/json' } : auth,
        body: json ? JSON.stringify(body) : body,
      });
      const answer = await r.json();
      assert.equal(r.status, 201, `POST ${path} at ${url}: ${JSON.stringify(answer)}`);
      return answer.data;
    },
    async bytes(path) {
      const r = await fetch(`${url}/api${path}`, { headers: auth });
      assert.equal(r.status, 200, `GET ${path} at ${url}`);
      return Buffer.from(await r.arrayBuffer());
    },
  };
}

describe('the separate deployment behind nginx', { concurrency: false, timeout: 900_000 }, () => {
  before(
    async () => {
      [d, browser] = await Promise.all([startDeployment({ pgUrl: PG_URL }), getBrowser()]);
      console.log(
        `[deploy] host ${d.baseURL}, instances ${d.instances.map((i) => i.url).join(' ')}, logs in e2e/artifacts/deploy-*.log`,
      );
      adminApi = apiClient(d.baseURL);
      await adminApi.login(ADMIN.email, ADMIN.password);
      colleague = await createChatter({ api: () => apiClient(d.baseURL) }, adminApi, tag);
      adminName = (await adminApi.get('/employees/employees/profile')).name;
      const { chat } = await adminApi.post(CHATS, { kind: 'direct', memberId: colleague.id });
      room = `${CHATS}/${chat.id}`;
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await Promise.all(Object.values(people).map((s) => s.context.close().catch(() => undefined)));
    await browser?.close().catch(() => undefined);
    await d?.close();
  });

  test('the host and each remote on their own origin; two people sign in through nginx', () =>
    step('sign-in', async () => {
      const remotes = await (await fetch(`${d.baseURL}/remotes.json`)).json();
      const origins = Object.values(remotes).map((u) => new URL(u).origin);
      assert.equal(new Set([d.baseURL, ...origins]).size, 6, JSON.stringify(remotes));
      const manifest = await fetch(remotes.tasks, { headers: { origin: d.baseURL } });
      assert.equal(manifest.status, 200);
      assert.equal(manifest.headers.get('access-control-allow-origin'), d.baseURL);
      assert.equal(manifest.headers.get('cache-control'), 'no-cache');
      assert.match(manifest.headers.get('server') ?? '', /nginx/);
      // The host page may run scripts from each remote origin, and from nowhere else.
      const csp = (await fetch(`${d.baseURL}/admin/dashboard`)).headers.get('content-security-policy') ?? '';
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1].split(' ') ?? [];
      assert.deepEqual(scriptSrc.sort(), ["'self'", ...origins].sort());

      await Promise.all([
        openPerson('a', ADMIN.email, ADMIN.password),
        openPerson('b', colleague.email, colleague.password),
      ]);
    }));

  test('a chat between two people whose sockets are on different instances', () =>
    step('chat', async () => {
      const { a, b } = people;
      await openRoom(a.page);
      await splitSockets();
      await exchange(a.page, b.page, `مرحبا ${tag}`);
      await exchange(b.page, a.page, `أهلا ${tag}`);
    }));

  test('a file stored through one instance is read through the other and through nginx', () =>
    step('file', async () => {
      const [one, two, proxied] = await Promise.all(
        [...d.instances.map((i) => i.url), d.baseURL].map((url) => directClient(url)),
      );
      const client = await one.post(CUSTOMERS, {
        name: `عميل النشر ${arabicTag()}`,
        kind: 'person',
        nationalId: nationalIdNumber(),
      });
      const pdf = pdfBytes(`deploy ${tag}`);
      const form = new FormData();
      form.set('number', `D-${tag}`);
      form.set('year', '2025');
      form.append('customerIds', String(client.id));
      form.set('issueDate', '2026-01-01');
      form.append('files', new Blob([pdf], { type: 'application/pdf' }), `deploy-${tag}.pdf`);
      const procuration = await one.post(PROCURATIONS, form);
      const fileId = procuration.files?.[0]?.id;
      assert.ok(fileId, `the stored procuration lists its file: ${JSON.stringify(procuration)}`);
      assert.deepEqual(await two.bytes(`/files/${fileId}`), pdf, 'the other instance reads the same bytes');
      assert.deepEqual(await proxied.bytes(`/files/${fileId}`), pdf, 'and so does nginx');
    }));

  test('the chat remote released while the page is open; a reload shows the new one', () =>
    step('release', async () => {
      const { a, b } = people;
      assert.equal(await aboutChatVersion(a.page), d.chatVersion);
      const next = `${d.chatVersion}-next`;
      await d.releaseChat(next);
      const remotes = await fetch(`${d.baseURL}/remotes.json`);
      assert.equal(remotes.headers.get('cache-control'), 'no-cache');
      assert.equal((await remotes.json()).chat, `${d.origin('chat')}/${next}/mf-manifest.json`);
      const info = await fetch(`${d.origin('chat')}/${next}/mizan-remote.json`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(info.headers.get('content-encoding'), 'gzip');
      assert.equal((await info.json()).version, next);

      // The open page goes on with the version it loaded.
      await exchange(a.page, b.page, `قبل التحديث ${tag}`);
      assert.equal(await aboutChatVersion(a.page), d.chatVersion);

      await a.page.reload();
      await openRoom(a.page);
      assert.equal(await aboutChatVersion(a.page), next);
      await exchange(a.page, b.page, `بعد التحديث ${tag}`);
      await exchange(b.page, a.page, `وصلت ${tag}`);
    }));

  test('a rolling restart, one instance at a time: the pages go on throughout', () =>
    step('rolling', async () => {
      const { a, b } = people;
      for (const [n, instance] of d.instances.entries()) {
        await instance.stop();
        await exchange(a.page, b.page, `أثناء إعادة التشغيل ${n} ${tag}`);
        await exchange(b.page, a.page, `تم ${n} ${tag}`);
        await instance.start();
        // nginx keeps an instance that failed its requests out of the upstream for `fail_timeout`
        // (10 s, deploy/nginx/mizan.conf) even once it is ready: as an operator would, the next
        // instance stops only after that, or the proxy would have no instance left to send to.
        await new Promise((resolve) => setTimeout(resolve, NGINX_FAIL_TIMEOUT_MS));
      }
      for (const s of [a, b]) assert.equal(new URL(s.page.url()).pathname, room);
    }));

  test("a remote's origin stopped leaves the host working", () =>
    step('remote-stopped', async () => {
      const { a, b } = people;
      await d.nginx.reload({ stopped: ['tasks'] });
      await waitFor(async () => !(await listening(d.ports.tasks)), {
        message: "the tasks origin's port closed",
      });
      await a.page.reload();
      await openRoom(a.page);
      await exchange(a.page, b.page, `المهام متوقفة ${tag}`);
      await openMenuItem(a.page, 'legal', 'tasks');
      await a.page.waitForURL('**/admin/lawsuits/tasks');
      const main = a.page.getByRole('main');
      await main
        .getByText(t('ar', 'layout:remote.unavailableTitle'), { exact: true })
        .waitFor({ timeout: 30_000 });
      await openMenuItem(a.page, null, 'dashboard');
      await a.page.waitForURL('**/admin/dashboard');
      await main.getByText(t('ar', 'dashboard:quickLinks'), { exact: true }).waitFor();

      // The origin back: "retry" loads the remote without a reload.
      await d.nginx.reload({ stopped: [] });
      await waitFor(() => listening(d.ports.tasks), { message: "the tasks origin's port open again" });
      await openMenuItem(a.page, 'legal', 'tasks');
      await main.getByRole('button', { name: tx('ar', 'layout:remote.retry') }).click();
      await waitFor(
        async () => (await main.getByText(t('ar', 'layout:remote.unavailableTitle')).count()) === 0,
        {
          timeout: 30_000,
          message: 'the tasks screen after retry',
        },
      );
    }));

  test('an instance killed with SIGKILL mid-session: the page carries on, nothing typed is lost', () =>
    step('sigkill', async () => {
      const { a, b } = people;
      await openRoom(a.page);
      const aOn = await splitSockets();

      const typed = `كتبت أثناء التعطل ${tag}`;
      await composer(a.page).fill(typed);
      await d.instances[aOn].kill('SIGKILL');
      await a.page.keyboard.press('Enter');
      // A's page reconnects through the surviving instance and sends what was typed, once.
      await waitFor(async () => (await shownTexts(b.page)).filter((x) => x === typed).length === 1, {
        timeout: 45_000,
        message: 'the message typed while its instance died reaches B once',
      });
      await connectionOpen(a.page).waitFor({ timeout: 30_000 });
      assert.equal(new URL(a.page.url()).pathname, room, 'A is still signed in, on the chat');
      assert.equal((await shownTexts(a.page)).filter((x) => x === typed).length, 1);
      await exchange(b.page, a.page, `استمر ${tag}`);
      await exchange(a.page, b.page, `نعم ${tag}`);
    }));
});
