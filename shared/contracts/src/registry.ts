import type { Entity, Fields, OptionsWhere } from './entity';
import { referencesIn, type Reference } from './relations';
import * as defined from './entities';

/**
 * Checks the definitions together and orders them so that each comes after every entity it references (a reference to itself
 * is allowed), keeping the written order wherever it already holds: authors list definitions in
 * any order, and migrations, seeds and tests get a dependency order. Throws on an unknown
 * reference target, a repeated name, path or table, or a cycle of references.
 *
 * @example
 * checkRegistry([countries, continents]) // [continents, countries]
 */
export function checkRegistry<E extends Entity<Fields>>(definitions: readonly E[]): E[] {
  const byName = new Map<string, E>();
  const problems: string[] = [];
  for (const key of ['name', 'path', 'table'] as const) {
    const seen = new Map<string, string>();
    for (const e of definitions) {
      const other = seen.get(e[key]);
      if (other !== undefined) problems.push(`"${e.name}" and "${other}" have the same ${key} "${e[key]}"`);
      seen.set(e[key], e.name);
    }
  }
  for (const e of definitions) byName.set(e.name, e);
  const targets = (e: E) =>
    Object.entries(e.fields).flatMap(([key, f]) =>
      f.type === 'ref' || f.type === 'refs' ? [{ key, target: f.entity }] : [],
    );
  for (const e of definitions)
    for (const { key, target } of targets(e))
      if (!byName.has(target))
        problems.push(`"${e.name}", field "${key}": references "${target}", which is not in the registry`);
  for (const e of definitions)
    for (const [key, f] of Object.entries(e.fields))
      if ((f.type === 'ref' || f.type === 'refs') && f.options?.where && byName.has(f.entity))
        problems.push(
          ...whereProblems(byName, f.entity, f.options.where).map(
            (problem) => `"${e.name}", field "${key}": options.where ${problem}`,
          ),
        );
  if (problems.length) throw new Error(`Entity registry:\n  - ${problems.join('\n  - ')}`);

  const out: E[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (e: E, trail: string[]) => {
    if (state.get(e.name) === 'done') return;
    if (state.get(e.name) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(e.name)), e.name].join(' → ');
      throw new Error(
        `Entity registry: references form a cycle (${cycle}); make one of them optional through an ` +
          'association entity, or reference the other way',
      );
    }
    state.set(e.name, 'visiting');
    for (const { target } of targets(e))
      if (target !== e.name) visit(byName.get(target)!, [...trail, e.name]);
    state.set(e.name, 'done');
    out.push(e);
  };
  for (const e of definitions) visit(e, []);
  return out;
}

/** What is wrong with a picker's condition on `target`'s rows (see `OptionsWhere`). */
function whereProblems(
  byName: ReadonlyMap<string, Entity<Fields>>,
  target: string,
  where: OptionsWhere,
): string[] {
  const entity = byName.get(target)!;
  return Object.entries(where).flatMap(([key, value]) => {
    const field = entity.fields[key];
    const system = key === 'status' || key === 'baned';
    if (!field && !system) return [`names "${key}", which is not a field of "${target}"`];
    if (typeof value !== 'object') {
      if (field && (field.type === 'refs' || field.type === 'files'))
        return [`gives "${target}.${key}" a plain value; a refs field takes a nested condition`];
      return [];
    }
    if (!field || (field.type !== 'ref' && field.type !== 'refs'))
      return [`gives "${target}.${key}" a nested condition, but it is not a reference`];
    return whereProblems(byName, field.entity, value);
  });
}

/** Every `defineEntity(...)` exported by the area files of `./entities` (what else they export is data). */
type Defined = Extract<(typeof defined)[keyof typeof defined], Entity<Fields>>;

const isDefinition = (value: unknown): value is Defined =>
  typeof value === 'object' &&
  value !== null &&
  'fields' in value &&
  'path' in value &&
  'route' in value &&
  'table' in value;

/**
 * Every definition the engine serves: whatever the area files export, so a new entity is its
 * definition alone (in any order: `checkRegistry` sorts them).
 */
const definitions: readonly Defined[] = Object.values(defined).filter(isDefinition);

/**
 * Every entity served by the engine, in dependency order: a definition comes after every entity it
 * references, so migrations and seeds can run in this order. Checked at module load.
 */
export const registry: readonly Defined[] = checkRegistry(definitions);

export type EntityName = Defined['name'];

const byName = new Map<string, Entity<Fields>>(registry.map((e) => [e.name, e as Entity<Fields>]));

export function getEntity(name: string): Entity<Fields> {
  const entity = byName.get(name);
  if (!entity) throw new Error(`Unknown entity "${name}"`);
  return entity;
}

export function findEntity(name: string): Entity<Fields> | undefined {
  return byName.get(name);
}

/**
 * The fields of registered entities that reference `name` (ref or refs), in registry order: the
 * tabs of a record page, and what keeps a row from being deleted.
 *
 * @example
 * referencesTo('governorates').map((r) => `${r.entity.name}.${r.field}`)
 * // ['branches.governorateId', 'policeStations.governorateId', 'courts.governorateId']
 */
export function referencesTo(name: string): Reference[] {
  return referencesIn(name, registry as readonly Entity<Fields>[]);
}
