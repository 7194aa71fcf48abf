import { defineEntity, entityActions, permissionKey, type Entity, type Fields } from '@mizan/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import { EMPLOYEE_ROLES, ROLE_PERMISSIONS } from '../auth/joins';
import { createEntityTable } from '../db/migrations/entityTables';
import { TEST_ADMIN, type TestApp } from '../test/harness';
import { AppError } from '../http/errors';
import { recountEntities } from '../db/counts';
import type { EntityHooks } from './hooks';

/**
 * Definitions the engine tests serve beside the registry (never in production): they exercise
 * what no registry entity uses yet (declared actions, a scope, batched computed fields).
 */
export const engineWidgets = defineEntity({
  name: 'engineWidgets',
  path: '/admin/engine-tests/widgets',
  remote: 'settings',
  fields: {
    name: { type: 'string', required: true, max: 100, unique: true, search: true, sort: true },
    note: { type: 'text', max: 500 },
    ownerId: { type: 'ref', entity: 'employees', filter: true },
    archived: { type: 'boolean', default: false },
    archiveReason: { type: 'string', max: 200 },
  },
  actions: {
    archive: {
      body: z.object({
        reason: z
          .string({ error: 'validation.required' })
          .trim()
          .min(1, { error: 'validation.whitespace' })
          .max(200, { error: 'validation.string.max' }),
      }),
    },
    reopen: { method: 'POST', path: '/reopen/:id' },
  },
});

/**
 * Reminders with declared list filters (`dueWithin` days, `overdue`) and files deleted by their
 * own id alone (`fileDeletePath` without the owner).
 */
export const engineReminders = defineEntity({
  name: 'engineReminders',
  path: '/admin/engine-tests/reminders',
  remote: 'settings',
  fields: {
    name: { type: 'string', required: true, max: 100, sort: true },
    dueOn: { type: 'date', sort: true },
    files: { type: 'files', accept: ['application/pdf', 'image/png'], maxSize: 1024 * 1024, maxCount: 3 },
  },
  listFilters: { dueWithin: { type: 'integer', min: 0, max: 365 }, overdue: { type: 'boolean' } },
  fileDeletePath: '/files/:fileId',
});

export const TEST_ENTITIES: readonly Entity<Fields>[] = [
  engineWidgets as Entity<Fields>,
  engineReminders as Entity<Fields>,
];

/** The conditions of the reminders' list filters: due today or within N days; due before today. */
export const reminderHooks: EntityHooks = {
  listFilters: {
    dueWithin: (days, { eb, table, today, daysFromToday }) =>
      eb.and([eb(`${table}.due_on`, '>=', today), eb(`${table}.due_on`, '<=', daysFromToday(Number(days)))]),
    overdue: (value, { eb, table, today }) =>
      value
        ? eb(`${table}.due_on`, '<', today)
        : eb.or([eb(`${table}.due_on`, 'is', null), eb(`${table}.due_on`, '>=', today)]),
  },
};

/** What the widget hooks saw, for the tests' assertions. */
export interface WidgetProbe {
  /** Calls of `expand` (one per list page, get or write response). */
  expandCalls: number;
  /** Rows each call received. */
  expandSizes: number[];
}

/**
 * The widgets' behaviour: a user without `engineWidgets.delete` sees only widgets they own; every
 * answered row carries `changes` (its audit entries, counted in one query per page); `archive`
 * stores the reason (409 when already archived), `reopen` answers a result of its own.
 */
export function widgetHooks(probe: WidgetProbe): EntityHooks {
  return {
    scope: (_ctx, user) =>
      user.permissions.has('engineWidgets.delete')
        ? null
        : (eb, table) => eb(`${table}.owner_id`, '=', user.id),
    async expand(ctx, rows) {
      probe.expandCalls++;
      probe.expandSizes.push(rows.length);
      const counts = await ctx.db
        .selectFrom('audit_log')
        .select(['entity_id', sql<number>`count(*)`.as('n')])
        .where('entity', '=', 'engineWidgets')
        .where(
          'entity_id',
          'in',
          rows.map((r) => r.id),
        )
        .groupBy('entity_id')
        .execute();
      const byId = new Map(counts.map((c) => [Number(c.entity_id), Number(c.n)]));
      return rows.map((row) => ({ ...row, changes: byId.get(row.id) ?? 0 }));
    },
    actions: {
      archive(_ctx, row, body: { reason: string }) {
        if (row.archived) throw new AppError('conflict');
        return { set: { archived: true, archiveReason: body.reason } };
      },
      reopen(_ctx, row) {
        return { set: { archived: false, archiveReason: null }, result: { reopened: row.id } };
      },
    },
  };
}

/**
 * Serves definitions beside the registry in `t`'s database: creates their tables, seeds their
 * permissions and gives them to the first administrator's roles. `t` must be built with
 * `app: { entities }` naming them.
 */
export async function serveEntities(t: TestApp, entities: readonly Entity<Fields>[]): Promise<void> {
  const db = t.app.db;
  const now = new Date().toISOString();
  // The roles of the first administrator (whatever the seeded roles are called).
  const roles = await db
    .selectFrom(EMPLOYEE_ROLES.table)
    .innerJoin('employees', 'employees.id', `${EMPLOYEE_ROLES.table}.${EMPLOYEE_ROLES.owner}`)
    .select(`${EMPLOYEE_ROLES.table}.${EMPLOYEE_ROLES.ref} as roleId`)
    .where('employees.email', '=', TEST_ADMIN.email)
    .execute();
  for (const entity of entities) {
    await createEntityTable(db, t.dialect, entity);
    for (const action of entityActions(entity)) {
      const { id } = await db
        .insertInto('permissions')
        .values({
          key: permissionKey(entity, action),
          group: entity.name,
          description: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const { roleId } of roles)
        await db
          .insertInto(ROLE_PERMISSIONS.table)
          .values({ [ROLE_PERMISSIONS.owner]: roleId, [ROLE_PERMISSIONS.ref]: id })
          .execute();
    }
  }
  // Permissions were written directly: their maintained total follows.
  await recountEntities(db, ['permissions']);
}

/**
 * Serves the test entities (`serveEntities`) and adds the widget and reminder hooks. `t` must be built with
 * `app: { entities: TEST_ENTITIES }`.
 */
export async function serveTestEntities(t: TestApp): Promise<WidgetProbe> {
  await serveEntities(t, TEST_ENTITIES);
  const probe: WidgetProbe = { expandCalls: 0, expandSizes: [] };
  t.app.entities.hooks('engineWidgets', widgetHooks(probe));
  t.app.entities.hooks('engineReminders', reminderHooks);
  return probe;
}
