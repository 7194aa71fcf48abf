import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import type { Entity, FieldDefinition, FieldType, Fields, SystemColumns } from '@mizan/contracts';
import type { ExportValue } from '../export/exportFile';

/** A row as the list returns it: system columns, the fields and their joined `{ id, name }` labels. */
export type EntityRow = SystemColumns & Record<string, unknown>;

/** What a field-type renderer gets to know about the field it draws. */
export interface FieldContext<F extends FieldDefinition = FieldDefinition> {
  entity: Entity<Fields>;
  name: string;
  field: F;
  /** The field's translated label (`entities.<entity>.fields.<name>`). */
  label: string;
  t: TFunction;
  /** Current interface language, for number formatting. */
  lng: string;
}

/** A filter control bound to one URL query value (strings in, strings out). */
export interface FilterControlProps {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/**
 * Everything the generic screens need to know about one field type, declared once per type:
 * the list cell, the export value, the filter control and the form input with its value mapping.
 */
export interface FieldKind<F extends FieldDefinition = FieldDefinition> {
  cell: (value: unknown, row: EntityRow, ctx: FieldContext<F>) => ReactNode;
  /** Plain value written to CSV/XLSX (numbers stay numbers so spreadsheets can sum them, dates dates). */
  text: (value: unknown, row: EntityRow, ctx: FieldContext<F>) => ExportValue;
  filter: (ctx: FieldContext<F>, props: FilterControlProps) => ReactNode;
  /** The form control; `row` is the edited row (undefined on create). */
  input: (ctx: FieldContext<F>, row: EntityRow | undefined) => ReactNode;
  /** Form.Item `valuePropName` when the control is not value/onChange (switches). */
  valuePropName?: string;
  /** API value to form value. */
  toForm: (value: unknown, ctx: FieldContext<F>) => unknown;
  /** Form value to the API value that the zod schema checks. */
  fromForm: (value: unknown, ctx: FieldContext<F>) => unknown;
}

/** The definition interface of a field type (`'email'` → StringField); `Extract` fails on union-typed kinds. */
export type FieldOf<T extends FieldType> = FieldDefinition extends infer D
  ? D extends { type: infer U }
    ? T extends U
      ? D
      : never
    : never
  : never;

export type FieldRegistry = { [T in FieldType]: FieldKind<FieldOf<T>> };
