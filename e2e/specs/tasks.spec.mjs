// Tasks between two employees: the administrator creates a task on a lawsuit assigned to
// a lawyer, who sees the notification on the bell, opens the task from it, comments with a file and
// moves it to done on the board; the administrator, on the task's page, sees the comment and the
// move arrive live. axe-core (no serious or critical finding) on the board and on the task's page.
// Data set up through the API; one sign-in per browser context.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import { signInToDashboard, waitForApp } from '../lib/app.mjs';
import { uniq } from '../lib/api.mjs';
import { t } from '../lib/i18n.mjs';
import { check } from '../lib/screens.mjs';
import { writeSampleFiles } from '../lib/sampleFiles.mjs';
import { CUSTOMERS, arabicTag, go, nationalIdNumber } from '../lib/clients.mjs';
import {
  BOARD,
  LAWSUITS,
  TASKS,
  bell,
  boardCard,
  boardColumn,
  createLawyer,
  moveCard,
  stateName,
  stateSelect,
} from '../lib/tasks.mjs';

const sys = useSystem();
const lng = 'ar';

describe('tasks between two employees', () => {
  test(
    'assigned → notified → comment with a file and a move to done on the board, both live for the creator; axe on the board and the task page',
    { timeout: 240_000 },
    () =>
      sys.with('tasks', async (open) => {
        const tag = uniq();
        const files = writeSampleFiles(tag);
        const adminApi = await sys.adminApi();
        const lawyer = await createLawyer(sys, adminApi, tag);
        const client = await adminApi.post(CUSTOMERS, {
          name: `موكل المهام ${arabicTag()}`,
          kind: 'person',
          nationalId: nationalIdNumber(),
        });
        const lawsuit = await adminApi.post(LAWSUITS, { fileNumber: `T-${tag}`, customerIds: [client.id] });

        // B: the lawyer, signed in first (their bell at 0). A: the administrator.
        const b = await open();
        const a = await open();
        await signInToDashboard(b.page, lawyer.email, lawyer.password);
        await bell(b.page, lng, 0).waitFor();
        await signInToDashboard(a.page, sys.admin.email, sys.admin.password);

        const title = `مراجعة المذكرة ${tag}`;
        const dueAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
        const task = await adminApi.post(TASKS, {
          title,
          priority: 'high',
          dueAt,
          assigneeIds: [lawyer.id],
          lawsuitId: lawsuit.id,
        });
        assert.equal(task.state, 'new');
        const taskPage = `${TASKS}/${task.id}`;

        // A watches the task's page, on its comments.
        await go(a.page, taskPage);
        await waitForApp(a.page);
        await a.page.getByRole('tab', { name: t(lng, 'tasks:comments.title') }).click();
        await eventually(
          async () => (await stateSelect(a.page, lng).innerText()).includes(stateName(lng, 'new')),
          {
            message: 'A sees the task new',
          },
        );

        // B: the bell rises; its item opens the task.
        await bell(b.page, lng, 1).waitFor({ timeout: 30_000 });
        await bell(b.page, lng, 1).click();
        const drawer = b.page.getByRole('dialog', { name: t(lng, 'notifications:title') });
        const item = drawer.getByRole('listitem').filter({ hasText: title });
        await item.waitFor();
        await item.getByRole('link').first().click();
        await b.page.waitForURL(`**${taskPage}`);
        await waitForApp(b.page);

        // B comments with a PDF.
        await b.page.getByRole('tab', { name: t(lng, 'tasks:comments.title') }).click();
        const comment = `أرفقت المذكرة المعدلة ${tag}`;
        await b.page.getByRole('textbox', { name: t(lng, 'tasks:comments.new') }).fill(comment);
        await b.page.getByRole('tabpanel').locator('input[type=file]').first().setInputFiles(files.pdf.path);
        await b.page.getByText(files.pdf.name).first().waitFor();
        await b.page.getByRole('button', { name: t(lng, 'tasks:comments.send') }).click();
        const bFeed = b.page.getByRole('feed', { name: t(lng, 'tasks:comments.title') });
        await bFeed.getByText(comment).waitFor();

        // A: the comment and its file arrive without a reload.
        const aFeed = a.page.getByRole('feed', { name: t(lng, 'tasks:comments.title') });
        await aFeed.getByText(comment).waitFor({ timeout: 15_000 });
        await aFeed.getByText(files.pdf.name).first().waitFor();
        const stored = await adminApi.get(`${TASKS}/${task.id}/comments`);
        assert.deepEqual(
          stored.items.map((c) => [c.body, c.authorId, c.files.map((f) => f.originalName)]),
          [[comment, lawyer.id, [files.pdf.name]]],
        );

        // axe on the task's page (B's, with the comment and its file).
        assert.deepEqual(await check(b.page, lng, 'task-page'), []);

        // B moves the task to done on the board, from the keyboard (new → in progress → waiting → done).
        await go(b.page, BOARD);
        await waitForApp(b.page);
        await boardCard(b.page, task.id).waitFor();
        assert.equal(await boardColumn(b.page, 'new').locator(`[data-task-card="${task.id}"]`).count(), 1);
        assert.deepEqual(await check(b.page, lng, 'tasks-board'), []);
        await moveCard(b.page, lng, title, ['inProgress', 'waiting', 'done']);
        await eventually(
          async () =>
            (await boardColumn(b.page, 'done').locator(`[data-task-card="${task.id}"]`).count()) === 1,
          { message: 'the card in the done column', timeout: 15_000 },
        );
        await eventually(async () => (await adminApi.get(`${TASKS}/${task.id}`)).state === 'done', {
          message: 'stored done',
        });
        const moved = await adminApi.get(`${TASKS}/${task.id}`);
        assert.equal(moved.stateChangedById, lawyer.id);

        // A: the move arrives on the open task page without a reload.
        await eventually(
          async () => (await stateSelect(a.page, lng).innerText()).includes(stateName(lng, 'done')),
          {
            message: 'A sees the task done',
            timeout: 15_000,
          },
        );
      }),
  );
});
