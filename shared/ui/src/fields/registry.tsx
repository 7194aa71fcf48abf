import { ColorPicker, DatePicker, Input, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import type {
  DateField,
  FieldDefinition,
  FilesField,
  NumberField,
  StoredFile,
  StringField,
} from '@mizan/contracts';
import { DualDate } from '../dates/DualDate';
import {
  DATE_FORMAT,
  DATETIME_FORMAT,
  ISO_DATE_FORMAT,
  dayjs,
  parseDateValue,
  toDateValue,
} from '../dates/dayjs';
import { formatDateText } from '../dates/format';
import { FilesInput } from './FilesInput';
import { RefSelect } from './RefSelect';
import { refLabels } from './refs';
import { TextFilter } from './TextFilter';
import type { EntityRow, FieldContext, FieldKind, FieldRegistry, FilterControlProps } from './types';

const empty = (v: unknown) => v === null || v === undefined || v === '';
const str = (v: unknown) => (empty(v) ? '' : String(v));

/** `entities.<entity>.values.<field>.<value>`, the value itself when untranslated. */
export function enumLabel(ctx: Pick<FieldContext, 'entity' | 'name' | 't'>, value: string): string {
  return ctx.t(`${ctx.entity.name}.values.${ctx.name}.${value}`, { ns: 'entities', defaultValue: value });
}

const yesNo = (ctx: FieldContext, v: unknown) => ctx.t(v ? 'values.yes' : 'values.no', { ns: 'ui' });

/** A yes/no select for boolean filters (also used for the status and banned system filters). */
export function BooleanFilter({
  value,
  onChange,
  label,
  yes,
  no,
}: FilterControlProps & { label: string; yes: string; no: string }) {
  return (
    <Select
      aria-label={label}
      placeholder={label}
      allowClear
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      options={[
        { value: 'true', label: yes },
        { value: 'false', label: no },
      ]}
      style={{ minWidth: 140 }}
    />
  );
}

/** Shared by every free-text type: plain strings in the table, in the form and in the export. */
function textKind(
  input: (ctx: FieldContext<StringField>) => React.ReactNode,
  cell?: (value: string) => React.ReactNode,
): FieldKind<StringField> {
  return {
    cell: (v) =>
      empty(v) ? null : cell ? (
        cell(String(v))
      ) : (
        <Typography.Text ellipsis={{ tooltip: String(v) }}>{String(v)}</Typography.Text>
      ),
    text: (v) => str(v),
    filter: (ctx, props) => <TextFilter label={ctx.label} {...props} />,
    input,
    toForm: (v) => (empty(v) ? undefined : v),
    // Optional text left blank is stored as null; a required one stays '' so the schema says "blank".
    fromForm: (v, ctx) => (typeof v === 'string' && v.trim() === '' && !ctx.field.required ? null : v),
  };
}

const maxLength = (field: { max?: number }) => field.max;

function numberKind(integer: boolean): FieldKind<NumberField> {
  return {
    cell: (v, _row, ctx) => (typeof v === 'number' ? new Intl.NumberFormat(ctx.lng).format(v) : null),
    text: (v) => (typeof v === 'number' ? v : ''),
    filter: (ctx, { value, onChange }) => (
      <InputNumber
        aria-label={ctx.label}
        placeholder={ctx.label}
        value={value === undefined ? null : Number(value)}
        onChange={(v) => onChange(v === null || v === undefined ? undefined : String(v))}
        style={{ minWidth: 120 }}
      />
    ),
    input: (ctx) => (
      <InputNumber
        min={ctx.field.min}
        max={ctx.field.max}
        precision={integer ? 0 : undefined}
        style={{ width: '100%' }}
      />
    ),
    toForm: (v) => (typeof v === 'number' ? v : undefined),
    fromForm: (v) => (v === undefined || v === '' ? null : v),
  };
}

function dateKind(type: 'date' | 'datetime'): FieldKind<DateField> {
  return {
    cell: (v) => <DualDate value={typeof v === 'string' ? v : null} type={type} />,
    // Exported as "Gregorian (Hijri)" so the sheet carries both calendars like the screen.
    text: (v) => formatDateText(typeof v === 'string' ? v : null, type),
    filter: (ctx, { value, onChange }) => (
      <DatePicker
        aria-label={ctx.label}
        placeholder={ctx.label}
        format={DATE_FORMAT}
        value={value ? dayjs(value, ISO_DATE_FORMAT) : null}
        onChange={(d: Dayjs | null) => onChange(d ? d.format(ISO_DATE_FORMAT) : undefined)}
      />
    ),
    input: () => (
      <DatePicker
        format={type === 'date' ? DATE_FORMAT : DATETIME_FORMAT}
        showTime={type === 'datetime' ? { format: 'HH:mm' } : false}
        style={{ width: '100%' }}
      />
    ),
    toForm: (v) => parseDateValue(typeof v === 'string' ? v : null, type) ?? undefined,
    fromForm: (v) => (dayjs.isDayjs(v) ? toDateValue(v, type) : null),
  };
}

/**
 * The field-type registry: each contracts field type is mapped once to its list cell, export
 * value, filter control and form input. Screens never switch on a field type themselves.
 */
export const fieldRegistry: FieldRegistry = {
  string: textKind((ctx) => <Input maxLength={maxLength(ctx.field)} allowClear />),
  text: textKind((ctx) => (
    <Input.TextArea maxLength={maxLength(ctx.field)} autoSize={{ minRows: 2, maxRows: 8 }} showCount />
  )),
  email: textKind(
    (ctx) => <Input type="email" dir="ltr" maxLength={maxLength(ctx.field)} autoComplete="off" allowClear />,
    (v) => (
      <a href={`mailto:${v}`} dir="ltr">
        {v}
      </a>
    ),
  ),
  phone: textKind(
    (ctx) => <Input type="tel" dir="ltr" maxLength={maxLength(ctx.field)} allowClear />,
    (v) => (
      <a href={`tel:${v.replace(/[^+0-9]/g, '')}`} dir="ltr">
        {v}
      </a>
    ),
  ),
  url: textKind(
    (ctx) => <Input type="url" dir="ltr" maxLength={maxLength(ctx.field)} allowClear />,
    (v) => (
      <a href={v} target="_blank" rel="noreferrer noopener" dir="ltr">
        {v}
      </a>
    ),
  ),
  password: textKind((ctx) => (
    <Input.Password maxLength={maxLength(ctx.field)} autoComplete="new-password" />
  )),
  color: {
    cell: (v) =>
      empty(v) ? null : (
        <Space size={6}>
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              inlineSize: 14,
              blockSize: 14,
              borderRadius: 3,
              background: String(v),
              border: '1px solid rgba(0,0,0,0.15)',
            }}
          />
          <bdi dir="ltr">{String(v)}</bdi>
        </Space>
      ),
    text: (v) => str(v),
    filter: (ctx, props) => <TextFilter label={ctx.label} {...props} />,
    input: () => <ColorPicker format="hex" showText disabledAlpha allowClear />,
    toForm: (v) => (empty(v) ? undefined : v),
    fromForm: (v) => {
      if (empty(v)) return null;
      if (typeof v === 'string') return v;
      // ColorPicker hands back a Color object; the wire format is `#rrggbb`.
      const color = v as { toHexString?: () => string; cleared?: boolean };
      return color.cleared ? null : (color.toHexString?.() ?? null);
    },
  },
  integer: numberKind(true),
  number: numberKind(false),
  boolean: {
    cell: (v, _row, ctx) => (empty(v) ? null : <Tag color={v ? 'green' : 'default'}>{yesNo(ctx, v)}</Tag>),
    text: (v, _row, ctx) => (empty(v) ? '' : yesNo(ctx, v)),
    filter: (ctx, props) => (
      <BooleanFilter label={ctx.label} yes={yesNo(ctx, true)} no={yesNo(ctx, false)} {...props} />
    ),
    input: () => <Switch />,
    valuePropName: 'checked',
    toForm: (v) => v === true,
    fromForm: (v) => v === true,
  },
  date: dateKind('date'),
  datetime: dateKind('datetime'),
  enum: {
    cell: (v, _row, ctx) => (empty(v) ? null : <Tag>{enumLabel(ctx, String(v))}</Tag>),
    text: (v, _row, ctx) => (empty(v) ? '' : enumLabel(ctx, String(v))),
    filter: (ctx, { value, onChange }) => (
      <Select
        aria-label={ctx.label}
        placeholder={ctx.label}
        allowClear
        value={value}
        onChange={(v) => onChange(v ?? undefined)}
        options={ctx.field.values.map((v) => ({ value: v, label: enumLabel(ctx, v) }))}
        style={{ minWidth: 160 }}
      />
    ),
    input: (ctx) => (
      <Select
        allowClear={!ctx.field.required}
        options={ctx.field.values.map((v) => ({ value: v, label: enumLabel(ctx, v) }))}
      />
    ),
    toForm: (v) => (empty(v) ? undefined : v),
    fromForm: (v) => (empty(v) ? null : v),
  },
  ref: {
    cell: (_v, row, ctx) => refLabels(row, ctx.name, ctx.field)[0]?.name ?? null,
    text: (_v, row, ctx) => refLabels(row, ctx.name, ctx.field)[0]?.name ?? '',
    filter: (ctx, { value, onChange }) => (
      <RefSelect
        entity={ctx.field.entity}
        aria-label={ctx.label}
        placeholder={ctx.label}
        value={value ? Number(value) : null}
        onChange={(v) => onChange(typeof v === 'number' ? String(v) : undefined)}
      />
    ),
    input: (ctx, row) => <RefSelect entity={ctx.field.entity} known={refLabels(row, ctx.name, ctx.field)} />,
    toForm: (v) => (typeof v === 'number' ? v : undefined),
    fromForm: (v) => (typeof v === 'number' ? v : null),
  },
  refs: {
    cell: (_v, row, ctx) => (
      <Space size={[4, 4]} wrap>
        {refLabels(row, ctx.name, ctx.field).map((ref) => (
          <Tag key={ref.id}>{ref.name}</Tag>
        ))}
      </Space>
    ),
    text: (_v, row, ctx) =>
      refLabels(row, ctx.name, ctx.field)
        .map((ref) => ref.name)
        .join('، '),
    filter: (ctx, { value, onChange }) => (
      <RefSelect
        entity={ctx.field.entity}
        aria-label={ctx.label}
        placeholder={ctx.label}
        value={value ? Number(value) : null}
        onChange={(v) => onChange(typeof v === 'number' ? String(v) : undefined)}
      />
    ),
    input: (ctx, row) => (
      <RefSelect entity={ctx.field.entity} multiple known={refLabels(row, ctx.name, ctx.field)} />
    ),
    toForm: (v) => (Array.isArray(v) ? v : []),
    fromForm: (v) => (Array.isArray(v) ? v : []),
  },
  files: {
    cell: (v) => (Array.isArray(v) && v.length ? <Tag>{v.length}</Tag> : null),
    text: (v) => (Array.isArray(v) ? (v as StoredFile[]).map((f) => f.originalName).join('، ') : ''),
    // Files are never a list filter; the registry still answers so every type is total.
    filter: () => null,
    input: (ctx, row) => (
      <FilesInput
        entity={ctx.entity}
        field={ctx.field as FilesField}
        existing={(row?.[ctx.name] as StoredFile[] | undefined) ?? []}
        ownerId={row?.id}
      />
    ),
    toForm: () => [],
    fromForm: (v) => (Array.isArray(v) ? v : []),
  },
};

/** The registry entry for a field, typed loosely for generic callers. */
export function fieldKind(field: FieldDefinition): FieldKind {
  return fieldRegistry[field.type] as unknown as FieldKind;
}

export type { EntityRow };
