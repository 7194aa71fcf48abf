import { API_BASE, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { TASKS_URL, blockedEmployee, createTask, member, type Member, type Row } from './testkit';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(120_000);

describe.each(dialects())('task reminders on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let a: Member;
  let b: Member;
  const ids: Record<string, number> = {};
  /** The clock every part of the app reads: Cairo is UTC+2 in November (18:00 there is 16:00Z). */
  const clock = { now: new Date('2026-11-23T08:00:00Z') };
  const at = (iso: string) => {
    clock.now = new Date(iso);
  };
  /** Task notifications stored, as `employee kind key`, sorted. */
  const sent = async () =>
    (
      await t.app.db
        .selectFrom('notifications')
        .select(['employee_id', 'kind', 'key'])
        .where('kind', 'in', ['taskDueTomorrow', 'taskOverdue'])
        .execute()
    )
      .map((r) => `${r.employee_id} ${r.kind} ${r.key}`)
      .sort();
  const taskNamed = (title: string, dueAt: string, extra: Record<string, unknown> = {}) =>
    createTask(t, a, { title, dueAt, assigneeIds: [b.id], ...extra });

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => clock.now } });
    admin = await t.login();
    const general = await t.app.inject({
      method: 'PUT',
      url: API_BASE + SYSTEM_SETTINGS_ROUTES.get.path,
      headers: admin.headers,
      payload: { timeZone: 'Africa/Cairo' },
    });
    if (general.statusCode !== 200) throw new Error(general.body);
    a = await member(t, admin);
    b = await member(t, admin);
    const banned = await blockedEmployee(t, admin, 'baned');
    // Tomorrow in Cairo is 2026-11-24, from 23rd 22:00Z to 24th 22:00Z.
    ids.tomorrowEarly = (await taskNamed('أول الغد', '2026-11-23T22:30:00.000Z')).id;
    ids.tomorrowLate = (await taskNamed('آخر الغد', '2026-11-24T21:30:00.000Z')).id;
    ids.dayAfter = (await taskNamed('بعد غد', '2026-11-24T22:30:00.000Z')).id;
    ids.today = (await taskNamed('اليوم', '2026-11-23T12:00:00.000Z')).id;
    const done = await taskNamed('منجزة', '2026-11-24T08:00:00.000Z');
    await t.app.inject({
      method: 'PATCH',
      url: `${TASKS_URL}/status/${done.id}`,
      headers: b.headers(),
      payload: { state: 'done' },
    });
    ids.done = done.id;
    // Assigned while active, banned afterwards: reminders skip them.
    const withBanned = await taskNamed('مع موقوف', '2026-11-24T09:00:00.000Z');
    ids.withBanned = withBanned.id;
    await t.app.db
      .insertInto('tasks_assignee_ids')
      .values({ owner_id: withBanned.id, ref_id: banned })
      .execute();
  });
  afterAll(() => t.close());

  it('reminds the evening before of open tasks due tomorrow, to their assignees, once', async () => {
    // The first poll plans the jobs; nothing is due at 10:00 in Cairo.
    expect(await t.app.scheduler.tick()).toEqual([]);
    at('2026-11-23T16:00:00Z');
    expect(await t.app.scheduler.tick()).toContain('taskReminders.dueTomorrow');
    const due = (id: number, iso: string) => `${b.id} taskDueTomorrow taskDueTomorrow:${id}:${iso}`;
    const evening = [
      due(ids.tomorrowEarly!, '2026-11-23T22:30:00.000Z'),
      due(ids.tomorrowLate!, '2026-11-24T21:30:00.000Z'),
      due(ids.withBanned!, '2026-11-24T09:00:00.000Z'),
    ].sort();
    expect(await sent()).toEqual(evening);
    const row = await t.app.db
      .selectFrom('notifications')
      .select(['params', 'link'])
      .where('key', '=', `taskDueTomorrow:${ids.tomorrowEarly}:2026-11-23T22:30:00.000Z`)
      .executeTakeFirstOrThrow();
    // The due time as the office reads it (Cairo), and the task's screen.
    expect([JSON.parse(String(row.params)), row.link]).toEqual([
      { title: 'أول الغد', dueAt: '2026-11-24 00:30' },
      `/admin/lawsuits/tasks/${ids.tomorrowEarly}`,
    ]);
    // A repeated run sends nothing twice.
    await t.app.db
      .updateTable('scheduled_jobs')
      .set({ next_run_at: '2026-11-23T16:00:00.000Z' })
      .where('name', '=', 'taskReminders.dueTomorrow')
      .execute();
    expect(await t.app.scheduler.tick()).toEqual(['taskReminders.dueTomorrow']);
    expect(await sent()).toEqual(evening);
  });

  it('reminds each morning of open overdue tasks, to assignees and creator, once per task and due time', async () => {
    const before = await sent();
    at('2026-11-24T05:00:00Z');
    expect(await t.app.scheduler.tick()).toContain('taskReminders.overdue');
    const overdue = (who: number, id: number, iso: string) => `${who} taskOverdue taskOverdue:${id}:${iso}`;
    const morning = [
      overdue(a.id, ids.today!, '2026-11-23T12:00:00.000Z'),
      overdue(b.id, ids.today!, '2026-11-23T12:00:00.000Z'),
      overdue(a.id, ids.tomorrowEarly!, '2026-11-23T22:30:00.000Z'),
      overdue(b.id, ids.tomorrowEarly!, '2026-11-23T22:30:00.000Z'),
    ];
    expect(await sent()).toEqual([...before, ...morning].sort());
    // The next morning: the same overdue tasks are not reminded of again; newly late ones are.
    at('2026-11-25T05:00:00Z');
    await t.app.scheduler.tick();
    const next = (await sent()).filter((s) => ![...before, ...morning].includes(s));
    expect(next).toEqual(
      [
        overdue(a.id, ids.tomorrowLate!, '2026-11-24T21:30:00.000Z'),
        overdue(b.id, ids.tomorrowLate!, '2026-11-24T21:30:00.000Z'),
        overdue(a.id, ids.dayAfter!, '2026-11-24T22:30:00.000Z'),
        overdue(b.id, ids.dayAfter!, '2026-11-24T22:30:00.000Z'),
        overdue(a.id, ids.withBanned!, '2026-11-24T09:00:00.000Z'),
        overdue(b.id, ids.withBanned!, '2026-11-24T09:00:00.000Z'),
      ].sort(),
    );
    // A closed task is never overdue.
    expect((await sent()).some((s) => s.includes(`:${ids.done}:`))).toBe(false);
  });

  it('reminds again of a task moved to a later due time', async () => {
    const task = (
      await t.app.inject({ method: 'GET', url: `${TASKS_URL}/${ids.today}`, headers: a.headers() })
    ).json().data as Row;
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `${TASKS_URL}/${task.id}`,
      headers: a.headers(),
      payload: { dueAt: '2026-11-25T10:00:00.000Z' },
    });
    expect(moved.statusCode).toBe(200);
    at('2026-11-26T05:00:00Z');
    await t.app.scheduler.tick();
    expect(await sent()).toEqual(
      expect.arrayContaining([`${b.id} taskOverdue taskOverdue:${task.id}:2026-11-25T10:00:00.000Z`]),
    );
  });
});
