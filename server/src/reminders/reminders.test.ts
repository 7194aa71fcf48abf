import { API_BASE, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { postponedFrom } from '../legal/testing';
import { createRow, nextSeq } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

// Each lawsuit, hearing and power of attorney is made through the API with every reference it takes.
jest.setTimeout(180_000);

const GENERAL = API_BASE + SYSTEM_SETTINGS_ROUTES.get.path;
const MORNING_JOBS = [
  'reminders.deadlineDue',
  'reminders.hearingNoDecision',
  'reminders.hearingToday',
  'reminders.procurationExpiring',
  'taskReminders.overdue',
  // The clients' messages of deadlines coming up (the messages module's sender).
  'messages.deadlineApproaching',
];
/** The evening jobs: tomorrow's hearings, and the tasks module's tasks due tomorrow. */
const EVENING_JOBS = ['reminders.hearingTomorrow', 'taskReminders.dueTomorrow'];
/** The app's nightly jobs: the backup (02:00 in the office) and the files sweep (03:30), due by the morning run too. */
const NIGHT_JOBS = ['backups.daily', 'files.sweep'];

describe.each(dialects())('reminders on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  /** The clock every instance reads: Cairo is UTC+2 in November (18:00 there is 16:00Z). */
  const clock = { now: new Date('2026-11-23T08:00:00Z') };
  const at = (iso: string) => {
    clock.now = new Date(iso);
  };
  const others: FastifyInstance[] = [];
  /** Another server instance on the same database (a restart, or a second instance). */
  const instance = async () => {
    const app = await buildApp(t.config, { clock: () => clock.now });
    others.push(app);
    return app;
  };
  const ids: Record<string, number> = {};

  /** Every notification stored, as `employee kind key`, sorted. */
  const sent = async () =>
    (
      await t.app.db
        .selectFrom('notifications')
        .select(['employee_id', 'kind', 'key'])
        .orderBy('id')
        .execute()
    )
      .map((r) => `${r.employee_id} ${r.kind} ${r.key}`)
      .sort();
  const names = (list: string[]) => [...list].sort();

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => clock.now } });
    admin = await t.login();
    const employee = async () => (await createRow(t.app, admin.headers, 'employees')).id;
    ids.attending = await employee();
    ids.responsibleA = await employee();
    ids.responsibleB = await employee();
    ids.banned = await employee();
    await t.app.db
      .updateTable('employees')
      .set({ baned: dialect === 'postgres' ? true : 1 })
      .where('id', '=', ids.banned)
      .execute();
    const court = (await createRow(t.app, admin.headers, 'courts', { name: 'محكمة شمال القاهرة' })).id;
    const lawsuit = await createRow(t.app, admin.headers, 'lawsuits', {
      fileNumber: `R-${nextSeq()}`,
      filingDate: '2026-01-01',
      courtId: court,
      circuitId: null,
      judgeId: null,
      lawyerIds: [ids.responsibleA, ids.responsibleB, ids.banned],
    });
    ids.lawsuit = lawsuit.id;
    const hearing = async (date: string, lawyerId: number, time: string | null = '09:30') =>
      createRow(t.app, admin.headers, 'sessions', {
        lawsuitId: lawsuit.id,
        date,
        time,
        lawyerId,
        courtId: null,
        circuitId: null,
        judgeId: null,
        decision: null,
        nextDate: null,
        previousId: null,
      });
    ids.tomorrow = (await hearing('2026-11-24', ids.attending)).id;
    // Attended by one of the responsible lawyers: reminded once, not twice.
    ids.tomorrowByResponsible = (await hearing('2026-11-24', ids.responsibleA, null)).id;
    ids.undecided = (await hearing('2026-11-20', ids.attending)).id;
    const postponed = await hearing('2026-11-18', ids.attending);
    ids.postponed = postponed.id;
    // Postponing records a decision and creates the next hearing (the 19th): only that one is undecided.
    ids.afterPostponed = (await postponedFrom(t.app, admin.headers, postponed)).id;

    const procuration = async (expiryDate: string, lawyerIds: number[]) =>
      (
        await createRow(t.app, admin.headers, 'procurations', {
          number: `P-${nextSeq()}`,
          year: 2026,
          issueDate: '2026-01-01',
          expiryDate,
          lawyerIds,
        })
      ).id;
    ids.in20days = await procuration('2026-12-13', [ids.attending]);
    ids.in3days = await procuration('2026-11-26', [ids.responsibleA, ids.banned]);
    ids.later = await procuration('2027-03-01', [ids.attending]);
  });
  afterAll(async () => {
    for (const app of others) await app.close();
    await t.close();
  });

  it('sends each reminder once: at its time, not again after a restart or a repeated run', async () => {
    const { attending: L1, responsibleA: L2, responsibleB: L3 } = ids;
    at('2026-11-23T08:00:00Z');
    expect(await t.app.scheduler.tick()).toEqual([]);
    expect(await sent()).toEqual([]);

    // 18:00 in Cairo: tomorrow's hearings, to the attending and responsible lawyers (the banned one left out).
    at('2026-11-23T16:00:00Z');
    expect(names(await t.app.scheduler.tick())).toEqual(EVENING_JOBS);
    const tomorrow = (id: number) => `hearingTomorrow:${id}:2026-11-24`;
    const evening = [
      `${L1} hearingTomorrow ${tomorrow(ids.tomorrow)}`,
      `${L2} hearingTomorrow ${tomorrow(ids.tomorrow)}`,
      `${L3} hearingTomorrow ${tomorrow(ids.tomorrow)}`,
      `${L2} hearingTomorrow ${tomorrow(ids.tomorrowByResponsible)}`,
      `${L3} hearingTomorrow ${tomorrow(ids.tomorrowByResponsible)}`,
    ].sort();
    expect(await sent()).toEqual(evening);
    const row = await t.app.db
      .selectFrom('notifications')
      .select(['params', 'link'])
      .where('employee_id', '=', L1)
      .executeTakeFirstOrThrow();
    expect([JSON.parse(String(row.params)), row.link]).toEqual([
      {
        fileNumber: expect.stringMatching(/^R-/),
        date: '2026-11-24',
        time: '09:30',
        court: 'محكمة شمال القاهرة',
      },
      `/admin/lawsuits/sessions/${ids.tomorrow}`,
    ]);

    // A restart: the new instance finds the run done.
    at('2026-11-23T16:05:00Z');
    const restarted = await instance();
    expect(await restarted.scheduler.tick()).toEqual([]);
    // A run cut short before it was recorded runs again, and sends nothing twice.
    await t.app.db
      .updateTable('scheduled_jobs')
      .set({ next_run_at: '2026-11-23T16:00:00.000Z' })
      .where('name', '=', 'reminders.hearingTomorrow')
      .execute();
    expect(await restarted.scheduler.tick()).toEqual(['reminders.hearingTomorrow']);
    expect(await sent()).toEqual(evening);

    // 07:00 in Cairo, two instances polling together: each morning job runs in one of them.
    at('2026-11-24T05:00:00Z');
    const [a, b] = await Promise.all([t.app.scheduler.tick(), restarted.scheduler.tick()]);
    expect(names([...a, ...b])).toEqual([...NIGHT_JOBS, ...MORNING_JOBS].sort());
    const morning = [
      `${L1} hearingToday hearingToday:${ids.tomorrow}:2026-11-24`,
      `${L2} hearingToday hearingToday:${ids.tomorrow}:2026-11-24`,
      `${L3} hearingToday hearingToday:${ids.tomorrow}:2026-11-24`,
      `${L2} hearingToday hearingToday:${ids.tomorrowByResponsible}:2026-11-24`,
      `${L3} hearingToday hearingToday:${ids.tomorrowByResponsible}:2026-11-24`,
      // Its lawyers: the attending lawyer and the responsible ones.
      `${L1} hearingNoDecision hearingNoDecision:${ids.undecided}:2026-11-24`,
      `${L2} hearingNoDecision hearingNoDecision:${ids.undecided}:2026-11-24`,
      `${L3} hearingNoDecision hearingNoDecision:${ids.undecided}:2026-11-24`,
      `${L1} hearingNoDecision hearingNoDecision:${ids.afterPostponed}:2026-11-24`,
      `${L2} hearingNoDecision hearingNoDecision:${ids.afterPostponed}:2026-11-24`,
      `${L3} hearingNoDecision hearingNoDecision:${ids.afterPostponed}:2026-11-24`,
      `${L1} procurationExpiring procurationExpiring:${ids.in20days}:30:2026-12-13`,
      `${L2} procurationExpiring procurationExpiring:${ids.in3days}:7:2026-11-26`,
    ];
    expect(await sent()).toEqual([...evening, ...morning].sort());
    const expiring = await t.app.db
      .selectFrom('notifications')
      .select(['params', 'link'])
      .where('key', '=', `procurationExpiring:${ids.in3days}:7:2026-11-26`)
      .executeTakeFirstOrThrow();
    expect([JSON.parse(String(expiring.params)), expiring.link]).toEqual([
      { number: expect.stringMatching(/^P-/), year: 2026, expiresOn: '2026-11-26', days: 2 },
      `/admin/customers/procurations/${ids.in3days}`,
    ]);
    expect(await t.app.scheduler.tick()).toEqual([]);

    // Down from the 24th to the morning of December 7th: each morning job runs once. The hearings
    // without a decision (the 24th's now too) are reminded of for today only; the 20-day power of
    // attorney has reached its 7-day threshold.
    at('2026-12-07T06:00:00Z');
    expect(names(await t.app.scheduler.tick())).toEqual(
      [...NIGHT_JOBS, ...MORNING_JOBS, ...EVENING_JOBS].sort(),
    );
    expect(await t.app.scheduler.tick()).toEqual([]);
    const after = await sent();
    expect(after.filter((s) => !evening.includes(s) && !morning.includes(s))).toEqual(
      [
        ...[ids.tomorrow, ids.tomorrowByResponsible, ids.undecided].flatMap((id) => [
          `${L2} hearingNoDecision hearingNoDecision:${id}:2026-12-07`,
          `${L3} hearingNoDecision hearingNoDecision:${id}:2026-12-07`,
        ]),
        // The attending lawyer too, where the hearing has one.
        ...[ids.tomorrow, ids.undecided, ids.afterPostponed].map(
          (id) => `${L1} hearingNoDecision hearingNoDecision:${id}:2026-12-07`,
        ),
        `${L2} hearingNoDecision hearingNoDecision:${ids.afterPostponed}:2026-12-07`,
        `${L3} hearingNoDecision hearingNoDecision:${ids.afterPostponed}:2026-12-07`,
        `${L1} procurationExpiring procurationExpiring:${ids.in20days}:7:2026-12-13`,
      ].sort(),
    );
  });

  it('takes its times and thresholds from the system settings, checked (422 on a bad time or list)', async () => {
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: GENERAL, headers: admin.headers, payload });
    const got = (await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers })).json().data;
    expect([got.reminderEveningTime, got.reminderMorningTime, got.procurationReminderDays]).toEqual([
      '18:00',
      '07:00',
      [30, 7],
    ]);

    for (const [field, value] of [
      ['reminderEveningTime', '24:00'],
      ['reminderMorningTime', '7:00'],
      ['reminderEveningTime', 1800],
      ['procurationReminderDays', [0]],
      ['procurationReminderDays', [366]],
      ['procurationReminderDays', [1, 2, 3, 4, 5, 6]],
      ['procurationReminderDays', '30'],
    ] as const) {
      const res = await put({ [field]: value });
      expect([field, res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([field, 422, [field]]);
    }

    const saved = await put({ reminderEveningTime: '١٩:٣٠', procurationReminderDays: [7, 60, 7] });
    expect(saved.statusCode).toBe(200);
    expect([saved.json().data.reminderEveningTime, saved.json().data.procurationReminderDays]).toEqual([
      '19:30',
      [60, 7],
    ]);

    // The evening run still to come moves to the new time (19:30 in Cairo) at the next poll.
    at('2026-12-07T12:00:00Z');
    await t.app.scheduler.tick();
    const job = await t.app.db
      .selectFrom('scheduled_jobs')
      .select('next_run_at')
      .where('name', '=', 'reminders.hearingTomorrow')
      .executeTakeFirstOrThrow();
    expect(new Date(job.next_run_at).toISOString()).toBe('2026-12-07T17:30:00.000Z');
  });
});
