import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { permissionsOf, type AuthUser } from '@mizan/sdk';

/**
 * The calendar's views: month grid, week with hours, and the agenda: a list of the seven days
 * from the day shown (not the calendar week: on the week's last day it would hide tomorrow).
 */
export const CALENDAR_VIEWS = {
  month: 'dayGridMonth',
  week: 'timeGridWeek',
  agenda: 'listNextDays',
} as const;
export type CalendarView = keyof typeof CALENDAR_VIEWS;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (v: string | null): v is string => v !== null && DAY.test(v) && !Number.isNaN(Date.parse(v));
const positiveId = (v: string | null) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined);

/**
 * Whether "my hearings" is on when the address does not say: for a lawyer, not for the
 * administrator or the front desk. A lawyer is told by permissions (role names are data the office
 * may rename): closing or reopening a lawsuit is a lawyer's decision (the secretary cannot), and
 * deleting a hearing stays with the administrator (a lawyer cannot).
 */
export function defaultsToMyHearings(user: AuthUser | null | undefined): boolean {
  const keys = permissionsOf(user);
  return keys.has('lawsuits.close') && !keys.has('sessions.delete');
}

const myHearingsKey = (user: AuthUser) => `mizan:calendar:myHearings:${user.id}`;

/**
 * The employee's last choice of "my hearings" on this browser (kept per employee), or undefined
 * when they never chose: then `defaultsToMyHearings` decides.
 */
export function rememberedMyHearings(user: AuthUser | null | undefined): boolean | undefined {
  if (!user) return undefined;
  try {
    const stored = window.localStorage.getItem(myHearingsKey(user));
    return stored === '1' ? true : stored === '0' ? false : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the employee's choice of "my hearings" for their next visits. */
export function rememberMyHearings(user: AuthUser | null | undefined, mine: boolean): void {
  if (!user) return;
  try {
    window.localStorage.setItem(myHearingsKey(user), mine ? '1' : '0');
  } catch {
    // Storage refused (private mode, quota): the choice holds for this visit through the address.
  }
}

export interface CalendarFilters {
  lawyerId?: number;
  courtId?: number;
  branchId?: number;
}

export interface CalendarState {
  view: CalendarView;
  /** A day the calendar shows (`YYYY-MM-DD`), or undefined for the office's today. */
  date?: string;
  /** Only the signed-in employee's hearings (then `filters.lawyerId` is ignored). */
  mine: boolean;
  filters: CalendarFilters;
  /** The day whose hearing roll is shown instead of the calendar. */
  roll?: string;
}

export type CalendarChange = Partial<Omit<CalendarState, 'filters'>> & {
  filters?: Partial<Record<keyof CalendarFilters, number | undefined>>;
};

/**
 * The calendar's view, day, filters and printed roll in the address, as the lists keep theirs
 * (`?view=week&date=2026-11-23&courtId=4&mine=0`): bookmarkable, and the back button leaves a
 * roll for the calendar. Values not understood fall back to the defaults; `mine` is written only
 * when it differs from `defaultMine`.
 */
export function useCalendarState(defaultMine: boolean) {
  const [params, setParams] = useSearchParams();

  const state = useMemo<CalendarState>(() => {
    const view = params.get('view');
    const mine = params.get('mine');
    const date = params.get('date');
    const roll = params.get('roll');
    return {
      view: view && view in CALENDAR_VIEWS ? (view as CalendarView) : 'month',
      date: isDay(date) ? date : undefined,
      mine: mine === '1' ? true : mine === '0' ? false : defaultMine,
      filters: {
        lawyerId: positiveId(params.get('lawyerId')),
        courtId: positiveId(params.get('courtId')),
        branchId: positiveId(params.get('branchId')),
      },
      roll: isDay(roll) ? roll : undefined,
    };
  }, [params, defaultMine]);

  /** Applies a change; `replace` keeps it out of the history (the calendar's own paging). */
  const update = useCallback(
    (change: CalendarChange, options: { replace?: boolean } = {}) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string | number | undefined) => {
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          };
          if ('view' in change) set('view', change.view === 'month' ? undefined : change.view);
          if ('date' in change) set('date', change.date);
          if ('roll' in change) set('roll', change.roll);
          if ('mine' in change)
            set('mine', change.mine === defaultMine ? undefined : change.mine ? '1' : '0');
          for (const [key, value] of Object.entries(change.filters ?? {})) set(key, value);
          return next;
        },
        { replace: options.replace },
      );
    },
    [setParams, defaultMine],
  );

  return { state, update };
}
