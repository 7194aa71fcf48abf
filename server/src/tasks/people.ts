import { getEntity, tasks, type Entity, type Fields } from '@mizan/contracts';
import { toBoolean } from '../db';
import { joinTableName } from '../db/migrations';
import type { Trx } from '../engine/context';
import type { Db } from '../db';

const EMPLOYEES = getEntity('employees').table;
/** `owner_id` the task, `ref_id` the assignee. */
export const ASSIGNEES = joinTableName(tasks as unknown as Entity<Fields>, 'assigneeIds');

/** An employee who may sign in: active and not banned. */
export interface Employee {
  id: number;
  name: string;
  active: boolean;
}

/** The employees `ids` names (missing ones left out), with whether each may sign in. */
export async function employees(db: Db | Trx, ids: Iterable<number>): Promise<Employee[]> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return [];
  const rows = await db
    .selectFrom(EMPLOYEES)
    .select(['id', 'name', 'status', 'baned'])
    .where('id', 'in', wanted)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    name: String(r.name),
    active: toBoolean(r.status) && !toBoolean(r.baned),
  }));
}

/** Who a task concerns: its assignees and its creator, each once. */
export function involved(row: object | null): number[] {
  if (!row) return [];
  const { assigneeIds, createdById } = row as { assigneeIds?: unknown; createdById?: unknown };
  const ids = Array.isArray(assigneeIds) ? (assigneeIds as number[]) : [];
  return [...new Set([...ids, ...(typeof createdById === 'number' ? [createdById] : [])])];
}
