import type { Entity, FieldDefinition, Fields } from './entity';

/**
 * Names that relations give rise to, in one place for the server (which writes them into every
 * row) and the client (which reads them back).
 */

/** Most ids a `refs` field takes in one write unless it declares its own `max` (422 beyond). */
export const MAX_REFS = 1000;

/** English plural of a lower-camel word's last part: `opponent` → `opponents`, `party` → `parties`. */
function plural(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/**
 * The key beside a `ref` or `refs` field under which the API puts the referenced rows' labels
 * (`{ id, name }`, or a list of them):
 *
 * | field (type)            | display key    |
 * | ----------------------- | -------------- |
 * | `continentId` (ref)     | `continent`    |
 * | `roleIds` (refs)        | `roles`        |
 * | `partyIds` (refs)       | `parties`      |
 * | `manager` (ref)         | `managerRef`   |
 * | `opponents` (refs)      | `opponentsRefs`|
 *
 * A field not named `…Id` / `…Ids` keeps its own key for the id(s), so its labels go under
 * `<field>Ref` / `<field>Refs` rather than overwrite them. `defineEntity` refuses a definition
 * where a display key collides with another field.
 *
 * @example
 * row[displayKey('continentId', countries.fields.continentId)] // { id: 3, name: 'Africa' }
 */
export function displayKey(name: string, field: Pick<FieldDefinition, 'type'>): string {
  if (field.type === 'ref') return /.Id$/.test(name) ? name.slice(0, -2) : `${name}Ref`;
  if (field.type === 'refs') return /.Ids$/.test(name) ? plural(name.slice(0, -3)) : `${name}Refs`;
  throw new Error(`displayKey: field "${name}" is a ${field.type}, not a ref or refs field`);
}

/** One field of some entity that points at another entity. */
export interface Reference {
  /** The entity holding the field. */
  entity: Entity<Fields>;
  /** The field's key (`continentId`). */
  field: string;
  /** `ref` (one row) or `refs` (a join table). */
  type: 'ref' | 'refs';
}

/**
 * Every field of `entities` that references the entity `name`, in registry order: the tabs of a
 * record page ("the courts of this governorate") and the "still referenced" check on delete.
 *
 * @example
 * referencesIn('governorates', registry) // [{ entity: policeStations, field: 'governorateId', type: 'ref' }, …]
 */
export function referencesIn(name: string, entities: readonly Entity<Fields>[]): Reference[] {
  return entities.flatMap((entity) =>
    Object.entries(entity.fields).flatMap(([field, def]): Reference[] =>
      (def.type === 'ref' || def.type === 'refs') && def.entity === name
        ? [{ entity, field, type: def.type }]
        : [],
    ),
  );
}
