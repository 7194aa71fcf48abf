import {
  API_BASE,
  AREA_PERMISSIONS,
  circuits,
  courts,
  deadlines,
  DEADLINE_ROUTES,
  lawsuits,
  pathOf,
  sessions,
  tasks,
  type FeedToken,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DateArray, EventAttributes } from 'ics';
import type { Kysely } from 'kysely';
import { accountBlock, accountPermissions, loadAccount } from '../auth/account';
import { generateToken, hashToken } from '../auth/tokens';
import type { AuthDatabase } from '../auth/types';
import { joinTableName } from '../db/migrations';
import { cols } from '../engine/rows';
import { officeToday } from '../engine/today';
import { AppError } from '../http/errors';
import { translate, type Lang } from '../http/messages';
import { defineRoute } from '../http/route';
import { readEmployeeSettings } from '../notifications/store';
import { wallTimeInZone } from '../scheduler';
import { readSettings } from '../system';

/** The feed's window: what happened a month ago, and the year ahead. */
const PAST_DAYS = 31;
const AHEAD_DAYS = 366;
/** A hearing with a time lasts this long on the subscriber's calendar. */
const HEARING_MINUTES = 60;
/** The most events of each kind one feed carries. */
const MAX_EVENTS = 5000;

const FEEDS = 'calendar_feeds';
const SCOPES = ['own', 'office'] as const;
type Scope = (typeof SCOPES)[number];

const LAWSUIT_LAWYERS = joinTableName(lawsuits, 'lawyerIds');
const TASK_ASSIGNEES = joinTableName(tasks, 'assigneeIds');

const dayArray = (day: string): DateArray => day.split('-').map(Number) as DateArray;
const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const utcArray = (at: Date): DateArray => [
  at.getUTCFullYear(),
  at.getUTCMonth() + 1,
  at.getUTCDate(),
  at.getUTCHours(),
  at.getUTCMinutes(),
];

/** The public URL of a token's feed: the office's public origin, else the request's. */
function feedUrl(app: FastifyInstance, request: FastifyRequest, token: string): string {
  const origin = app.config.publicUrl ?? `${request.protocol}://${request.host}`;
  return `${origin.replace(/\/$/, '')}${API_BASE}${pathOf(DEADLINE_ROUTES.feed.path, { token })}`;
}

/**
 * Each employee's secret calendar feeds (iCalendar, read by Google, Outlook and Apple calendars):
 * their own hearings, open deadlines and tasks, and for those with `calendar.officeFeed` the whole
 * office's hearings and open deadlines. A feed URL carries a random token stored only as its hash;
 * it reads that feed and nothing else, and stops working when a new one is made, when it is
 * revoked, or when its employee may no longer sign in (or lost the office permission): 404.
 * Titles come in the employee's language (the one they last used the app in), the court and
 * circuit as the location.
 */
export function installCalendarFeeds(app: FastifyInstance): void {
  defineRoute(app, DEADLINE_ROUTES.feedToken, {
    tags: ['calendar'],
    handler: async (request) => {
      const employeeId = request.user!.id;
      const office = request.user!.permissions.has(AREA_PERMISSIONS.calendarOfficeFeed);
      const made: Partial<Record<Scope, string>> = {};
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom(FEEDS).where('employee_id', '=', employeeId).execute();
        for (const scope of office ? SCOPES : (['own'] as const)) {
          made[scope] = generateToken();
          const row = { token_hash: hashToken(made[scope]), created_at: app.clock().toISOString() };
          // Two renewals at once both find nothing to delete on PostgreSQL: the later one replaces.
          await trx
            .insertInto(FEEDS)
            .values({ employee_id: employeeId, scope, ...row })
            .onConflict((oc) => oc.columns(['employee_id', 'scope']).doUpdateSet(row))
            .execute();
        }
      });
      const data: FeedToken = {
        url: made.own ? feedUrl(app, request, made.own) : null,
        officeUrl: made.office ? feedUrl(app, request, made.office) : null,
      };
      return { data };
    },
  });

  defineRoute(app, DEADLINE_ROUTES.feedRevoke, {
    tags: ['calendar'],
    handler: async (request) => {
      await app.db.deleteFrom(FEEDS).where('employee_id', '=', request.user!.id).execute();
      return { data: { url: null, officeUrl: null } satisfies FeedToken };
    },
  });

  defineRoute(app, DEADLINE_ROUTES.feedCurrent, {
    tags: ['calendar'],
    handler: async (request) => {
      const rows = await app.db
        .selectFrom(FEEDS)
        .select('scope')
        .where('employee_id', '=', request.user!.id)
        .execute();
      return {
        data: { own: rows.some((r) => r.scope === 'own'), office: rows.some((r) => r.scope === 'office') },
      };
    },
  });

  defineRoute(app, DEADLINE_ROUTES.feed, {
    tags: ['calendar'],
    handler: async (_request, { params }, reply) => {
      const feed = await app.db
        .selectFrom(FEEDS)
        .select(['employee_id', 'scope'])
        .where('token_hash', '=', hashToken(params.token))
        .executeTakeFirst();
      if (!feed) throw new AppError('notFound');
      const employeeId = Number(feed.employee_id);
      const account = await loadAccount(app.db as unknown as Kysely<AuthDatabase>, employeeId);
      if (!account || accountBlock(account)) throw new AppError('notFound');
      const scope = feed.scope as Scope;
      if (scope === 'office' && !accountPermissions(account).has(AREA_PERMISSIONS.calendarOfficeFeed))
        throw new AppError('notFound');
      const lang: Lang =
        (await readEmployeeSettings(app.db, [employeeId])).get(employeeId)?.lang ??
        (await readSettings(app.db)).defaultLanguage;
      const body = await buildFeed(app, scope === 'office' ? null : employeeId, lang);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .send(body);
    },
  });
}

/**
 * The iCalendar text of one feed: hearings, open deadlines and (for one employee) their open
 * tasks with a due time, from a month ago to a year ahead. `employeeId` null: the whole office.
 */
export async function buildFeed(
  app: FastifyInstance,
  employeeId: number | null,
  lang: Lang,
): Promise<string> {
  const settings = await readSettings(app.db);
  const { daysFromToday } = officeToday(settings.timeZone, app.clock());
  const from = daysFromToday(-PAST_DAYS);
  const to = daysFromToday(AHEAD_DAYS);
  const t = (key: string, params?: Record<string, unknown>) => translate(lang, key, params);
  const host = (app.config.publicUrl ?? 'mizan.local').replace(/^https?:\/\//, '').replace(/[/:].*$/, '');
  // Hearings: a lawyer's own (attending or responsible for the lawsuit).
  let hearingQuery = app.db
    .selectFrom(`${sessions.table} as s`)
    .innerJoin(`${lawsuits.table} as l`, 'l.id', 's.lawsuit_id')
    .leftJoin(`${courts.table} as c`, (join) =>
      join.on((eb) => eb('c.id', '=', eb.fn.coalesce('s.court_id', 'l.court_id'))),
    )
    .leftJoin(`${circuits.table} as ci`, (join) =>
      join.on((eb) => eb('ci.id', '=', eb.fn.coalesce('s.circuit_id', 'l.circuit_id'))),
    )
    .select([
      's.id',
      's.date',
      's.time',
      's.decision',
      'l.file_number',
      'c.name as court',
      'ci.name as circuit',
    ])
    .where('s.date', '>=', from)
    .where('s.date', '<=', to);
  if (employeeId !== null)
    hearingQuery = hearingQuery.where((eb) =>
      eb.or([
        eb('s.lawyer_id', '=', employeeId),
        eb(
          's.lawsuit_id',
          'in',
          eb.selectFrom(LAWSUIT_LAWYERS).select('owner_id').where('ref_id', '=', employeeId),
        ),
      ]),
    );
  const hearingRows = await hearingQuery.orderBy('s.date').orderBy('s.id').limit(MAX_EVENTS).execute();

  const D = cols(deadlines);
  const DUE = D.dueDate;
  let deadlineQuery = app.db
    .selectFrom(`${deadlines.table} as d`)
    .innerJoin(`${lawsuits.table} as l`, 'l.id', `d.${D.lawsuitId}`)
    .leftJoin(`${courts.table} as c`, 'c.id', 'l.court_id')
    .select([
      'd.id',
      `d.${DUE} as due`,
      'd.action',
      `d.${D.legalBasis} as basis`,
      'l.file_number',
      'c.name as court',
    ])
    .where('d.state', '=', 'open')
    .where(`d.${DUE}`, '>=', from)
    .where(`d.${DUE}`, '<=', to);
  if (employeeId !== null)
    deadlineQuery = deadlineQuery.where((eb) =>
      eb.or([
        eb(`d.${D.lawyerId}`, '=', employeeId),
        eb('l.id', 'in', eb.selectFrom(LAWSUIT_LAWYERS).select('owner_id').where('ref_id', '=', employeeId)),
      ]),
    );
  const deadlineRows = await deadlineQuery.orderBy(`d.${DUE}`).orderBy('d.id').limit(MAX_EVENTS).execute();

  const taskRows =
    employeeId === null
      ? []
      : await app.db
          .selectFrom(`${tasks.table} as t`)
          .innerJoin(`${TASK_ASSIGNEES} as a`, 'a.owner_id', 't.id')
          .select(['t.id', 't.title', 't.due_at', 't.description'])
          .where('a.ref_id', '=', employeeId)
          .where('t.state', '!=', 'done')
          .where('t.due_at', 'is not', null)
          .orderBy('t.due_at')
          .limit(MAX_EVENTS)
          .execute();

  const location = (court: unknown, circuit: unknown) =>
    [court, circuit].filter((p) => typeof p === 'string' && p).join(t('legal.feed.separator'));
  const events: EventAttributes[] = [];
  for (const h of hearingRows) {
    const day = String(h.date);
    const time = typeof h.time === 'string' && /^\d\d:\d\d$/.test(h.time) ? h.time : null;
    const common = {
      uid: `hearing-${Number(h.id)}@${host}`,
      title: t('legal.feed.hearing', { fileNumber: String(h.file_number ?? '') }),
      location: location(h.court, h.circuit) || undefined,
      description: typeof h.decision === 'string' && h.decision ? h.decision : undefined,
    };
    events.push(
      time
        ? {
            ...common,
            start: utcArray(wallTimeInZone(settings.timeZone, day, time)),
            startInputType: 'utc',
            startOutputType: 'utc',
            duration: { minutes: HEARING_MINUTES },
          }
        : { ...common, start: dayArray(day), end: dayArray(nextDay(day)) },
    );
  }
  for (const d of deadlineRows) {
    const day = String(d.due);
    events.push({
      uid: `deadline-${Number(d.id)}@${host}`,
      title: t('legal.feed.deadline', {
        action: t(`entities.deadlines.values.action.${String(d.action)}`),
        fileNumber: String(d.file_number ?? ''),
      }),
      location: location(d.court, null) || undefined,
      description: typeof d.basis === 'string' && d.basis ? d.basis : undefined,
      start: dayArray(day),
      end: dayArray(nextDay(day)),
    });
  }
  for (const task of taskRows) {
    const due = new Date(String(task.due_at));
    events.push({
      uid: `task-${Number(task.id)}@${host}`,
      title: t('legal.feed.task', { title: String(task.title) }),
      description: typeof task.description === 'string' && task.description ? task.description : undefined,
      start: utcArray(due),
      startInputType: 'utc',
      startOutputType: 'utc',
      duration: { minutes: 30 },
    });
  }
  // ics is loaded with the first feed asked for.
  const { createEvents } = await import('ics');
  const { error, value } = createEvents(events, {
    productId: '-//Mizan//Calendar//AR',
    calName: t(employeeId === null ? 'legal.feed.officeName' : 'legal.feed.name'),
  });
  if (error || value === undefined || value === null) throw error ?? new Error('calendar feed not built');
  return value;
}
