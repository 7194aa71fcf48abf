import { deadlines } from '@mizan/contracts';
import { refLabels, type EntityRow } from '@mizan/ui';
import type { HearingPalette } from '../calendar/hearings';

/** A deadline on the calendar: all day on its due date, the row kept in `extendedProps`. */
export interface DeadlineCalendarEvent {
  id: string;
  title: string;
  start: string;
  allDay: true;
  backgroundColor: string;
  borderColor: string;
  textColor: string;
  classNames: string[];
  extendedProps: { deadline: EntityRow };
}

/** The id of a deadline's event: hearings and deadlines share the calendar's ids. */
export const deadlineEventId = (id: number) => `deadline-${id}`;

/**
 * The calendar's events for deadline rows: all day on the due date, titled by `title` (what is
 * due and the lawsuit's file number), in the danger colours while open (a missed deadline is
 * lost), muted once done or waived.
 */
export function toDeadlineEvents(
  rows: readonly EntityRow[],
  palette: HearingPalette,
  title: (row: EntityRow, fileNumber: string) => string,
): DeadlineCalendarEvent[] {
  return rows.map((row) => {
    const colours = row.state === 'open' ? palette.danger : palette.muted;
    const fileNumber =
      refLabels(row, 'lawsuitId', deadlines.fields.lawsuitId)[0]?.name ?? `#${String(row.lawsuitId)}`;
    return {
      id: deadlineEventId(row.id),
      title: title(row, fileNumber),
      start: String(row.dueDate),
      allDay: true,
      backgroundColor: colours.background,
      borderColor: colours.border,
      textColor: colours.text,
      classNames: ['mizan-deadline', `mizan-deadline-${String(row.state)}`],
      extendedProps: { deadline: row },
    };
  });
}
