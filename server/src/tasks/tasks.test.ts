import { API_BASE, taskChannel, taskEmployeeChannel, TASK_ROUTES, tasks } from '@mizan/contracts';
import { translate } from '../http/messages';
import { countRows, createRow, entityUrl } from '../test/fixtures';
import { createTestApp, type Session, type TestApp, splitDialects } from '../test/harness';
import {
  EXE,
  PDF,
  TASKS_URL,
  blockedEmployee,
  createTask,
  fileUrl,
  inDays,
  member,
  multipart,
  notificationsOf,
  taskUrl,
  type Member,
  type Row,
} from './testkit';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(120_000);

/**
 * Stored-XSS payloads a text attachment may carry: each must come back without anything that
 * runs (script, handler, script URL, data URL, style expression, foreign element).
 */
const XSS: string[] = [
  '<script>alert(1)</script><p>نص</p>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<p onclick="alert(1)" onmouseover="alert(2)">انقر</p>',
  '<a href="javascript:alert(1)">رابط</a>',
  '<a href="JaVaScRiPt:alert(1)">mixed case</a>',
  '<a href="jav&#x09;ascript:alert(1)">entity tab</a>',
  '<a href=" javascript:alert(1)">leading space</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<svg onload=alert(1)><circle r="5"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<p style="background:url(javascript:alert(1))">style url</p>',
  '<div style="width: expression(alert(1))">expression</div>',
  '<iframe src="https://evil.example"></iframe>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="https://evil.example"><button formaction="javascript:alert(1)">x</button></form>',
  '<input type="text" onfocus="alert(1)" autofocus>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<<script>script>alert(1)<</script>/script>',
  '<img src="x` `<script>alert(1)</script>"` `>',
  '<a href="https://ok.example" onclick="alert(1)" style="color:red">ok</a>',
];
const DANGEROUS = [
  /<script/i,
  /\son\w+\s*=/i,
  /javascript:/i,
  /vbscript:/i,
  /data:/i,
  /style\s*=/i,
  /expression\(/i,
  /<(svg|math|iframe|object|embed|form|img|meta|base|body|details|button)\b/i,
];

describe.each(splitDialects())('tasks on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let a: Member;
  let b: Member;
  let outsider: Member;
  let lawsuit: number;
  const adminH = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const count = (table: string) => countRows(t.app, table);
  /** Runs `fn` and checks it changed no task, audit entry or event. */
  async function writesNothing(fn: () => Promise<void>) {
    const before = [await count('tasks'), await count('audit_log'), t.published.length];
    await fn();
    expect([await count('tasks'), await count('audit_log'), t.published.length]).toEqual(before);
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    a = await member(t, admin);
    b = await member(t, admin);
    outsider = await member(t, admin);
    lawsuit = (await createRow(t.app, admin.headers, 'lawsuits')).id;
  });
  afterAll(() => t.close());

  it('creates a task as its creator, new, linked to a lawsuit; the assignee is notified, the creator not', async () => {
    const task = await createTask(t, a, { assigneeIds: [b.id], lawsuitId: lawsuit, createdById: null });
    expect(task).toMatchObject({ createdById: a.id, state: 'new', assigneeIds: [b.id], lawsuitId: lawsuit });
    expect(await notificationsOf(t, b.id)).toEqual(['taskAssigned']);
    expect(await notificationsOf(t, a.id)).toEqual([]);
    const row = await t.app.db
      .selectFrom('notifications')
      .select(['params', 'link'])
      .where('employee_id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(row.params))).toMatchObject({
      title: 'مراجعة صحيفة الدعوى',
      by: expect.any(String),
    });
    expect(row.link).toBe(`/admin/lawsuits/tasks/${task.id}`);
    // The creator's and the assignee's feeds and the task's channel hear of it.
    const channels = t.published
      .filter((p) => (p.message as { data?: { id?: number } }).data?.id === task.id)
      .map((p) => p.channel);
    expect(channels).toEqual(
      expect.arrayContaining([taskChannel(task.id), taskEmployeeChannel(a.id), taskEmployeeChannel(b.id)]),
    );
    expect(channels).not.toContain(taskEmployeeChannel(outsider.id));
  });

  it("tells the assignee in Arabic whose verb agrees with the assigner's gender; refuses a gender it does not know", async () => {
    const setGender = (gender: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: `${entityUrl('employees')}/${a.id}`,
        headers: adminH(),
        payload: { gender },
      });
    await writesNothing(async () => {
      const refused = await setGender('other');
      expect(refused.statusCode).toBe(422);
      expect(Object.keys(refused.json().errors)).toEqual(['gender']);
    });
    const bodyFor = async (gender: unknown) => {
      expect((await setGender(gender)).statusCode).toBe(200);
      const task = await createTask(t, a, { title: `تكليف ${String(gender)}`, assigneeIds: [b.id] });
      const row = await t.app.db
        .selectFrom('notifications')
        .select('params')
        .where('employee_id', '=', b.id)
        .where('link', '=', `/admin/lawsuits/tasks/${task.id}`)
        .executeTakeFirstOrThrow();
      const params = JSON.parse(String(row.params)) as Record<string, unknown>;
      return translate('ar', 'notifications.kinds.taskAssigned.body', { ...params, context: params.gender });
    };
    expect(await bodyFor('female')).toMatch(/^كلّفتك User \d+ بالمهمة «تكليف female»/);
    expect(await bodyFor('male')).toMatch(/^كلّفك User \d+ بالمهمة «تكليف male»/);
    expect(await bodyFor(null)).toMatch(/^كلّفك User \d+ بالمهمة/);
  });

  it('refuses a due time in the past on a new task (422), allows it when editing', async () => {
    await writesNothing(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: TASKS_URL,
        headers: a.headers(),
        payload: { title: 'متأخرة', priority: 'low', assigneeIds: [b.id], dueAt: inDays(-1) },
      });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['dueAt']);
    });
    const task = await createTask(t, a, { assigneeIds: [b.id] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: taskUrl(task.id),
      headers: a.headers(),
      payload: { dueAt: '2026-01-05T09:00:00+02:00', updatedAt: task.updatedAt },
    });
    expect(res.statusCode).toBe(200);
    // Stored as the UTC instant.
    expect(res.json().data.dueAt).toBe('2026-01-05T07:00:00.000Z');
  });

  it('refuses a banned or inactive assignee (422 naming them) on create and when added later', async () => {
    const inactive = await blockedEmployee(t, admin, 'status');
    const banned = await blockedEmployee(t, admin, 'baned');
    for (const blocked of [inactive, banned]) {
      await writesNothing(async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: TASKS_URL,
          headers: a.headers('ar'),
          payload: { title: 'x', priority: 'low', assigneeIds: [b.id, blocked], dueAt: inDays(1) },
        });
        expect(res.statusCode).toBe(422);
        expect(res.json().errors.assigneeIds[0]).toContain('موقوف');
      });
    }
    const task = await createTask(t, a, { assigneeIds: [b.id] });
    const added = await t.app.inject({
      method: 'PUT',
      url: TASKS_URL,
      headers: a.headers(),
      payload: { id: task.id, assigneeIds: [b.id, banned] },
    });
    expect(added.statusCode).toBe(422);
  });

  it('keeps state, text and the server fields out of the forms (422) and a hearing to its lawsuit', async () => {
    const task = await createTask(t, a, { assigneeIds: [b.id] });
    for (const payload of [
      { state: 'done' },
      { text: '<p>x</p>' },
      { createdById: b.id },
      { stateChangedById: a.id },
    ]) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: taskUrl(task.id),
        headers: a.headers(),
        payload,
      });
      // The engine's one message on the field sent (`setBy`; the text's is `create`).
      expect([res.statusCode, res.json().errors]).toEqual([
        422,
        { [Object.keys(payload)[0]!]: [expect.stringContaining('cannot be sent from a form')] },
      ]);
    }
    const forged = await t.app.inject({
      method: 'POST',
      url: TASKS_URL,
      headers: a.headers(),
      payload: { title: 'x', priority: 'low', assigneeIds: [b.id], dueAt: inDays(1), createdById: b.id },
    });
    expect([forged.statusCode, Object.keys(forged.json().errors)]).toEqual([422, ['createdById']]);
    const otherLawsuit = await createRow(t.app, admin.headers, 'lawsuits');
    const hearing = await createRow(t.app, admin.headers, 'sessions', {
      lawsuitId: otherLawsuit.id,
      date: '2026-12-01',
      time: '09:00',
      courtId: null,
      circuitId: null,
      judgeId: null,
      previousId: null,
      nextDate: null,
    });
    const wrong = await t.app.inject({
      method: 'POST',
      url: TASKS_URL,
      headers: a.headers(),
      payload: {
        title: 'x',
        priority: 'low',
        assigneeIds: [b.id],
        dueAt: inDays(1),
        lawsuitId: lawsuit,
        sessionId: hearing.id,
      },
    });
    expect([wrong.statusCode, Object.keys(wrong.json().errors)]).toEqual([422, ['sessionId']]);
    const right = await createTask(t, a, {
      assigneeIds: [b.id],
      lawsuitId: otherLawsuit.id,
      sessionId: hearing.id,
    });
    expect(right.sessionId).toBe(hearing.id);
  });

  it('shows a task to its assignees, its creator and moderators only: 404 and absent for others', async () => {
    const task = await createTask(t, a, { assigneeIds: [b.id], title: 'سرية' });
    for (const [who, status] of [
      [a, 200],
      [b, 200],
      [outsider, 404],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: taskUrl(task.id), headers: who.headers() });
      expect(res.statusCode).toBe(status);
    }
    expect((await t.app.inject({ method: 'GET', url: taskUrl(task.id), headers: adminH() })).statusCode).toBe(
      200,
    );
    const listOf = async (who: Record<string, string>, query = '') =>
      (await t.app.inject({ method: 'GET', url: `${TASKS_URL}?pageSize=100${query}`, headers: who })).json()
        .data as { items: Row[]; total: number };
    const outsiders = await listOf(outsider.headers());
    expect(outsiders).toMatchObject({ items: [], total: 0 });
    const mine = await listOf(b.headers(), `&assigneeIds=${b.id}`);
    expect(mine.items.map((r) => r.id)).toContain(task.id);
    expect(mine.total).toBe(mine.items.length);
    const created = await listOf(a.headers(), `&createdById=${a.id}`);
    expect(created.items.every((r) => r.createdById === a.id)).toBe(true);
    expect((await listOf(adminH())).total).toBeGreaterThanOrEqual(created.total);
    // Writes out of scope are 404 too, and change nothing.
    await writesNothing(async () => {
      for (const [method, url, payload] of [
        ['PATCH', taskUrl(task.id), { title: 'x' }],
        ['PATCH', `${TASKS_URL}/status/${task.id}`, { state: 'done' }],
        ['PATCH', `${TASKS_URL}/update/text/${task.id}`, { text: 'x', updatedAt: task.updatedAt }],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: outsider.headers(), payload });
        expect([url, res.statusCode]).toEqual([url, 404]);
      }
    });
  });

  it('moves the state by PATCH /status/{id}, recording who and when; tells the others; 409 when stale', async () => {
    const task = await createTask(t, a, { assigneeIds: [b.id] });
    const before = await notificationsOf(t, a.id);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${TASKS_URL}/status/${task.id}`,
      headers: b.headers(),
      payload: { state: 'inProgress', updatedAt: task.updatedAt },
    });
    expect(res.statusCode).toBe(200);
    const moved = res.json().data as Row;
    expect(moved).toMatchObject({ state: 'inProgress', stateChangedById: b.id });
    expect(Date.parse(String(moved.stateChangedAt))).toBeGreaterThan(Date.now() - 60_000);
    expect(await notificationsOf(t, a.id)).toEqual([...before, 'taskState']);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'employee_id'])
      .where('entity', '=', 'tasks')
      .where('entity_id', '=', task.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect([audit.action, Number(audit.employee_id)]).toEqual(['status', b.id]);
    await writesNothing(async () => {
      const stale = await t.app.inject({
        method: 'PATCH',
        url: `${TASKS_URL}/status/${task.id}`,
        headers: a.headers(),
        payload: { state: 'done', updatedAt: task.updatedAt },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'stale', current: { state: 'inProgress' } });
      const bad = await t.app.inject({
        method: 'PATCH',
        url: `${TASKS_URL}/status/${task.id}`,
        headers: a.headers(),
        payload: { state: 'finished' },
      });
      expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['state']]);
    });
    const secretaryLike = await member(t, admin, ['tasks.view', 'tasks.update']);
    const denied = await t.app.inject({
      method: 'PATCH',
      url: `${TASKS_URL}/status/${task.id}`,
      headers: secretaryLike.headers(),
      payload: { state: 'done' },
    });
    expect(denied.statusCode).toBe(403);
  });

  it('stores every XSS payload of the text attachment sanitised, keeping the editor’s markup', async () => {
    let task = await createTask(t, a, { assigneeIds: [b.id] });
    for (const payload of XSS) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${TASKS_URL}/update/text/${task.id}`,
        headers: a.headers(),
        payload: { text: payload, updatedAt: task.updatedAt },
      });
      expect([payload, res.statusCode]).toEqual([payload, 200]);
      task = res.json().data;
      const stored = await t.app.db
        .selectFrom('tasks')
        .select('text')
        .where('id', '=', task.id)
        .executeTakeFirstOrThrow();
      for (const pattern of DANGEROUS)
        expect([payload, pattern.test(String(stored.text ?? ''))]).toEqual([payload, false]);
      expect(stored.text ?? null).toBe(task.text);
    }
    const note =
      '<h2 dir="rtl">خطة الدفاع</h2><p><strong>أولًا</strong> و<em>ثانيًا</em></p>' +
      '<ul data-type="taskList"><li data-type="taskItem" data-checked="true"><label><input type="checkbox" checked="checked" /></label><div><p>تم</p></div></li></ul>' +
      '<p><a href="https://example.com/law" target="_blank" rel="noopener noreferrer nofollow">مرجع</a></p>';
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${TASKS_URL}/update/text/${task.id}`,
      headers: a.headers(),
      payload: { text: note, updatedAt: task.updatedAt },
    });
    expect(res.json().data.text).toBe(note);
  });

  it('saves the text only with the version read: 422 without it, 409 with the current text when stale', async () => {
    const task = await createTask(t, a, { assigneeIds: [b.id] });
    const url = `${TASKS_URL}/update/text/${task.id}`;
    await writesNothing(async () => {
      const missing = await t.app.inject({
        method: 'PATCH',
        url,
        headers: a.headers(),
        payload: { text: '<p>x</p>' },
      });
      expect([missing.statusCode, Object.keys(missing.json().errors)]).toEqual([422, ['updatedAt']]);
    });
    // Both open the note at the same version; A saves first.
    const first = await t.app.inject({
      method: 'PATCH',
      url,
      headers: a.headers(),
      payload: { text: '<p>نسخة أ</p>', updatedAt: task.updatedAt },
    });
    expect(first.statusCode).toBe(200);
    await writesNothing(async () => {
      const second = await t.app.inject({
        method: 'PATCH',
        url,
        headers: b.headers(),
        payload: { text: '<p>نسخة ب</p>', updatedAt: task.updatedAt },
      });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({
        code: 'stale',
        current: { text: '<p>نسخة أ</p>', updatedAt: first.json().data.updatedAt },
        changedBy: { id: a.id },
      });
    });
    const merged = await t.app.inject({
      method: 'PATCH',
      url,
      headers: b.headers(),
      payload: { text: '<p>نسخة أ</p><p>نسخة ب</p>', updatedAt: first.json().data.updatedAt },
    });
    expect(merged.json().data.text).toBe('<p>نسخة أ</p><p>نسخة ب</p>');
    const events = t.published.filter(
      (p) => p.channel === taskChannel(task.id) && (p.message as { action: string }).action === 'updateText',
    );
    expect(events).toHaveLength(2);
  });

  it('adds files by POST /{taskId}/attachments, readable by those who see the task, removable one by one', async () => {
    const task = await createTask(t, a, { assigneeIds: [b.id] });
    const url = API_BASE + TASK_ROUTES.addFiles.path.replace(':id', String(task.id));
    const body = multipart({ updatedAt: task.updatedAt }, [
      { data: PDF, filename: 'مذكرة.pdf', type: 'application/pdf' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...b.headers(), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    const files = res.json().data.files as { id: number; originalName: string }[];
    expect(files.map((f) => f.originalName)).toEqual(['مذكرة.pdf']);
    for (const [who, status] of [
      [a.headers(), 200],
      [b.headers(), 200],
      [outsider.headers(), 403],
    ] as const)
      expect(
        (await t.app.inject({ method: 'GET', url: fileUrl(files[0]!.id), headers: who })).statusCode,
      ).toBe(status);

    await writesNothing(async () => {
      const exe = multipart({}, [{ data: EXE, filename: 'x.pdf', type: 'application/pdf' }]);
      const refused = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...b.headers(), ...exe.headers },
        payload: exe.payload,
      });
      expect(refused.statusCode).toBe(415);
      const none = multipart({ updatedAt: task.updatedAt });
      const empty = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...b.headers(), ...none.headers },
        payload: none.payload,
      });
      expect([empty.statusCode, Object.keys(empty.json().errors)]).toEqual([422, ['files']]);
      const json = await t.app.inject({ method: 'POST', url, headers: b.headers(), payload: {} });
      expect(json.statusCode).toBe(415);
      const again = multipart({}, [{ data: PDF, filename: 'y.pdf', type: 'application/pdf' }]);
      const hidden = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...outsider.headers(), ...again.headers },
        payload: again.payload,
      });
      expect(hidden.statusCode).toBe(404);
      const stale = multipart({ updatedAt: task.updatedAt }, [
        { data: PDF, filename: 'z.pdf', type: 'application/pdf' },
      ]);
      const old = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...b.headers(), ...stale.headers },
        payload: stale.payload,
      });
      expect(old.statusCode).toBe(409);
    });
    const removed = await t.app.inject({
      method: 'DELETE',
      url:
        API_BASE +
        (tasks.path + tasks.fileDeletePath!)
          .replace(':ownerId', String(task.id))
          .replace(':fileId', String(files[0]!.id)),
      headers: a.headers(),
    });
    expect([removed.statusCode, removed.json().data.files]).toEqual([200, []]);
  });

  it('lists overdue tasks and those due within N days, open ones only', async () => {
    const late = await createTask(t, a, { assigneeIds: [b.id], title: 'late' });
    await t.app.inject({
      method: 'PATCH',
      url: taskUrl(late.id),
      headers: a.headers(),
      payload: { dueAt: inDays(-2) },
    });
    const lateDone = await createTask(t, a, { assigneeIds: [b.id], title: 'late but done' });
    await t.app.inject({
      method: 'PATCH',
      url: taskUrl(lateDone.id),
      headers: a.headers(),
      payload: { dueAt: inDays(-2) },
    });
    await t.app.inject({
      method: 'PATCH',
      url: `${TASKS_URL}/status/${lateDone.id}`,
      headers: a.headers(),
      payload: { state: 'done' },
    });
    const soon = await createTask(t, a, { assigneeIds: [b.id], dueAt: inDays(2), title: 'soon' });
    const later = await createTask(t, a, { assigneeIds: [b.id], dueAt: inDays(30), title: 'later' });
    const ids = async (query: string) =>
      (
        (
          await t.app.inject({
            method: 'GET',
            url: `${TASKS_URL}?pageSize=100&${query}`,
            headers: b.headers(),
          })
        ).json().data.items as Row[]
      ).map((r) => r.id);
    const overdue = await ids('overdue=true');
    expect(overdue).toContain(late.id);
    expect(overdue).not.toContain(lateDone.id);
    expect(overdue).not.toContain(soon.id);
    const notOverdue = await ids('overdue=false');
    expect(notOverdue).toEqual(expect.arrayContaining([lateDone.id, soon.id, later.id]));
    expect(notOverdue).not.toContain(late.id);
    const week = await ids('dueWithinDays=7');
    expect(week).toContain(soon.id);
    expect(week).not.toContain(later.id);
    expect(week).not.toContain(late.id);
    const bad = await t.app.inject({
      method: 'GET',
      url: `${TASKS_URL}?dueWithinDays=999`,
      headers: b.headers(),
    });
    expect(bad.statusCode).toBe(422);
  });
});
