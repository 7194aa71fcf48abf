// Chat between two browsers: messages both ways live, the header's unread badge, the
// ticks turning to read, a forced disconnection of one side during which the other sends three
// messages that all arrive exactly once after the reconnection; axe-core on the chat screen in
// Arabic and English. Data set up through the API; one sign-in per browser context.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import { languageButton, signInToDashboard, waitForApp } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { t } from '../lib/i18n.mjs';
import { check } from '../lib/screens.mjs';
import { CHATS, chatBadge, createChatter, sendMessage, shownTexts, statusOf } from '../lib/chat.mjs';

const sys = useSystem();

/** Counts of each text among the shown messages. */
const counts = (texts) => texts.reduce((all, x) => ({ ...all, [x]: (all[x] ?? 0) + 1 }), {});

describe('chat between two employees', () => {
  test(
    'live both ways, unread badge, read ticks, nothing lost or doubled over a disconnection; axe in both languages',
    { timeout: 240_000 },
    () =>
      sys.with('chat', async (open) => {
        const tag = uniq();
        const adminApi = await sys.adminApi();
        const colleague = await createChatter(sys, adminApi, tag);
        const adminName = (await adminApi.get('/employees/employees/profile')).name;
        const { chat } = await adminApi.post(CHATS, { kind: 'direct', memberId: colleague.id });
        const room = `${CHATS}/${chat.id}`;

        // A: the administrator, with the chat open. B: the colleague, on the dashboard. B's socket
        // goes through a route that the test can cut.
        const a = await open();
        const b = await open();
        const bSockets = [];
        await b.page.routeWebSocket(/\/api\/ws/, (ws) => {
          ws.connectToServer();
          bSockets.push(ws);
        });
        await signInToDashboard(a.page, sys.admin.email, sys.admin.password);
        await signInToDashboard(b.page, colleague.email, colleague.password);
        await a.page.goto(room);
        await waitForApp(a.page);
        await a.page.getByRole('textbox', { name: t('ar', 'chat:composer.label') }).waitFor();
        await eventually(async () => (await chatBadge(b.page).getAttribute('data-unread')) === '0', {
          message: "B's badge at 0",
        });

        // A writes: B, not looking at the chat, sees the badge rise.
        const first = `مرحبا ${tag} hello https://example.com/${tag}`;
        await sendMessage(a.page, 'ar', first);
        await eventually(async () => (await chatBadge(b.page).getAttribute('data-unread')) === '1', {
          message: "B's badge at 1",
          timeout: 15_000,
        });

        // B opens the chat from the badge: the message, its safe link; A's ticks turn to read.
        await chatBadge(b.page).click();
        await b.page.waitForURL(`**${CHATS}`);
        await b.page.getByTestId('chat-row').filter({ hasText: adminName }).first().click();
        await b.page.waitForURL(`**${room}`);
        await eventually(async () => (await shownTexts(b.page)).includes(first), {
          message: 'B sees the message',
        });
        const link = b.page.getByTestId('message').getByRole('link', { name: `https://example.com/${tag}` });
        assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
        assert.equal(await link.getAttribute('target'), '_blank');
        await eventually(async () => (await statusOf(a.page, first)) === 'read', {
          message: "A's message read",
          timeout: 15_000,
        });
        await eventually(async () => (await chatBadge(b.page).getAttribute('data-unread')) === '0', {
          message: "B's badge back to 0",
        });

        // B answers: A sees it live.
        const answer = `أهلا ${tag} — fine`;
        await sendMessage(b.page, 'ar', answer);
        await eventually(async () => (await shownTexts(a.page)).includes(answer), {
          message: 'A sees the answer',
        });

        // B drops off the network; A sends three messages meanwhile.
        await b.context.setOffline(true);
        for (const ws of bSockets) await ws.close({ code: 1006, reason: 'forced' }).catch(() => {});
        await eventually(
          async () =>
            (await b.page.getByRole('status', { name: t('ar', 'layout:connection.open') }).count()) === 0,
          { message: "B's connection down", timeout: 15_000 },
        );
        const three = [1, 2, 3].map((n) => `غياب ${n} ${tag}`);
        for (const text of three) await sendMessage(a.page, 'ar', text);
        await eventually(
          async () => (await Promise.all(three.map((x) => statusOf(a.page, x)))).every((s) => s !== null),
          { message: 'A stored the three' },
        );
        assert.deepEqual(
          (await shownTexts(b.page)).filter((x) => three.includes(x)),
          [],
          'B got nothing while offline',
        );
        await b.context.setOffline(false);
        await eventually(
          async () => {
            const seen = counts(await shownTexts(b.page));
            return three.every((x) => seen[x] === 1);
          },
          { message: 'the three arrive at B once each after the reconnection', timeout: 60_000 },
        );
        const after = counts(await shownTexts(b.page));
        assert.deepEqual(
          three.map((x) => after[x]),
          [1, 1, 1],
        );
        assert.equal(after[first], 1);
        assert.equal(after[answer], 1);

        // axe on the chat screen, Arabic then English.
        assert.deepEqual(await check(a.page, 'ar', 'chat'), []);
        await languageButton(a.page, 'ar').click();
        await a.page.getByRole('textbox', { name: t('en', 'chat:composer.label') }).waitFor();
        assert.deepEqual(await check(a.page, 'en', 'chat'), []);
      }),
  );
});
