import { ColorPicker, Input, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import type {
  DateField,
  DurationField,
  FieldDefinition,
  FilesField,
  MoneyField,
  NumberField,
  StoredFile,
  StringField,
} from '@mizan/contracts';
import {
  MONEY_DECIMALS,
  formatDuration,
  moneyToMajor,
  normalizeDigits,
  parseDuration,
  parseMoney,
  textMaxLength,
} from '@mizan/contracts';
import { DateInput, TypedDatePicker, usePickerLocale } from '../dates/DateInput';
import { DualDate } from '../dates/DualDate';
import { ISO_DATE_FORMAT, dayjs, parseDateValue, toDateValue } from '../dates/dayjs';
import { exportDate } from '../dates/format';
import { FilesInput } from './FilesInput';
import { formatNumber } from './numbers';
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

/**
 * The character counter of a text input, its limit from the definition (`textMaxLength`). Text
 * over it is kept as typed or pasted, shown over the limit and refused by the field's check with
 * the reason: never cut to fit, as the native `maxlength` would cut a paste mid-word.
 */
export const textLimit = (field: { type: string; max?: number }) => textCount(textMaxLength(field));

/** The counter of a text input of at most `max` characters (`textLimit` for a field's own). */
export const textCount = (max: number) => ({ count: { show: true, max } });

/**
 * What a number input reads: Arabic-Indic and Persian digits as ASCII, the Arabic decimal
 * separator as a point, grouping separators dropped (antd's own parser would drop the digits).
 */
export const parseNumberInput = (text: string | undefined): string =>
  normalizeDigits(text ?? '')
    .replace(/\u066B/g, '.')
    .replace(/[^0-9.+-]/g, '');

function numberKind(integer: boolean): FieldKind<NumberField> {
  return {
    cell: (v, _row, ctx) =>
      typeof v === 'number' ? <bdi>{formatNumber(v, ctx.lng, ctx.field.code)}</bdi> : null,
    text: (v) => (typeof v === 'number' ? v : ''),
    filter: (ctx, { value, onChange }) => (
      <InputNumber<string>
        aria-label={ctx.label}
        placeholder={ctx.label}
        stringMode
        parser={parseNumberInput}
        value={value === undefined ? null : value}
        onChange={(v) => onChange(v === null || v === undefined || v === '' ? undefined : String(v))}
        style={{ minWidth: 120 }}
      />
    ),
    input: (ctx) => (
      <InputNumber<number>
        min={ctx.field.min}
        max={ctx.field.max}
        precision={integer ? 0 : undefined}
        parser={(text) => Number(parseNumberInput(text))}
        style={{ width: '100%' }}
      />
    ),
    toForm: (v) => (typeof v === 'number' ? v : undefined),
    fromForm: (v) => (v === undefined || v === '' ? null : v),
  };
}

/**
 * An amount (minor units on the wire, see contracts money.ts) in major units with
 * `MONEY_DECIMALS` places, in the interface language's digits and separators. The digits go to
 * Intl as text, so no amount is rounded through a float.
 *
 * @example formatMoney(123450, 'en') // '1,234.50'
 */
export function formatMoney(minor: number, lng: string): string {
  return new Intl.NumberFormat(lng.startsWith('ar') ? 'ar-EG' : 'en', {
    minimumFractionDigits: MONEY_DECIMALS,
    maximumFractionDigits: MONEY_DECIMALS,
  }).format(moneyToMajor(minor) as `${number}`);
}

/** A major-unit text from a money input → minor units; text that is no amount is kept for the schema to report. */
const moneyFromText = (v: unknown): unknown => {
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
  return parseMoney(String(v)) ?? v;
};

const moneyKind: FieldKind<MoneyField> = {
  cell: (v, _row, ctx) => (typeof v === 'number' ? <bdi>{formatMoney(v, ctx.lng)}</bdi> : null),
  // Major units as a number, so spreadsheets can sum the column (exact to the cent within MONEY_MAX).
  text: (v) => (typeof v === 'number' ? Number(moneyToMajor(v)) : ''),
  filter: (ctx, { value, onChange }) => (
    <InputNumber<string>
      aria-label={ctx.label}
      placeholder={ctx.label}
      stringMode
      precision={MONEY_DECIMALS}
      parser={parseNumberInput}
      value={value === undefined ? null : moneyToMajor(Number(value))}
      onChange={(v) => {
        const minor = v === null || v === undefined ? null : parseMoney(String(v));
        onChange(minor === null ? undefined : String(minor));
      }}
      style={{ minWidth: 140 }}
    />
  ),
  // stringMode: the typed amount stays text until parseMoney turns it into minor units exactly.
  input: (ctx) => (
    <InputNumber<string>
      stringMode
      min={moneyToMajor(ctx.field.min ?? 0)}
      precision={MONEY_DECIMALS}
      step="1"
      parser={parseNumberInput}
      style={{ width: '100%' }}
    />
  ),
  toForm: (v) => (typeof v === 'number' ? moneyToMajor(v) : undefined),
  fromForm: (v) => moneyFromText(v),
};

/**
 * A duration (minutes on the wire) in words with the language's number agreement: "ساعتان و١٥
 * دقيقة", "3 hours 15 minutes".
 */
export function durationWords(minutes: number, t: FieldContext['t']): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const h = t('duration.hours', { ns: 'ui', count: hours });
  const m = t('duration.minutes', { ns: 'ui', count: rest });
  if (!hours) return m;
  return rest ? t('duration.both', { ns: 'ui', hours: h, minutes: m }) : h;
}

/** Typed as `h:mm` or decimal hours (both read, Arabic-Indic digits too), shown in words. */
const durationKind: FieldKind<DurationField> = {
  cell: (v, _row, ctx) => (typeof v === 'number' ? <bdi>{durationWords(v, ctx.t)}</bdi> : null),
  // `h:mm`, as time sheets hold it.
  text: (v) => (typeof v === 'number' ? formatDuration(v) : ''),
  filter: (ctx, props) => <TextFilter label={ctx.label} {...props} />,
  input: (ctx) => (
    <Input
      dir="ltr"
      inputMode="decimal"
      placeholder="1:30"
      suffix={<Typography.Text type="secondary">{ctx.t('duration.hint', { ns: 'ui' })}</Typography.Text>}
    />
  ),
  toForm: (v) => (typeof v === 'number' ? formatDuration(v) : undefined),
  // Text that is no duration is kept for the schema to report.
  fromForm: (v) => (empty(v) ? null : typeof v === 'string' ? (parseDuration(v) ?? v) : v),
};

/** Phones and codes keep ASCII digits: what was typed on an Arabic keyboard is stored as ASCII. */
function digitsKind(kind: FieldKind<StringField>): FieldKind<StringField> {
  return {
    ...kind,
    cell: (v, row, ctx) => (empty(v) ? null : <bdi dir="ltr">{kind.cell(v, row, ctx)}</bdi>),
    fromForm: (v, ctx) => kind.fromForm(typeof v === 'string' ? normalizeDigits(v) : v, ctx),
  };
}

/** Plain strings, or codes (`code: true`) read left to right with ASCII digits. */
function codeAware(kind: FieldKind<StringField>): FieldKind<StringField> {
  const code = digitsKind(kind);
  return {
    ...kind,
    cell: (v, row, ctx) => (ctx.field.code ? code : kind).cell(v, row, ctx),
    fromForm: (v, ctx) => (ctx.field.code ? code : kind).fromForm(v, ctx),
  };
}

/** A day filter: the picker in the seed's M/D/YYYY with one-letter weekday headers (`YYYY-MM-DD` in the URL). */
export function DateFilter({ label, value, onChange }: FilterControlProps & { label: string }) {
  const locale = usePickerLocale();
  const [unreadable, setUnreadable] = useState(false);
  return (
    <TypedDatePicker
      type="date"
      aria-label={label}
      placeholder={label}
      locale={locale}
      status={unreadable ? 'error' : undefined}
      value={value ? dayjs(value, ISO_DATE_FORMAT) : null}
      onChange={(d) => onChange(d ? d.format(ISO_DATE_FORMAT) : undefined)}
      onUnreadable={(text) => setUnreadable(text !== null)}
    />
  );
}

/** The body value of a date typed as text that is no date: no date format reads it. */
const UNREADABLE_DATE = 'unreadable';

function dateKind(type: 'date' | 'datetime'): FieldKind<DateField> {
  return {
    cell: (v) => <DualDate value={typeof v === 'string' ? v : null} type={type} stacked />,
    // A real date cell in XLSX; in CSV both calendars as the screen shows them.
    text: (v) => exportDate(typeof v === 'string' ? v : null, type),
    filter: (ctx, props) => <DateFilter label={ctx.label} {...props} />,
    input: () => <DateInput type={type} />,
    toForm: (v) => parseDateValue(typeof v === 'string' ? v : null, type) ?? undefined,
    // Text typed that is no date stays a value the schema refuses ("invalid date format"), so the
    // form cannot be saved as if the field were blank.
    fromForm: (v) => (dayjs.isDayjs(v) ? (v.isValid() ? toDateValue(v, type) : UNREADABLE_DATE) : null),
  };
}

/**
 * The field-type registry: each contracts field type is mapped once to its list cell, export
 * value, filter control and form input. Screens never switch on a field type themselves.
 */
export const fieldRegistry: FieldRegistry = {
  string: codeAware(textKind((ctx) => <Input {...textLimit(ctx.field)} allowClear />)),
  text: textKind((ctx) => <Input.TextArea {...textLimit(ctx.field)} autoSize={{ minRows: 2, maxRows: 8 }} />),
  email: textKind(
    (ctx) => <Input type="email" dir="ltr" {...textLimit(ctx.field)} autoComplete="off" allowClear />,
    (v) => (
      <a href={`mailto:${v}`} dir="ltr">
        {v}
      </a>
    ),
  ),
  phone: digitsKind(
    textKind(
      (ctx) => <Input type="tel" dir="ltr" {...textLimit(ctx.field)} allowClear />,
      (v) => (
        <a href={`tel:${v.replace(/[^+0-9]/g, '')}`} dir="ltr">
          {v}
        </a>
      ),
    ),
  ),
  url: textKind(
    (ctx) => <Input type="url" dir="ltr" {...textLimit(ctx.field)} allowClear />,
    (v) => (
      <a href={v} target="_blank" rel="noreferrer noopener" dir="ltr">
        {v}
      </a>
    ),
  ),
  password: textKind((ctx) => <Input.Password {...textLimit(ctx.field)} autoComplete="new-password" />),
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
  money: moneyKind,
  duration: durationKind,
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
    // A long label wraps within its tag rather than running past its column's cap.
    cell: (v, _row, ctx) =>
      empty(v) ? null : <Tag style={{ whiteSpace: 'normal' }}>{enumLabel(ctx, String(v))}</Tag>,
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
    cell: (_v, row, ctx) => refLabels(row, ctx.name, ctx.field, ctx.lng)[0]?.name ?? null,
    text: (_v, row, ctx) => refLabels(row, ctx.name, ctx.field, ctx.lng)[0]?.name ?? '',
    filter: (ctx, { value, onChange }) => (
      <RefSelect
        entity={ctx.field.entity}
        field={{ entity: ctx.entity.name, name: ctx.name }}
        aria-label={ctx.label}
        placeholder={ctx.label}
        value={value ? Number(value) : null}
        onChange={(v) => onChange(typeof v === 'number' ? String(v) : undefined)}
      />
    ),
    input: (ctx, row) => (
      <RefSelect
        entity={ctx.field.entity}
        field={{ entity: ctx.entity.name, name: ctx.name }}
        known={refLabels(row, ctx.name, ctx.field, ctx.lng)}
      />
    ),
    toForm: (v) => (typeof v === 'number' ? v : undefined),
    fromForm: (v) => (typeof v === 'number' ? v : null),
  },
  refs: {
    cell: (_v, row, ctx) => (
      <Space size={[4, 4]} wrap>
        {/* A long name wraps within its tag rather than widening the list's column. */}
        {refLabels(row, ctx.name, ctx.field, ctx.lng).map((ref) => (
          <Tag key={ref.id} style={{ whiteSpace: 'normal' }}>
            {ref.name}
          </Tag>
        ))}
      </Space>
    ),
    text: (_v, row, ctx) =>
      refLabels(row, ctx.name, ctx.field, ctx.lng)
        .map((ref) => ref.name)
        .join('، '),
    filter: (ctx, { value, onChange }) => (
      <RefSelect
        entity={ctx.field.entity}
        field={{ entity: ctx.entity.name, name: ctx.name }}
        aria-label={ctx.label}
        placeholder={ctx.label}
        value={value ? Number(value) : null}
        onChange={(v) => onChange(typeof v === 'number' ? String(v) : undefined)}
      />
    ),
    input: (ctx, row) => (
      <RefSelect
        entity={ctx.field.entity}
        field={{ entity: ctx.entity.name, name: ctx.name }}
        multiple
        known={refLabels(row, ctx.name, ctx.field, ctx.lng)}
      />
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
