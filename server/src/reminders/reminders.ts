import { getEntity, type Entity, type Fields } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { toBoolean } from '../db';
import { joinTableName } from '../db/migrations';
import { officeToday } from '../engine/today';
import { notify, type NotifyInput } from '../notifications/send';
import { readSettings } from '../system';
import type { JobRun } from '../scheduler';

const table = (name: string) => getEntity(name).table;
const SESSIONS = table('sessions');
const LAWSUITS = table('lawsuits');
const PROCURATIONS = table('procurations');
const COURTS = table('courts');
const EMPLOYEES = table('employees');
const LAWSUIT_LAWYERS = joinTableName(getEntity('lawsuits') as Entity<Fields>, 'lawyerIds');
const PROCURATION_LAWYERS = joinTableName(getEntity('procurations') as Entity<Fields>, 'lawyerIds');

const sessionLink = (id: number) => `${getEntity('sessions').path}/${id}`;
const procurationLink = (id: number) => `${getEntity('procurations').path}/${id}`;

/** A hearing as its reminders need it. */
interface Hearing {
  id: number;
  lawsuitId: number;
  date: string;
  time: string | null;
  lawyerId: number | null;
  fileNumber: string;
  court: string;
}

/** Whole calendar days from `from` to `to` (both `YYYY-MM-DD`). */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** The ids of `ids` that belong to employees who may sign in (active, not banned), each once. */
export async function activeEmployees(app: FastifyInstance, ids: Iterable<number>): Promise<Set<number>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Set();
  const rows = await app.db
    .selectFrom(EMPLOYEES)
    .select(['id', 'status', 'baned'])
    .where('id', 'in', wanted)
    .execute();
  return new Set(rows.filter((r) => toBoolean(r.status) && !toBoolean(r.baned)).map((r) => Number(r.id)));
}

/** Each lawsuit's responsible lawyers. */
export async function responsibleLawyers(
  app: FastifyInstance,
  lawsuitIds: number[],
): Promise<Map<number, number[]>> {
  const lawyers = new Map<number, number[]>();
  if (lawsuitIds.length === 0) return lawyers;
  const rows = await app.db
    .selectFrom(LAWSUIT_LAWYERS)
    .select(['owner_id', 'ref_id'])
    .where('owner_id', 'in', [...new Set(lawsuitIds)])
    .execute();
  for (const row of rows) {
    const list = lawyers.get(Number(row.owner_id)) ?? [];
    list.push(Number(row.ref_id));
    lawyers.set(Number(row.owner_id), list);
  }
  return lawyers;
}

/** Hearings of active lawsuits chosen by `where`, with their file number and court (the hearing's, else the lawsuit's). */
async function hearings(
  app: FastifyInstance,
  where: (query: ReturnType<typeof hearingQuery>) => ReturnType<typeof hearingQuery>,
): Promise<Hearing[]> {
  const rows = await where(hearingQuery(app)).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    lawsuitId: Number(r.lawsuit_id),
    date: String(r.date),
    time: r.time ? String(r.time) : null,
    lawyerId: r.lawyer_id === null ? null : Number(r.lawyer_id),
    fileNumber: String(r.file_number ?? ''),
    court: String(r.court ?? ''),
  }));
}

function hearingQuery(app: FastifyInstance) {
  return app.db
    .selectFrom(`${SESSIONS} as s`)
    .innerJoin(`${LAWSUITS} as l`, 'l.id', 's.lawsuit_id')
    .leftJoin(`${COURTS} as c`, (join) =>
      join.on((eb) => eb('c.id', '=', eb.fn.coalesce('s.court_id', 'l.court_id'))),
    )
    .select(['s.id', 's.lawsuit_id', 's.date', 's.time', 's.lawyer_id', 'l.file_number', 'c.name as court'])
    .where('l.state', '=', 'active')
    .orderBy('s.date')
    .orderBy('s.id');
}

/**
 * Notifies each hearing's recipients (`recipients(hearing, responsible)`: employee ids, repeats
 * allowed), active employees only, one row per employee and key. Answers how many were stored.
 */
async function notifyHearings(
  app: FastifyInstance,
  list: Hearing[],
  recipients: (hearing: Hearing, responsible: number[]) => number[],
  message: (hearing: Hearing) => Omit<NotifyInput, 'employeeId'>,
): Promise<number> {
  const responsible = await responsibleLawyers(
    app,
    list.map((h) => h.lawsuitId),
  );
  const perHearing = list.map((h) => ({
    hearing: h,
    to: new Set(recipients(h, responsible.get(h.lawsuitId) ?? [])),
  }));
  const active = await activeEmployees(
    app,
    perHearing.flatMap((p) => [...p.to]),
  );
  const inputs = perHearing.flatMap(({ hearing, to }) =>
    [...to].filter((id) => active.has(id)).map((employeeId) => ({ employeeId, ...message(hearing) })),
  );
  return notify(app, app.db, inputs);
}

/** The attending lawyer and the lawsuit's responsible lawyers. */
const attendingAndResponsible = (hearing: Hearing, responsible: number[]) => [
  ...(hearing.lawyerId === null ? [] : [hearing.lawyerId]),
  ...responsible,
];

const hearingMessage =
  (kind: 'hearingTomorrow' | 'hearingToday') =>
  (h: Hearing): Omit<NotifyInput, 'employeeId'> => ({
    kind,
    params: { fileNumber: h.fileNumber, date: h.date, time: h.time ?? '', court: h.court },
    link: sessionLink(h.id),
    // The date is part of the key: a hearing moved to another day is reminded of again.
    key: `${kind}:${h.id}:${h.date}`,
  });

/** The evening before: tomorrow's hearings, to their attending and responsible lawyers. */
export async function remindHearingsTomorrow(app: FastifyInstance, run: JobRun): Promise<number> {
  const tomorrow = officeToday(run.timeZone, run.now).daysFromToday(1);
  const list = await hearings(app, (q) => q.where('s.date', '=', tomorrow));
  return notifyHearings(app, list, attendingAndResponsible, hearingMessage('hearingTomorrow'));
}

/** The morning of: today's hearings, to their attending and responsible lawyers. */
export async function remindHearingsToday(app: FastifyInstance, run: JobRun): Promise<number> {
  const { today } = officeToday(run.timeZone, run.now);
  const list = await hearings(app, (q) => q.where('s.date', '=', today));
  return notifyHearings(app, list, attendingAndResponsible, hearingMessage('hearingToday'));
}

/**
 * Each morning: hearings before today with no decision and no next hearing, to its lawyers (the
 * attending lawyer and the lawsuit's responsible lawyers), once a day until recorded.
 */
export async function remindHearingsWithoutDecision(app: FastifyInstance, run: JobRun): Promise<number> {
  const { today } = officeToday(run.timeZone, run.now);
  const list = await hearings(app, (q) =>
    q
      .where('s.date', '<', today)
      .where('s.decision', 'is', null)
      .where('s.next_date', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom(`${SESSIONS} as n`).select('n.id').whereRef('n.previous_id', '=', 's.id'))),
      ),
  );
  return notifyHearings(app, list, attendingAndResponsible, (h) => ({
    kind: 'hearingNoDecision',
    params: { fileNumber: h.fileNumber, date: h.date },
    link: sessionLink(h.id),
    key: `hearingNoDecision:${h.id}:${today}`,
  }));
}

/**
 * Each morning: active powers of attorney expiring within one of the settings' thresholds (days
 * before expiry), to their lawyers, once per power of attorney and threshold. Only the smallest
 * threshold reached is sent: one first seen 5 days before expiry with thresholds 30 and 7 gets the
 * 7-day notice alone.
 */
export async function remindProcurationsExpiring(app: FastifyInstance, run: JobRun): Promise<number> {
  const { procurationReminderDays } = await readSettings(app.db);
  if (procurationReminderDays.length === 0) return 0;
  const { today, daysFromToday } = officeToday(run.timeZone, run.now);
  const rows = await app.db
    .selectFrom(PROCURATIONS)
    .select(['id', 'number', 'year', 'expiry_date', 'status'])
    .where('expiry_date', '>=', today)
    .where('expiry_date', '<=', daysFromToday(Math.max(...procurationReminderDays)))
    .orderBy('expiry_date')
    .orderBy('id')
    .execute();
  const due = rows
    .filter((r) => toBoolean(r.status))
    .map((r) => {
      const days = daysBetween(today, String(r.expiry_date));
      const threshold = Math.min(...procurationReminderDays.filter((n) => n >= days));
      return {
        id: Number(r.id),
        number: String(r.number),
        year: Number(r.year),
        expiresOn: String(r.expiry_date),
        days,
        threshold,
      };
    });
  if (due.length === 0) return 0;
  const lawyerRows = await app.db
    .selectFrom(PROCURATION_LAWYERS)
    .select(['owner_id', 'ref_id'])
    .where(
      'owner_id',
      'in',
      due.map((d) => d.id),
    )
    .execute();
  const active = await activeEmployees(
    app,
    lawyerRows.map((r) => Number(r.ref_id)),
  );
  const inputs: NotifyInput[] = [];
  for (const p of due)
    for (const row of lawyerRows)
      if (Number(row.owner_id) === p.id && active.has(Number(row.ref_id)))
        inputs.push({
          employeeId: Number(row.ref_id),
          kind: 'procurationExpiring',
          params: { number: p.number, year: p.year, expiresOn: p.expiresOn, days: p.days },
          link: procurationLink(p.id),
          // The expiry is part of the key: a power of attorney renewed to a later date is reminded of again.
          key: `procurationExpiring:${p.id}:${p.threshold}:${p.expiresOn}`,
        });
  return notify(app, app.db, inputs);
}
