import { API_BASE, taskChannel, taskEmployeeChannel, TASK_ROUTES } from '@mizan/contracts';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import {
  COMMENTS_URL,
  PDF,
  TASK_WRITER,
  authUser,
  createTask,
  fileUrl,
  member,
  multipart,
  notificationsOf,
  type Member,
  type Row,
} from './testkit';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(120_000);

const threadUrl = (taskId: number) => API_BASE + TASK_ROUTES.comments.path.replace(':id', String(taskId));
const commentUrl = (taskId: number, commentId: number) =>
  API_BASE +
  TASK_ROUTES.deleteComment.path.replace(':id', String(taskId)).replace(':commentId', String(commentId));

describe.each(dialects())('task comments and channels on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let a: Member;
  let b: Member;
  let outsider: Member;
  let task: Row;

  /** Events published on a task's channel with `action`. */
  const live = (taskId: number, action: string) =>
    t.published.filter(
      (p) => p.channel === taskChannel(taskId) && (p.message as { action?: string }).action === action,
    );
  const comment = async (
    as: Member,
    taskId: number,
    body: string,
    files: Parameters<typeof multipart>[1] = [],
  ) => {
    const form = multipart({ taskId, body }, files);
    return t.app.inject({
      method: 'POST',
      url: COMMENTS_URL,
      headers: { ...as.headers(), ...form.headers },
      payload: form.payload,
    });
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    a = await member(t, admin);
    b = await member(t, admin);
    outsider = await member(t, admin);
    task = await createTask(t, a, { assigneeIds: [b.id] });
  });
  afterAll(() => t.close());

  it('adds a comment with a file as its author, live on the task’s channel, notifying the task’s people', async () => {
    const res = await comment(b, task.id, 'أرفقت المذكرة', [
      { data: PDF, filename: 'مذكرة.pdf', type: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(201);
    const row = res.json().data as Row & { files: { id: number }[] };
    expect(row).toMatchObject({ taskId: task.id, authorId: b.id, body: 'أرفقت المذكرة' });
    expect(row.files).toHaveLength(1);
    expect(live(task.id, 'commentCreate').map((p) => (p.message as { data: Row }).data.id)).toEqual([row.id]);
    expect(await notificationsOf(t, a.id)).toEqual(['taskComment']);
    expect(await notificationsOf(t, b.id)).toEqual(['taskAssigned']);
    // The comment's file: whoever sees the task.
    expect(
      (await t.app.inject({ method: 'GET', url: fileUrl(row.files[0]!.id), headers: a.headers() }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: fileUrl(row.files[0]!.id), headers: outsider.headers() }))
        .statusCode,
    ).toBe(403);
  });

  it('answers 404 to a comment on a task the writer may not see, storing nothing', async () => {
    const before = (await t.app.db.selectFrom('task_comments').select('id').execute()).length;
    const res = await comment(outsider, task.id, 'تطفل');
    expect(res.statusCode).toBe(404);
    expect((await t.app.db.selectFrom('task_comments').select('id').execute()).length).toBe(before);
    const forged = await t.app.inject({
      method: 'POST',
      url: COMMENTS_URL,
      headers: a.headers(),
      payload: { taskId: task.id, body: 'باسم غيري', authorId: b.id },
    });
    expect([forged.statusCode, Object.keys(forged.json().errors)]).toEqual([422, ['authorId']]);
  });

  it('lists the thread oldest first to those who see the task; 404 to others', async () => {
    await comment(a, task.id, 'الثاني');
    const res = await t.app.inject({ method: 'GET', url: threadUrl(task.id), headers: b.headers() });
    expect(res.statusCode).toBe(200);
    const page = res.json().data as { items: Row[]; total: number };
    expect(page.items.map((c) => c.body)).toEqual(['أرفقت المذكرة', 'الثاني']);
    expect(page.total).toBe(2);
    expect(
      (await t.app.inject({ method: 'GET', url: threadUrl(task.id), headers: outsider.headers() }))
        .statusCode,
    ).toBe(404);
    // The generic comments list is scoped the same way.
    const generic = await t.app.inject({
      method: 'GET',
      url: `${COMMENTS_URL}?taskId=${task.id}`,
      headers: outsider.headers(),
    });
    expect(generic.json().data).toMatchObject({ items: [], total: 0 });
  });

  it('lets only the author or a moderator edit a comment (403 otherwise)', async () => {
    const own = (await comment(b, task.id, 'قبل التعديل')).json().data as Row;
    const refused = await t.app.inject({
      method: 'PUT',
      url: COMMENTS_URL,
      headers: a.headers(),
      payload: { id: own.id, body: 'ليس لي' },
    });
    expect(refused.statusCode).toBe(403);
    const edited = await t.app.inject({
      method: 'PUT',
      url: COMMENTS_URL,
      headers: b.headers(),
      payload: { id: own.id, body: 'بعد التعديل', updatedAt: own.updatedAt },
    });
    expect(edited.statusCode).toBe(200);
    expect(Date.parse(edited.json().data.updatedAt)).toBeGreaterThan(Date.parse(String(own.createdAt)));
    expect(live(task.id, 'commentUpdate').map((p) => (p.message as { data: Row }).data.body)).toContain(
      'بعد التعديل',
    );
    const moderated = await t.app.inject({
      method: 'PUT',
      url: COMMENTS_URL,
      headers: admin.headers,
      payload: { id: own.id, body: 'عدّلها المشرف' },
    });
    expect(moderated.statusCode).toBe(200);
  });

  it('deletes a comment by DELETE /{taskId}/comments/{commentId}: author or moderator; 403 for another; 404 for another task', async () => {
    const own = (await comment(b, task.id, 'سأحذفه')).json().data as Row;
    const forbidden = await t.app.inject({
      method: 'DELETE',
      url: commentUrl(task.id, own.id),
      headers: a.headers('ar'),
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().message).toContain('كاتبه');
    const otherTask = await createTask(t, b, { assigneeIds: [a.id] });
    expect(
      (await t.app.inject({ method: 'DELETE', url: commentUrl(otherTask.id, own.id), headers: b.headers() }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: commentUrl(task.id, own.id),
          headers: outsider.headers(),
        })
      ).statusCode,
    ).toBe(404);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: commentUrl(task.id, own.id),
      headers: b.headers(),
    });
    expect(deleted.statusCode).toBe(200);
    expect(live(task.id, 'commentDelete').map((p) => (p.message as { data: Row }).data.id)).toContain(own.id);
    const byModerator = (await comment(a, task.id, 'يحذفه المشرف')).json().data as Row;
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: commentUrl(task.id, byModerator.id),
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('deletes a task with its thread: each comment deleted in the same write, with its audit entry and live event', async () => {
    const doomed = await createTask(t, b, { assigneeIds: [a.id] });
    const ids = [
      ((await comment(a, doomed.id, 'تعليق أول')).json().data as Row).id,
      ((await comment(b, doomed.id, 'تعليق ثان')).json().data as Row).id,
    ];
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${API_BASE}/admin/lawsuits/tasks/${doomed.id}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const left = await t.app.db
      .selectFrom('task_comments')
      .select('id')
      .where('task_id', '=', doomed.id)
      .execute();
    expect(left).toEqual([]);
    const audited = await t.app.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('entity', '=', 'taskComments')
      .where('action', '=', 'delete')
      .where('entity_id', 'in', ids)
      .execute();
    expect(audited.map((r) => Number(r.entity_id)).sort((x, y) => x - y)).toEqual(ids);
    for (const id of ids)
      expect(live(doomed.id, 'commentDelete').map((p) => (p.message as { data: Row }).data.id)).toContain(id);
  });

  it('lets into a task’s channel only those who see the task, into a feed only its employee, into `tasks` only moderators', async () => {
    const hub = t.app.hub;
    const moderator = {
      ...authUser(a),
      id: admin.user.id,
      permissions: new Set([...TASK_WRITER, 'tasks.moderate']),
    };
    expect(await hub.mayJoin(authUser(b), taskChannel(task.id))).toBe(true);
    expect(await hub.mayJoin(authUser(a), taskChannel(task.id))).toBe(true);
    expect(await hub.mayJoin(authUser(outsider), taskChannel(task.id))).toBe(false);
    expect(await hub.mayJoin(moderator, taskChannel(task.id))).toBe(true);
    expect(await hub.mayJoin(authUser(outsider), taskChannel(999_999))).toBe(false);
    expect(await hub.mayJoin(authUser(b), taskEmployeeChannel(b.id))).toBe(true);
    expect(await hub.mayJoin(authUser(b), taskEmployeeChannel(a.id))).toBe(false);
    expect(await hub.mayJoin(authUser(b), 'tasks')).toBe(false);
    expect(await hub.mayJoin(moderator, 'tasks')).toBe(true);
    expect(await hub.mayJoin(moderator, 'taskComments')).toBe(false);
    expect(await hub.mayJoin(authUser(b, []), taskEmployeeChannel(b.id))).toBe(false);
    // Other channels are left to the other rules.
    expect(await hub.mayJoin(authUser(b), 'courts')).toBe(false);
  });
});
