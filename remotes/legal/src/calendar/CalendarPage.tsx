import { LeftOutlined, PrinterOutlined, RightOutlined } from '@ant-design/icons';
import {
  Alert,
  Badge,
  Button,
  Card,
  ConfigProvider,
  DatePicker,
  Flex,
  Segmented,
  Space,
  Spin,
  Switch,
  Typography,
} from 'antd';
import type FullCalendar from '@fullcalendar/react';
import dayjs, { type Dayjs } from 'dayjs';
import { useAtomValue } from 'jotai';
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { deadlines, sessions } from '@mizan/contracts';
import { permissionsAtom, sdkStore, systemSettingsAtom, userAtom } from '@mizan/sdk';
import { officeTimeZone, recordPath, RefSelect, useOfficeToday, usePickerLocale } from '@mizan/ui';
import { DateCalculator } from '../deadlines/DateCalculator';
import { CalendarFeed } from './CalendarFeed';
import { toDeadlineEvents } from '../deadlines/events';
import { useDeadlines } from '../deadlines/useDeadlines';
import { dayString, hijriRange, wallClockNow } from './dayLabels';
import { HearingRoll } from './HearingRoll';
import { HearingsCalendar, type ShownRange } from './HearingsCalendar';
import { timeOf, toCalendarEvents, type HearingRow } from './hearings';
import { useCalendarTheme } from './theme';
import {
  CALENDAR_VIEWS,
  defaultsToMyHearings,
  rememberMyHearings,
  rememberedMyHearings,
  useCalendarState,
  type CalendarView,
} from './useCalendarState';
import { useHearings } from './useHearings';
import './calendar.css';

/** The office day's hours in the week view, widened to take a hearing set earlier or later. */
const OFFICE_HOURS = { min: 7, max: 19 };

function hoursOf(rows: readonly HearingRow[] | undefined): { min: string; max: string } {
  let min = OFFICE_HOURS.min;
  let max = OFFICE_HOURS.max;
  for (const row of rows ?? []) {
    const time = timeOf(row);
    if (!time) continue;
    const hour = Number(time.slice(0, 2));
    min = Math.min(min, hour);
    max = Math.max(max, hour + 1);
  }
  const pad = (h: number) => `${String(h).padStart(2, '0')}:00:00`;
  return { min: pad(min), max: max >= 24 ? '24:00:00' : pad(max) };
}

/**
 * The hearings calendar: month, week and agenda views of the hearings of the office, or of one
 * lawyer ("my hearings", on by default for a lawyer), court or branch, kept in the address; a
 * hearing opens its record page, a day (its number or header, or the roll buttons) opens the
 * printable hearing roll of that day.
 */
export function CalendarPage() {
  const { t, i18n } = useTranslation(['legal', 'entities']);
  const lng = i18n.language;
  const navigate = useNavigate();
  const direction = useContext(ConfigProvider.ConfigContext).direction ?? 'rtl';
  const user = useAtomValue(userAtom, { store: sdkStore });
  const permissions = useAtomValue(permissionsAtom, { store: sdkStore });
  const settings = useAtomValue(systemSettingsAtom, { store: sdkStore });
  const today = useOfficeToday();
  const zone = officeTimeZone(settings);
  // To the minute: the same value through a minute's renders (FullCalendar compares its options).
  const now = wallClockNow(zone);
  const pickerLocale = usePickerLocale();
  const { palette, style } = useCalendarTheme();
  const { state, update } = useCalendarState(rememberedMyHearings(user) ?? defaultsToMyHearings(user));
  const calendarRef = useRef<FullCalendar>(null);
  const [range, setRange] = useState<ShownRange | null>(null);

  const lawyerId = state.mine ? user?.id : state.filters.lawyerId;
  // "My hearings": those the employee attends and those of the lawsuits they are responsible for.
  const filters = {
    ...(state.mine ? { employeeId: user?.id } : { lawyerId }),
    courtId: state.filters.courtId,
    branchId: state.filters.branchId,
  };
  const shown = state.roll ? { from: state.roll, to: state.roll } : range;
  const hearings = useHearings(shown ? { from: shown.from, to: shown.to, ...filters } : null);
  const rows = hearings.data?.items;
  // Deadlines fall due on the calendar and the day's hearing roll too, a lawyer's own with "mine".
  const seesDeadlines = permissions.has('deadlines.view');
  const due = useDeadlines(
    shown ? { from: shown.from, to: shown.to, lawyerId: lawyerId ?? undefined } : null,
    seesDeadlines,
  );

  const words = useMemo(() => ({ versus: t('calendar.versus'), separator: t('calendar.separator') }), [t]);
  const dueRows = due.data?.items;
  const events = useMemo(
    () => [
      ...toCalendarEvents(rows ?? [], { today, palette, words }),
      ...toDeadlineEvents(dueRows ?? [], palette, (row, fileNumber) =>
        t('calendar.deadlineTitle', {
          action: t(`entities:deadlines.values.action.${String(row.action)}`),
          fileNumber,
        }),
      ),
    ],
    [rows, dueRows, today, palette, words, t],
  );
  const hours = useMemo(() => hoursOf(rows), [rows]);

  const onRange = useCallback((next: ShownRange) => {
    setRange((prev) =>
      prev && prev.from === next.from && prev.to === next.to && prev.view === next.view ? prev : next,
    );
  }, []);
  // The address follows the calendar (after it renders, not during): its view, and the day it
  // shows only when away from today's month or week.
  const urlView = state.view;
  const urlDate = state.date;
  useEffect(() => {
    if (!range) return;
    const showsToday = dayString(range.start) <= today && today < dayString(range.end);
    const date = showsToday ? undefined : range.anchor;
    if (range.view !== urlView || date !== urlDate) update({ view: range.view, date }, { replace: true });
  }, [range, today, urlView, urlDate, update]);
  const api = () => calendarRef.current?.getApi();
  const openRoll = (day: string) => update({ roll: day });

  if (state.roll)
    return (
      <Card>
        <HearingRoll
          day={state.roll}
          rows={rows}
          loading={hearings.isFetching}
          failed={hearings.isError}
          deadlines={seesDeadlines ? due.data?.items : undefined}
          onBack={() => update({ roll: undefined })}
        />
      </Card>
    );

  const PrevIcon = direction === 'rtl' ? RightOutlined : LeftOutlined;
  const NextIcon = direction === 'rtl' ? LeftOutlined : RightOutlined;
  const views: CalendarView[] = ['month', 'week', 'agenda'];

  return (
    <Card>
      <Flex vertical gap="middle">
        <Flex wrap gap="middle" align="center" justify="space-between">
          <div>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('calendar.title')}
            </Typography.Title>
            {range && (
              // Two lines, not a separator: a dot between Arabic-Indic figures reads as a zero.
              <Flex vertical className="mizan-calendar-range">
                <Typography.Text>{range.title}</Typography.Text>
                <Typography.Text type="secondary">{hijriRange(range.start, range.end, lng)}</Typography.Text>
              </Flex>
            )}
          </div>
          <Space wrap>
            <Space.Compact>
              <Button aria-label={t('calendar.previous')} icon={<PrevIcon />} onClick={() => api()?.prev()} />
              <Button onClick={() => api()?.today()}>{t('calendar.today')}</Button>
              <Button aria-label={t('calendar.next')} icon={<NextIcon />} onClick={() => api()?.next()} />
            </Space.Compact>
            <Segmented<CalendarView>
              aria-label={t('calendar.view')}
              value={range?.view ?? state.view}
              onChange={(view) => api()?.changeView(CALENDAR_VIEWS[view])}
              options={views.map((v) => ({ value: v, label: t(`calendar.views.${v}`) }))}
            />
            <DateCalculator />
            <CalendarFeed />
            {(hearings.isFetching || due.isFetching) && <Spin size="small" />}
          </Space>
        </Flex>

        <Flex wrap gap="middle" align="center" justify="space-between">
          <Space wrap>
            {user && (
              <Flex gap={8} align="center">
                <Switch
                  id="mizan-my-hearings"
                  checked={state.mine}
                  onChange={(mine) => {
                    rememberMyHearings(user, mine);
                    update({ mine, filters: { lawyerId: undefined } });
                  }}
                />
                <label htmlFor="mizan-my-hearings">{t('calendar.mine')}</label>
              </Flex>
            )}
            {permissions.has('sessions.view') && (
              <RefSelect
                entity="employees"
                field={{ entity: sessions.name, name: 'lawyerId' }}
                aria-label={t('entities:sessions.fields.lawyerId')}
                placeholder={t('entities:sessions.fields.lawyerId')}
                value={lawyerId ?? null}
                known={state.mine && user ? [{ id: user.id, name: user.name }] : []}
                disabled={state.mine}
                onChange={(v) => update({ filters: { lawyerId: typeof v === 'number' ? v : undefined } })}
              />
            )}
            {permissions.has('courts.view') && (
              <RefSelect
                entity="courts"
                aria-label={t('entities:sessions.fields.courtId')}
                placeholder={t('entities:sessions.fields.courtId')}
                value={state.filters.courtId ?? null}
                onChange={(v) => update({ filters: { courtId: typeof v === 'number' ? v : undefined } })}
              />
            )}
            {permissions.has('branches.view') && (
              <RefSelect
                entity="branches"
                aria-label={t('entities:lawsuits.fields.branchId')}
                placeholder={t('entities:lawsuits.fields.branchId')}
                value={state.filters.branchId ?? null}
                onChange={(v) => update({ filters: { branchId: typeof v === 'number' ? v : undefined } })}
              />
            )}
          </Space>
          <Space wrap>
            <Button icon={<PrinterOutlined />} onClick={() => openRoll(today)}>
              {t('calendar.roll.today')}
            </Button>
            <DatePicker
              aria-label={t('calendar.roll.pickDay')}
              placeholder={t('calendar.roll.pickDay')}
              locale={pickerLocale}
              value={null}
              onChange={(d: Dayjs | null) => d && openRoll(d.format('YYYY-MM-DD'))}
              defaultPickerValue={dayjs(today)}
            />
          </Space>
        </Flex>

        {hearings.isError && <Alert type="error" showIcon title={t('calendar.loadError')} />}

        <Space wrap size="middle" aria-label={t('calendar.legend')}>
          <Badge color={palette.primary.background} text={t('calendar.states.scheduled')} />
          <Badge color={palette.danger.background} text={t('calendar.states.overdue')} />
          <Badge color={palette.muted.border} text={t('calendar.states.postponed')} />
          {seesDeadlines && <Badge color={palette.danger.border} text={t('calendar.states.deadline')} />}
        </Space>

        <HearingsCalendar
          calendarRef={calendarRef}
          view={state.view}
          initialDate={state.date ?? today}
          now={now}
          events={events}
          hours={hours}
          style={style}
          onRange={onRange}
          onOpenHearing={(id) => navigate(recordPath(sessions, id))}
          onOpenDeadline={(id) => navigate(recordPath(deadlines, id))}
          onOpenDay={openRoll}
        />
      </Flex>
    </Card>
  );
}
