import { API_BASE, NOTIFICATION_ROUTES, DEADLINE_ROUTES } from '@mizan/contracts';
import ICAL from 'ical.js';
import { createRow, entityUrl, nextSeq } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

jest.setTimeout(180_000);

const TOKEN = API_BASE + DEADLINE_ROUTES.feedToken.path;

interface Parsed {
  uid: string;
  summary: string;
  location: string | null;
  start: string;
  allDay: boolean;
}

/** The events of an iCalendar text, read back by a real parser, by start. */
function parse(text: string): { name: string; events: Parsed[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((v) => {
    const event = new ICAL.Event(v);
    return {
      uid: event.uid,
      summary: event.summary,
      location: event.location || null,
      start: event.startDate.isDate ? event.startDate.toString() : event.startDate.toJSDate().toISOString(),
      allDay: event.startDate.isDate,
    };
  });
  return {
    name: String(calendar.getFirstPropertyValue('x-wr-calname')),
    events: events.sort((a, b) => a.start.localeCompare(b.start)),
  };
}

describe.each(dialects())('calendar feeds on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const clock = { now: new Date('2026-03-11T08:00:00Z') };
  const ids: Record<string, number> = {};
  /** The path of a feed URL (the test app answers on any origin). */
  const pathOf = (url: string) => new URL(url).pathname;
  const feed = (url: string) => t.app.inject({ method: 'GET', url: pathOf(url) });

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => clock.now } });
    admin = await t.login();
    const court = await createRow(t.app, admin.headers, 'courts', { name: 'محكمة الرياض العامة' });
    const circuit = await createRow(t.app, admin.headers, 'circuits', {
      name: 'الدائرة الثالثة',
      courtId: court.id,
    });
    const other = await createRow(t.app, admin.headers, 'employees');
    const lawsuit = async (lawyerIds: number[]) =>
      createRow(t.app, admin.headers, 'lawsuits', {
        fileNumber: `F-${nextSeq()}`,
        filingDate: '2026-01-01',
        courtId: court.id,
        circuitId: circuit.id,
        judgeId: null,
        lawyerIds,
      });
    const mine = await lawsuit([admin.user.id]);
    const theirs = await lawsuit([other.id]);
    ids.mine = mine.id;
    const hearing = (lawsuitId: number, lawyerId: number, date: string, time: string | null) =>
      createRow(t.app, admin.headers, 'sessions', {
        lawsuitId,
        date,
        time,
        lawyerId,
        courtId: null,
        circuitId: null,
        judgeId: null,
        decision: null,
        judgment: false,
        servedOn: null,
        nextDate: null,
        previousId: null,
      });
    ids.hearing = (await hearing(mine.id, other.id, '2026-03-15', '09:30')).id;
    ids.theirs = (await hearing(theirs.id, other.id, '2026-03-16', null)).id;
    ids.deadline = (
      await createRow(t.app, admin.headers, 'deadlines', {
        lawsuitId: mine.id,
        action: 'appeal',
        startDate: '2026-03-01',
        dueDate: '2026-03-31',
        ruleId: null,
        lawyerId: admin.user.id,
        sessionId: null,
      })
    ).id;
    ids.task = (
      await createRow(t.app, admin.headers, 'tasks', {
        title: 'إعداد صحيفة الاستئناف',
        assigneeIds: [admin.user.id],
        dueAt: '2026-03-20T10:00:00.000Z',
        lawsuitId: null,
        sessionId: null,
        customerId: null,
      })
    ).id;
  });
  afterAll(async () => t.close());

  it('serves the hearings, deadlines and tasks of its employee, court and circuit as location, in their language', async () => {
    const made = await t.app.inject({ method: 'POST', url: TOKEN, headers: admin.headers });
    expect(made.statusCode).toBe(200);
    const { url, officeUrl } = made.json().data as { url: string; officeUrl: string };
    expect(url).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/);
    expect(officeUrl).toMatch(/\.ics$/);

    const res = await feed(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const own = parse(res.body);
    expect(own.events).toEqual([
      {
        uid: expect.stringMatching(new RegExp(`^hearing-${ids.hearing}@`)),
        summary: expect.stringContaining('جلسة الدعوى F-'),
        location: 'محكمة الرياض العامة — الدائرة الثالثة',
        // 09:30 in Cairo (UTC+2 in March).
        start: '2026-03-15T07:30:00.000Z',
        allDay: false,
      },
      {
        uid: expect.stringMatching(new RegExp(`^task-${ids.task}@`)),
        summary: 'مهمة: إعداد صحيفة الاستئناف',
        location: null,
        start: '2026-03-20T10:00:00.000Z',
        allDay: false,
      },
      {
        uid: expect.stringMatching(new RegExp(`^deadline-${ids.deadline}@`)),
        summary: expect.stringMatching(/^آخر موعد استئناف: الدعوى F-/),
        location: 'محكمة الرياض العامة',
        start: '2026-03-31',
        allDay: true,
      },
    ]);

    // The office feed: every hearing, the other lawyer's too (and those the fixtures made); no tasks.
    const office = parse((await feed(officeUrl)).body).events.map((e) => e.uid.split('@')[0]);
    expect(office).toEqual(
      expect.arrayContaining([`hearing-${ids.hearing}`, `hearing-${ids.theirs}`, `deadline-${ids.deadline}`]),
    );
    expect(office.filter((uid) => uid!.startsWith('task-'))).toEqual([]);
    expect(own.events.map((e) => e.uid)).not.toContain(expect.stringMatching(`hearing-${ids.theirs}@`));

    // The employee reads the app in English now: the titles follow.
    await t.app.inject({
      method: 'GET',
      url: API_BASE + NOTIFICATION_ROUTES.unreadCount.path,
      headers: { ...admin.headers, 'accept-language': 'en' },
    });
    const english = parse((await feed(url)).body);
    expect(english.events.map((e) => e.summary)).toEqual([
      expect.stringMatching(/^Hearing in case F-/),
      'Task: إعداد صحيفة الاستئناف',
      expect.stringMatching(/^Appeal due: case F-/),
    ]);
    expect(english.name).toBe('My hearings and deadlines — Mizan');
  });

  it('reads nothing else with its token, and stops working when renewed or revoked (404)', async () => {
    const first = (await t.app.inject({ method: 'POST', url: TOKEN, headers: admin.headers })).json().data
      .url as string;
    const token = pathOf(first)
      .split('/')
      .pop()!
      .replace(/\.ics$/, '');
    // The feed token is no sign-in token.
    const asBearer = await t.app.inject({
      method: 'GET',
      url: entityUrl('lawsuits'),
      headers: { ...admin.headers, authorization: `Bearer ${token}` },
    });
    expect(asBearer.statusCode).toBe(401);

    const second = (await t.app.inject({ method: 'POST', url: TOKEN, headers: admin.headers })).json().data
      .url as string;
    expect(second).not.toBe(first);
    expect((await feed(first)).statusCode).toBe(404);
    expect((await feed(second)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: TOKEN, headers: admin.headers })).statusCode).toBe(
      200,
    );
    expect((await feed(second)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/calendar/nothing.ics` })).statusCode).toBe(
      404,
    );
    // A token of 100 characters is looked up; a longer one is refused by the router (414).
    const feedOf = (token: string) =>
      t.app.inject({ method: 'GET', url: `${API_BASE}/calendar/${token}.ics` });
    expect((await feedOf('a'.repeat(100))).statusCode).toBe(404);
    expect((await feedOf('a'.repeat(101))).statusCode).toBe(414);
    // Making one needs a signed-in employee.
    expect((await t.app.inject({ method: 'POST', url: TOKEN })).statusCode).toBe(401);
  });
});
