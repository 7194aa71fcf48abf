import { useContext, useEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { ConfigProvider } from 'antd';
import { useTranslation } from 'react-i18next';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import listPlugin from '@fullcalendar/list';
import arLocale from '@fullcalendar/core/locales/ar';
import enGbLocale from '@fullcalendar/core/locales/en-gb';
import type {
  DatesSetArg,
  DayCellContentArg,
  DayHeaderContentArg,
  EventClickArg,
  LocaleInput,
} from '@fullcalendar/core';
import { formatHijri } from '@mizan/ui';
import { NARROW_CALENDAR_PX, dayString, hijriCell, wallDay, weekdayName } from './dayLabels';
import type { DeadlineCalendarEvent } from '../deadlines/events';
import type { HearingEvent } from './hearings';
import { CALENDAR_VIEWS, type CalendarView } from './useCalendarState';

/** The agenda: seven days from the day shown, whatever day the week starts on. */
const AGENDA_VIEW = { [CALENDAR_VIEWS.agenda]: { type: 'list', duration: { days: 7 } } };

/** Arabic with Arabic-Indic digits (plain `ar` writes Latin digits in some engines). */
const AR: LocaleInput = { ...arLocale, code: 'ar-u-nu-arab' };
const EN: LocaleInput = enGbLocale;
const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin];
const TIME_FORMAT = { hour: '2-digit', minute: '2-digit', hour12: false } as const;

/** The range the calendar shows, for the data query and the page's title. */
export interface ShownRange {
  view: CalendarView;
  /** First and last day shown (`YYYY-MM-DD`, both included). */
  from: string;
  to: string;
  /** The day the view is about (the first of the month, the week's first day). */
  anchor: string;
  /** FullCalendar's title of the view and its first and (exclusive) end dates. */
  title: string;
  start: Date;
  end: Date;
}

export interface HearingsCalendarProps {
  calendarRef: RefObject<FullCalendar | null>;
  view: CalendarView;
  initialDate: string;
  /** The office's wall-clock now (`YYYY-MM-DDTHH:mm:ss`): today's column and the now line. */
  now: string;
  events: (HearingEvent | DeadlineCalendarEvent)[];
  onRange: (range: ShownRange) => void;
  onOpenHearing: (id: number) => void;
  /** A deadline's event clicked: its row id. */
  onOpenDeadline: (id: number) => void;
  onOpenDay: (day: string) => void;
  /** Hours shown in the week view: those of the office day, widened to take every hearing. */
  hours: { min: string; max: string };
  /** The theme's colours as FullCalendar's CSS variables (`useCalendarTheme`). */
  style: CSSProperties;
}

const viewOf = (type: string): CalendarView =>
  (Object.entries(CALENDAR_VIEWS).find(([, t]) => t === type)?.[0] as CalendarView | undefined) ?? 'month';

/**
 * FullCalendar in the interface's language and direction, weeks from Sunday, every Gregorian day
 * with its Hijri day beside it (month cells, week and agenda headers). Runs in UTC so that a
 * hearing's local date and time show as written; the office's "now" is given.
 */
export function HearingsCalendar({
  calendarRef,
  view,
  initialDate,
  now,
  events,
  onRange,
  onOpenHearing,
  onOpenDeadline,
  onOpenDay,
  hours,
  style,
}: HearingsCalendarProps) {
  const { t, i18n } = useTranslation('legal');
  const lng = i18n.language;
  const direction = useContext(ConfigProvider.ConfigContext).direction ?? 'rtl';
  const locale = useMemo<LocaleInput>(
    () => ({
      ...(lng === 'ar' ? AR : EN),
      allDayText: t('calendar.allDay'),
      noEventsText: t('calendar.noHearings'),
    }),
    [lng, t],
  );
  // The first view comes from the address once; after that FullCalendar drives (`changeView`).
  const initial = useRef({ view: CALENDAR_VIEWS[view], date: initialDate });
  // FullCalendar measures itself on window resizes only; the page's width also changes when the
  // menu beside it folds or unfolds.
  const frame = useRef<HTMLDivElement>(null);
  // A phone's seven columns are too narrow for weekday names: they show the letter instead.
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const el = frame.current;
    if (!el || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      setNarrow(el.clientWidth > 0 && el.clientWidth < NARROW_CALENDAR_PX);
      calendarRef.current?.getApi().updateSize();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [calendarRef]);

  const dayCellContent = (arg: DayCellContentArg) => {
    // The week's columns have their Hijri date in the header (below).
    if (arg.view.type !== CALENDAR_VIEWS.month) return true;
    const hijri = hijriCell(arg.date, lng);
    return (
      <>
        <span className="mizan-gregorian-day">{arg.dayNumberText}</span>
        <span className="mizan-hijri-day" title={hijri.full}>
          {hijri.short}
        </span>
      </>
    );
  };
  const dayHeaderContent = (arg: DayHeaderContentArg) => {
    const weekday = narrow ? (
      <abbr title={weekdayName(arg.date, lng, 'long')}>{weekdayName(arg.date, lng, 'narrow')}</abbr>
    ) : null;
    // Month headers name weekdays only; a week's columns are days and get their Hijri date.
    if (arg.view.type !== CALENDAR_VIEWS.week) return weekday ?? true;
    return (
      <span className="mizan-day-header">
        <span>{weekday ?? arg.text}</span>
        <span className="mizan-hijri-day">{formatHijri(wallDay(arg.date), lng)}</span>
      </span>
    );
  };

  return (
    <div className="mizan-hearings-calendar" style={style} ref={frame}>
      <FullCalendar
        ref={calendarRef}
        plugins={PLUGINS}
        initialView={initial.current.view}
        initialDate={initial.current.date}
        headerToolbar={false}
        locale={locale}
        direction={direction}
        firstDay={0}
        views={AGENDA_VIEW}
        timeZone="UTC"
        now={now}
        height="auto"
        events={events}
        navLinks
        navLinkDayClick={(date) => onOpenDay(dayString(date))}
        // The whole title on hover: a month's day cuts it short.
        eventDidMount={(arg) => {
          arg.el.title = arg.event.title;
        }}
        eventClick={(arg: EventClickArg) => {
          arg.jsEvent.preventDefault();
          const deadline = (arg.event.extendedProps as { deadline?: { id: number } }).deadline;
          if (deadline) onOpenDeadline(deadline.id);
          else onOpenHearing(Number(arg.event.id));
        }}
        datesSet={(arg: DatesSetArg) =>
          onRange({
            view: viewOf(arg.view.type),
            from: dayString(arg.start),
            to: dayString(new Date(arg.end.getTime() - 1)),
            anchor: dayString(arg.view.currentStart),
            title: arg.view.title,
            start: arg.view.currentStart,
            end: arg.view.currentEnd,
          })
        }
        dayCellContent={dayCellContent}
        // FullCalendar names a month's day cell by its day number alone (aria-labelledby), though
        // the cell also shows its hearings: the cell is named by all it shows instead; the day
        // number stays a link of its own.
        dayCellDidMount={(arg) => arg.el.removeAttribute('aria-labelledby')}
        dayHeaderContent={dayHeaderContent}
        listDayFormat={{ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }}
        listDaySideFormat={(arg) => formatHijri(new Date(arg.date.year, arg.date.month, arg.date.day), lng)}
        eventTimeFormat={TIME_FORMAT}
        slotLabelFormat={TIME_FORMAT}
        slotMinTime={hours.min}
        slotMaxTime={hours.max}
        allDaySlot
        dayMaxEvents={4}
        nowIndicator
        eventDisplay="block"
      />
    </div>
  );
}
