import { SESSION_TIME_PATTERN, sessions, type SessionRow } from '@mizan/contracts';
import { refLabels, type EntityRow, type RefLabel } from '@mizan/ui';

/**
 * A hearing as the list API returns it: the row with `lawsuitInfo` (case number, clients and
 * opponents of its lawsuit) and the joined `{ id, name }` labels of its references.
 */
export type HearingRow = SessionRow & Record<string, unknown>;

/**
 * How a hearing stands on the calendar:
 * - `overdue`: its day has passed (office time) and no decision is recorded;
 * - `postponed`: postponed to a next hearing (it has one, or a next date);
 * - `scheduled`: anything else (to come, or decided).
 */
export type HearingState = 'overdue' | 'postponed' | 'scheduled';

export function hearingState(row: HearingRow, today: string): HearingState {
  if (row.nextId != null || row.nextDate) return 'postponed';
  if (row.date < today && !row.decision?.trim()) return 'overdue';
  return 'scheduled';
}

/** The `{ id, name }` label a hearing row carries for one of its reference fields. */
export function hearingRef(
  row: HearingRow,
  field: 'lawsuitId' | 'courtId' | 'circuitId' | 'lawyerId' | 'sessionTypeId',
): RefLabel | undefined {
  return refLabels(row as EntityRow, field, sessions.fields[field])[0];
}

/** The office file number of a hearing's lawsuit (its title), or `#<lawsuit id>` before the join. */
export function fileNumberOf(row: HearingRow): string {
  return hearingRef(row, 'lawsuitId')?.name ?? `#${row.lawsuitId}`;
}

/** The hearing's time when it is a valid `HH:mm`, else null (an all-day hearing). */
export function timeOf(row: HearingRow): string | null {
  return row.time && SESSION_TIME_PATTERN.test(row.time) ? row.time : null;
}

/** Words the calendar's titles need, in the interface language. */
export interface TitleWords {
  /** Between our clients and the opponents ("ضد", "v."). */
  versus: string;
  /** Between two names ("، ", ", "). */
  separator: string;
}

// A row cached from before the lawsuit's details were joined has no `lawsuitInfo`: tolerated.
const names = (labels: readonly RefLabel[] | undefined, separator: string) =>
  (labels ?? []).map((l) => l.name).join(separator);

/**
 * A hearing's title on the calendar: file number · clients vs opponents. Parts not known are left
 * out (no opponents: file number · clients).
 *
 * @example hearingTitle(row, { versus: 'v.', separator: ', ' }) // '1203/2026 · Ahmed Ali v. Nile Co.'
 */
export function hearingTitle(row: HearingRow, words: TitleWords): string {
  const clients = names(row.lawsuitInfo?.customers, words.separator);
  const opponents = names(row.lawsuitInfo?.opponents, words.separator);
  const parties = clients && opponents ? `${clients} ${words.versus} ${opponents}` : clients || opponents;
  return parties ? `${fileNumberOf(row)} · ${parties}` : fileNumberOf(row);
}

/** The colours of one state: background, border and text. */
export interface EventColours {
  background: string;
  border: string;
  text: string;
}

/** Colours by meaning, from the theme: primary (to come), danger (overdue), muted (postponed). */
export interface HearingPalette {
  primary: EventColours;
  danger: EventColours;
  muted: EventColours;
}

const COLOUR_OF: Record<HearingState, keyof HearingPalette> = {
  scheduled: 'primary',
  overdue: 'danger',
  postponed: 'muted',
};

/** A FullCalendar event input (the fields the calendar sets), the hearing kept in `extendedProps`. */
export interface HearingEvent {
  id: string;
  title: string;
  /** `YYYY-MM-DD` for an all-day hearing, `YYYY-MM-DDTHH:mm` (office wall clock) otherwise. */
  start: string;
  allDay: boolean;
  backgroundColor: string;
  borderColor: string;
  textColor: string;
  classNames: string[];
  extendedProps: { hearing: HearingRow; state: HearingState };
}

export interface EventOptions {
  /** Today in the office's time zone (`YYYY-MM-DD`), the line between to come and overdue. */
  today: string;
  palette: HearingPalette;
  words: TitleWords;
}

/**
 * The calendar's events for hearing rows: all-day when the hearing has no time, else at its local
 * time; titled file number · clients vs opponents; coloured by state. Each row once (pages that
 * overlapped while the list changed are merged by id), in date and time order.
 */
export function toCalendarEvents(rows: readonly HearingRow[], options: EventOptions): HearingEvent[] {
  const byId = new Map<number, HearingRow>();
  for (const row of rows) byId.set(row.id, row);
  return [...byId.values()].sort(compareHearings).map((row) => {
    const time = timeOf(row);
    const state = hearingState(row, options.today);
    const colours = options.palette[COLOUR_OF[state]];
    return {
      id: String(row.id),
      title: hearingTitle(row, options.words),
      start: time ? `${row.date}T${time}` : row.date,
      allDay: !time,
      backgroundColor: colours.background,
      borderColor: colours.border,
      textColor: colours.text,
      classNames: ['mizan-hearing', `mizan-hearing-${state}`],
      extendedProps: { hearing: row, state },
    };
  });
}

const collator = new Intl.Collator(['ar', 'en'], { numeric: true, sensitivity: 'base' });

/**
 * Hearing order of a day: by time, hearings without a time last; then by court and by file number
 * (numbers compared as numbers, so 9/2026 comes before 10/2026).
 */
export function compareHearings(a: HearingRow, b: HearingRow): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  const ta = timeOf(a);
  const tb = timeOf(b);
  if (ta !== tb) {
    if (ta === null) return 1;
    if (tb === null) return -1;
    return ta < tb ? -1 : 1;
  }
  return (
    collator.compare(hearingRef(a, 'courtId')?.name ?? '', hearingRef(b, 'courtId')?.name ?? '') ||
    collator.compare(fileNumberOf(a), fileNumberOf(b)) ||
    a.id - b.id
  );
}

/** One line of a day's hearing roll: what a lawyer needs at court. */
export interface RollLine {
  id: number;
  time: string | null;
  court: string;
  circuit: string;
  fileNumber: string;
  /** `number/year` of the case at court, either alone when the other is not known, or ''. */
  caseNumber: string;
  clients: string[];
  opponents: string[];
  sessionType: string;
  requirements: string;
  lawyer: string;
}

/**
 * The hearing roll of one day (the list a lawyer carries to court): that day's hearings in
 * `compareHearings` order, each with its court, circuit, file and case numbers, parties, session
 * type, requirements and lawyer.
 */
export function hearingRoll(rows: readonly HearingRow[], day: string): RollLine[] {
  const byId = new Map<number, HearingRow>();
  for (const row of rows) if (row.date === day) byId.set(row.id, row);
  return [...byId.values()].sort(compareHearings).map((row) => {
    const info = row.lawsuitInfo;
    return {
      id: row.id,
      time: timeOf(row),
      court: hearingRef(row, 'courtId')?.name ?? '',
      circuit: hearingRef(row, 'circuitId')?.name ?? '',
      fileNumber: fileNumberOf(row),
      caseNumber: [info?.caseNumber, info?.caseYear].filter((p) => p != null && p !== '').join('/'),
      clients: (info?.customers ?? []).map((c) => c.name),
      opponents: (info?.opponents ?? []).map((o) => o.name),
      sessionType: hearingRef(row, 'sessionTypeId')?.name ?? '',
      requirements: row.requirements?.trim() ?? '',
      lawyer: hearingRef(row, 'lawyerId')?.name ?? '',
    };
  });
}
