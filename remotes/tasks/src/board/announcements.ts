import type { Announcements, ScreenReaderInstructions } from '@dnd-kit/core';
import type { TFunction } from 'i18next';

/** The title of a dragged task, as its draggable's data carries it. */
const titleOf = (active: { data: { current?: Record<string, unknown> } }) =>
  String((active.data.current?.title as string | undefined) ?? '');

/**
 * What a screen reader hears while a task is moved on the board, in the interface language:
 * picked up, over which column, dropped or cancelled (dnd-kit's defaults are English only and
 * name internal ids).
 */
export function boardAnnouncements(t: TFunction, columnName: (id: string | number) => string): Announcements {
  return {
    onDragStart: ({ active }) => t('board.announce.start', { title: titleOf(active) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('board.announce.over', { title: titleOf(active), column: columnName(over.id) })
        : t('board.announce.outside', { title: titleOf(active) }),
    onDragEnd: ({ active, over }) =>
      over
        ? t('board.announce.end', { title: titleOf(active), column: columnName(over.id) })
        : t('board.announce.endOutside', { title: titleOf(active) }),
    onDragCancel: ({ active }) => t('board.announce.cancel', { title: titleOf(active) }),
  };
}

/** How to move a task from the keyboard, read when its handle gets focus. */
export const boardInstructions = (t: TFunction): ScreenReaderInstructions => ({
  draggable: t('board.instructions'),
});
