import { KeyboardCode, type KeyboardCoordinateGetter } from '@dnd-kit/core';

/**
 * Keyboard moves on the board: the left and right arrows carry the picked-up task to the nearest
 * column on that side of the screen. Columns are found by where they are drawn, so the arrows
 * follow what the user sees in Arabic (first state on the right) and in English (on the left).
 * Other keys do nothing: order within a column is by due date, not by hand.
 */
export const columnCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const { collisionRect, droppableRects, droppableContainers } = context;
  const side = event.code === KeyboardCode.Left ? -1 : event.code === KeyboardCode.Right ? 1 : 0;
  if (!side || !collisionRect) return undefined;
  event.preventDefault();
  const here = collisionRect.left + collisionRect.width / 2;
  let target: number | undefined;
  for (const container of droppableContainers.getEnabled()) {
    const rect = droppableRects.get(container.id);
    if (!rect) continue;
    const center = rect.left + rect.width / 2;
    const ahead = (center - here) * side;
    // Half a pixel: the column the task is over now is not "ahead" of it.
    if (ahead > 0.5 && (target === undefined || ahead < (target - here) * side)) target = center;
  }
  return target === undefined
    ? currentCoordinates
    : { ...currentCoordinates, x: currentCoordinates.x + target - here };
};
