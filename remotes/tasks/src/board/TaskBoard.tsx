import { useMemo, useState } from 'react';
import { Flex, Input, Typography } from 'antd';
import { UnorderedListOutlined } from '@ant-design/icons';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { TASK_STATES, tasks, type TaskState } from '@mizan/contracts';
import { useAuth, type ListParams } from '@mizan/sdk';
import type { EntityRow } from '@mizan/ui';
import { stateLabel } from '../labels';
import { QuickFilters, quickFilters } from '../list/QuickFilters';
import { boardAnnouncements, boardInstructions } from './announcements';
import { columnCoordinates } from './columnKeyboard';
import { TaskCard } from './TaskCard';
import { TaskColumn } from './TaskColumn';
import { useTaskBoard } from './useTaskBoard';

/** The board's query from the URL: the quick views and the search, under the list's keys. */
function useBoardFilters() {
  const { user } = useAuth();
  const [search, setSearch] = useSearchParams();
  const q = search.get('q') ?? '';
  const me = user?.id;
  // One object per URL: the board's queries are keyed by it.
  const filters = useMemo(() => {
    const chosen: ListParams = {};
    for (const { key, value } of quickFilters(me)) if (search.get(key) === value) chosen[key] = value;
    if (q) chosen.q = q;
    return chosen;
  }, [search, q, me]);
  const setQuery = (value: string) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set('q', value);
      else next.delete('q');
      return next;
    });
  return { filters, q, setQuery, query: search.toString() };
}

/**
 * The tasks board: one column per state, each task a card that moves to another column by drag
 * and drop or from the keyboard (its handle: space or enter to pick it up, left and right arrows
 * to choose the column, space or enter to drop, escape to cancel), which changes its state
 * (`PATCH /status/{id}`, rolled back with an error toast on failure). Needs `tasks.status` to move.
 */
export function TaskBoard() {
  const { t } = useTranslation('tasks');
  const { can } = useAuth();
  const { filters, q, setQuery, query } = useBoardFilters();
  const { columns, move, moving } = useTaskBoard(filters);
  const [active, setActive] = useState<EntityRow | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnCoordinates }),
  );
  const columnName = (id: string | number) => stateLabel(String(id));
  const movable = can('tasks.status');

  const onDragStart = ({ active: dragged }: DragStartEvent) =>
    setActive((dragged.data.current?.row as EntityRow | undefined) ?? null);
  const onDragEnd = ({ active: dragged, over }: DragEndEvent) => {
    setActive(null);
    const row = dragged.data.current?.row as EntityRow | undefined;
    if (row && over && (TASK_STATES as readonly string[]).includes(String(over.id)))
      move(row, over.id as TaskState);
  };

  return (
    <div className="mizan-task-board" style={{ minInlineSize: 0 }}>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBlockEnd: 16 }}>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
          {t('board.title')}
        </Typography.Title>
        <Link to={`${tasks.route}${query ? `?${query}` : ''}`}>
          <UnorderedListOutlined aria-hidden /> {t('views.list')}
        </Link>
      </Flex>
      <Flex
        wrap
        gap={12}
        align="center"
        style={{ marginBlockEnd: 16 }}
        role="search"
        aria-label={t('board.filters')}
      >
        <Input.Search
          allowClear
          defaultValue={q}
          aria-label={t('board.search')}
          placeholder={t('board.search')}
          style={{ maxInlineSize: 280 }}
          onSearch={(value) => setQuery(value.trim())}
        />
        <QuickFilters />
      </Flex>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setActive(null)}
        accessibility={{
          announcements: boardAnnouncements(t, columnName),
          screenReaderInstructions: boardInstructions(t),
        }}
      >
        <Flex gap={12} align="start" style={{ overflowX: 'auto', paddingBlockEnd: 8 }}>
          {columns.map((column) => (
            <TaskColumn key={column.state} column={column} movable={movable} moving={moving} />
          ))}
        </Flex>
        <DragOverlay>{active ? <TaskCard row={active} movable={false} overlay /> : null}</DragOverlay>
      </DndContext>
    </div>
  );
}
