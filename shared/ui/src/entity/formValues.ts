import {
  createSchema,
  updateSchema,
  issueMessage,
  setByServer,
  type Entity,
  type FieldDefinition,
  type Fields,
} from '@mizan/contracts';
import { validationMessage } from '@mizan/i18n';
import { fieldKind } from '../fields/registry';
import type { EntityRow } from '../fields/types';
import type { EntityText } from './labels';

export type FormMode = 'create' | 'update';

/** A zod issue as `issueMessage` reads it (zod's own type is not a dependency of ui). */
type Issue = Parameters<typeof issueMessage>[0];

/**
 * Fields the form shows: not those kept out of forms, nor on update those an update does not
 * change (create-only ones, and those set on create that only an action changes afterwards).
 */
export function formFieldNames(entity: Entity<Fields>, mode: FormMode): string[] {
  return Object.entries(entity.fields)
    .filter(([, field]) => field.form !== false && !(mode === 'update' && !updatable(field)))
    .map(([name]) => name);
}

/** Whether an update's form may change `field`. */
export const updatable = (field: FieldDefinition): boolean =>
  !field.createOnly && !setByServer(field, 'update');

/** The schema the server validates the same request with. */
export function schemaFor(entity: Entity<Fields>, mode: FormMode) {
  return mode === 'create' ? createSchema(entity) : updateSchema(entity);
}

/** Shown with a required mark: the user must fill it (a default or a kept stored value excuses it). */
export function isRequiredInForm(field: FieldDefinition, mode: FormMode): boolean {
  return Boolean(field.required) && field.default === undefined && !(mode === 'update' && field.writeOnly);
}

/** Form values of a row (update) or of the definition's defaults (create). */
export function initialFormValues(
  entity: Entity<Fields>,
  text: EntityText,
  names: string[],
  row: EntityRow | undefined,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const field = entity.fields[name];
    if (!field) continue;
    const source = row ? (field.writeOnly ? undefined : row[name]) : (field.default ?? undefined);
    values[name] = fieldKind(field).toForm(source, text.context(name));
  }
  if (entity.status) values.status = row ? row.status !== false : true;
  return values;
}

/** Form values to the request body (files apart: they travel as multipart parts). */
export function formToBody(
  entity: Entity<Fields>,
  text: EntityText,
  names: string[],
  values: Record<string, unknown>,
  mode: FormMode,
): { body: Record<string, unknown>; files: Record<string, File[]> } {
  const body: Record<string, unknown> = {};
  const files: Record<string, File[]> = {};
  for (const name of names) {
    const field = entity.fields[name];
    if (!field) continue;
    const value = fieldKind(field).fromForm(values[name], text.context(name));
    if (field.type === 'files') {
      files[name] = value as File[];
      continue;
    }
    // Left out rather than null: a blank write-only field on update keeps the stored password, and
    // a blank field with a default gets the server's default on create.
    if (
      value === null &&
      ((mode === 'update' && field.writeOnly) || (mode === 'create' && field.default !== undefined))
    )
      continue;
    body[name] = value;
  }
  if (entity.status && typeof values.status === 'boolean') body.status = values.status;
  return { body, files };
}

/** One zod issue as a translated sentence with the field's label. */
export function issueText(issue: Issue, text: EntityText): { field: string | undefined; message: string } {
  const field = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
  const { key, params } = issueMessage(issue);
  return { field, message: validationMessage(text.t, key, { ...params, label: text.label(field ?? '') }) };
}
