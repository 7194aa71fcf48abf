import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Entity, Fields } from '@mizan/contracts';
import type { FieldContext } from '../fields/types';

/** Translated names of one entity, from the `entities` namespace. */
export interface EntityText {
  t: TFunction;
  lng: string;
  title: string;
  singular: string;
  /** `entities.<entity>.fields.<field>` (also for `id`, `status`, `baned`, `createdAt`, `updatedAt`). */
  label: (field: string) => string;
  /** The registry context of a declared field. */
  context: (field: string) => FieldContext;
}

export function entityText(entity: Entity<Fields>, t: TFunction, lng: string): EntityText {
  const label = (field: string) =>
    t(`${entity.name}.fields.${field}`, { ns: 'entities', defaultValue: field });
  return {
    t,
    lng,
    title: t(`${entity.name}.title`, { ns: 'entities', defaultValue: entity.name }),
    singular: t(`${entity.name}.singular`, { ns: 'entities', defaultValue: entity.name }),
    label,
    context: (name) => {
      const field = entity.fields[name];
      if (!field) throw new Error(`"${entity.name}" has no field "${name}"`);
      return { entity, name, field, label: label(name), t, lng };
    },
  };
}

export function useEntityText(entity: Entity<Fields>): EntityText {
  const { t, i18n } = useTranslation(['ui', 'entities']);
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => entityText(entity, t, lng), [entity, t, lng]);
}
