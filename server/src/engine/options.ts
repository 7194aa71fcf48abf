import type { FastifyInstance } from 'fastify';
import {
  OPTIONS_ROUTES,
  permissionKey,
  type Entity,
  type Fields,
  type OptionsResult,
  type OptionsWhere,
} from '@mizan/contracts';
import { sql } from 'kysely';
import { joinTableName } from '../db/migrations';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { actorOf, type ActorContext } from './context';
import type { ScopeWhere } from './hooks';
import type { EntityServices } from './service';

/**
 * Reference pickers (api/options.ts): for every `ref`/`refs` field of every served entity, the
 * rows it may point at, to whoever may view, create or update the entity holding the field.
 */

/** May `actor` fill or filter by the reference fields of `entity`? */
export function mayPick(actor: ActorContext, entity: Entity<Fields>): boolean {
  const user = actor.user;
  if (!user || user.passwordChangeRequired) return false;
  return (['view', 'create', 'update'] as const).some((action) =>
    user.permissions.has(permissionKey(entity, action)),
  );
}

/**
 * A field's `options.where` as a condition on `target`'s table: plain values are equalities,
 * nested conditions go through the reference (`roleIds: { lawyers: true }`: a role of the
 * employee's that is a lawyers' role).
 */
export function optionsWhere(
  entities: EntityServices,
  target: Entity<Fields>,
  where: OptionsWhere,
): ScopeWhere {
  return (eb, table) =>
    eb.and(
      Object.entries(where).map(([key, value]) => {
        const repo = entities.get(target.name).repo;
        if (typeof value !== 'object') return eb(`${table}.${repo.column(key)}`, '=', value);
        const field = target.fields[key]!;
        if (field.type !== 'ref' && field.type !== 'refs')
          throw new Error(`${target.name}.${key} is not a reference`);
        const other = entities.get(field.entity).entity;
        const inner = optionsWhere(entities, other, value);
        const matching = eb
          .selectFrom(other.table)
          .select(`${other.table}.id`)
          .where((e) => inner(e, other.table));
        if (field.type === 'ref') return eb(`${table}.${repo.column(key)}`, 'in', matching);
        const links = joinTableName(target, key);
        return eb.exists(
          eb
            .selectFrom(links)
            .select(sql.lit(1).as('one'))
            .whereRef(`${links}.owner_id`, '=', `${table}.id`)
            .where(`${links}.ref_id`, 'in', matching),
        );
      }),
    );
}

export async function referenceOptions(
  entities: EntityServices,
  actor: ActorContext,
  entityName: string,
  fieldName: string,
  query: { q?: string; ids?: number[] } & Record<string, unknown>,
): Promise<OptionsResult> {
  const holder = entities.all().find((service) => service.name === entityName)?.entity;
  const field = holder?.fields[fieldName];
  if (!holder || !field || (field.type !== 'ref' && field.type !== 'refs')) throw new AppError('notFound');
  if (!mayPick(actor, holder)) throw new AppError('forbidden');
  const target = entities.get(field.entity);
  const where = field.options?.where ? [optionsWhere(entities, target.entity, field.options.where)] : [];
  const { q, ids, ...filters } = query;
  return { items: await target.options({ q, ids, where, filters }, actor) };
}

export function registerOptions(app: FastifyInstance): void {
  defineRoute(app, OPTIONS_ROUTES.list, {
    tags: ['options'],
    handler: async (request, { params: { entity, field }, query }) => {
      return { data: await referenceOptions(app.entities, actorOf(request), entity, field, query) };
    },
  });
}
