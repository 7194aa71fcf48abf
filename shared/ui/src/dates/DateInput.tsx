import { useContext, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { ConfigProvider, DatePicker, Flex, InputNumber, Segmented, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { normalizeDigits } from '@mizan/contracts';
import { DATE_FORMAT, DATETIME_FORMAT, dayjs } from './dayjs';
import { parseTypedDate, typedDateFormats } from './typedDate';
import { formatDateParts, type Calendar } from './format';
import { fromHijri, HIJRI_YEARS, hijriMonthLength, hijriMonthNames, toHijri, type HijriDay } from './hijri';
import { useDateStyle } from './useDateStyle';

type PickerLocale = NonNullable<React.ComponentProps<typeof DatePicker>['locale']>;

/**
 * The date picker locale of the page with one-letter weekday headers: antd's Arabic locale names
 * the days in full ("الأحد"...), which run together in the narrow header ("السبتالجمعة").
 */
export function usePickerLocale(): PickerLocale | undefined {
  const picker = useContext(ConfigProvider.ConfigContext).locale?.DatePicker;
  return useMemo(() => {
    if (!picker) return undefined;
    // antd's dayjs adapter names locales `ar_EG`; dayjs knows them as `ar`.
    const lang = picker.lang.locale.split('_')[0] ?? 'en';
    return {
      ...picker,
      lang: { ...picker.lang, shortWeekDays: dayjs().locale(lang).localeData().weekdaysMin() },
    };
  }, [picker]);
}

/** An input's value setter that React's change tracking does not see, so the edit still counts as typed. */
const setTypedValue = (input: HTMLInputElement, value: string) =>
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);

/** Whether a date input holds text that is no date (`DateInput` hands back an invalid dayjs for it). */
export const isUnreadableDate = (value: unknown): boolean => dayjs.isDayjs(value) && !value.isValid();

/**
 * The form rule that refuses a date typed as text that is no date (the input says why beside it).
 *
 * @example <Form.Item name="day" rules={[unreadableDateRule(t('dates.unreadableRule', { ns: 'ui' }))]}><DateInput /></Form.Item>
 */
export const unreadableDateRule = (message: string) => ({
  validator: (_: unknown, value: unknown) =>
    isUnreadableDate(value) ? Promise.reject(new Error(message)) : Promise.resolve(),
});

export interface TypedDatePickerProps extends Omit<
  React.ComponentProps<typeof DatePicker>,
  'onChange' | 'value'
> {
  value: Dayjs | null;
  onChange: (value: Dayjs | null) => void;
  type: 'date' | 'datetime';
  /** Text typed that is no date, on leaving the input (or null once a date or nothing is typed). */
  onUnreadable: (text: string | null) => void;
}

/**
 * antd's DatePicker reading what people type: one- or two-digit day and month, month/day/year
 * or year-month-day, `/`, `-` or `.`, Arabic-Indic digits (turned to ASCII as they are typed, so
 * the picker reads them); text that is no date stays in the input and is reported on leaving it,
 * never cleared.
 */
export function TypedDatePicker({ value, onChange, type, onUnreadable, ...props }: TypedDatePickerProps) {
  const box = useRef<HTMLSpanElement>(null);
  const display = type === 'date' ? DATE_FORMAT : DATETIME_FORMAT;
  const formats = useMemo(() => typedDateFormats(display, type), [display, type]);
  const latest = useRef({ value, onChange, onUnreadable });
  latest.current = { value, onChange, onUnreadable };
  useEffect(() => {
    const root = box.current;
    if (!root) return undefined;
    const digits = (event: Event) => {
      const input = event.target as HTMLInputElement;
      if (input.tagName !== 'INPUT') return;
      const ascii = normalizeDigits(input.value);
      if (ascii === input.value) return;
      // One ASCII digit for each Eastern one: the caret stays where it was.
      const { selectionStart, selectionEnd } = input;
      setTypedValue(input, ascii);
      input.setSelectionRange(selectionStart, selectionEnd);
    };
    const left = (event: Event) => {
      const input = event.target as HTMLInputElement;
      if (input.tagName !== 'INPUT') return;
      const typed = parseTypedDate(input.value, type);
      const { value: current, onChange: change, onUnreadable: report } = latest.current;
      if (typed.kind === 'unreadable') return report(typed.text);
      report(null);
      if (typed.kind === 'date' && !(current?.isValid() && current.isSame(typed.value, 'minute')))
        change(typed.value);
    };
    root.addEventListener('input', digits, true);
    root.addEventListener('focusout', left, true);
    return () => {
      root.removeEventListener('input', digits, true);
      root.removeEventListener('focusout', left, true);
    };
  }, [type]);
  return (
    <span ref={box} style={{ display: 'block' }}>
      <DatePicker
        {...props}
        value={value}
        onChange={(d) => onChange((d as Dayjs | null) ?? null)}
        format={formats}
        preserveInvalidOnBlur
        showTime={type === 'datetime' ? { format: 'HH:mm' } : false}
      />
    </span>
  );
}

export interface DateInputProps {
  /**
   * A dayjs day (the form value); `onChange` hands back one, null when cleared, or an invalid
   * dayjs while the text typed is no date (`isUnreadableDate`: the form refuses it).
   */
  value?: Dayjs | null;
  onChange?: (value: Dayjs | null) => void;
  type?: 'date' | 'datetime';
  id?: string;
  'aria-label'?: string;
  placeholder?: string;
  style?: CSSProperties;
}

/**
 * A date input that takes a Gregorian date from the picker (M/D/YYYY, weeks from Sunday) or a Hijri
 * date as day, month and year; either way the value is the Gregorian day the form stores.
 * Datetimes are picked in Gregorian only (the time has no Hijri form).
 */
export function DateInput({ value, onChange, type = 'date', id, style, ...aria }: DateInputProps) {
  const { t } = useTranslation('ui');
  const dateStyle = useDateStyle();
  const locale = usePickerLocale();
  const [mode, setMode] = useState<Calendar>('gregorian');
  const [unreadable, setUnreadable] = useState<string | null>(null);
  // The last day read: the picker keeps it (and the text typed over it) while the text is no date.
  const lastDay = useRef<Dayjs | null>(null);
  const readable = value && value.isValid() ? value : null;
  if (!value || value.isValid()) lastDay.current = readable;
  useEffect(() => {
    if (!value || value.isValid()) setUnreadable(null);
  }, [value]);
  const picker = (
    <TypedDatePicker
      id={id}
      {...aria}
      type={type}
      locale={locale}
      value={lastDay.current}
      onChange={(d) => {
        setUnreadable(null);
        onChange?.(d);
      }}
      onUnreadable={(text) => {
        setUnreadable(text);
        if (text !== null) onChange?.(dayjs(null));
      }}
      status={unreadable ? 'error' : undefined}
      style={{ width: '100%', ...style }}
    />
  );
  const hint = unreadable && (
    <Typography.Text type="danger" role="alert" style={{ fontSize: '0.85em' }}>
      {t('dates.unreadable', { text: unreadable })}
    </Typography.Text>
  );
  if (type === 'datetime')
    return (
      <Flex vertical gap={4}>
        {picker}
        {hint}
      </Flex>
    );
  const parts = readable
    ? formatDateParts(readable.format('YYYY-MM-DD'), 'date', { ...dateStyle, calendar: mode })
    : null;
  return (
    <Flex vertical gap={4}>
      <Flex gap={8} align="center">
        <div style={{ flex: 1, minWidth: 0 }}>
          {mode === 'gregorian' ? (
            picker
          ) : (
            <HijriFields id={id} value={readable} onChange={(d) => onChange?.(d)} lng={dateStyle.lng} />
          )}
        </div>
        <Segmented<Calendar>
          aria-label={t('dates.calendar')}
          size="small"
          value={mode}
          onChange={setMode}
          options={[
            { value: 'gregorian', label: t('dates.gregorian') },
            { value: 'hijri', label: t('dates.hijri') },
          ]}
        />
      </Flex>
      {mode === 'gregorian' && hint}
      {parts && (
        <Typography.Text type="secondary" style={{ fontSize: '0.85em' }}>
          {t('dates.equals', { date: parts.secondary })}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Day, month and year of the Hijri calendar; a complete, existing date becomes the value. */
function HijriFields({
  id,
  value,
  onChange,
  lng,
}: {
  id?: string;
  value: Dayjs | null;
  onChange: (value: Dayjs | null) => void;
  lng: string;
}) {
  const { t } = useTranslation('ui');
  const [draft, setDraft] = useState<Partial<HijriDay>>(() => (value ? toHijri(value.toDate()) : {}));
  const months = useMemo(() => hijriMonthNames(lng), [lng]);
  const length = draft.year && draft.month ? hijriMonthLength(draft.year, draft.month) : 30;
  const update = (patch: Partial<HijriDay>) => {
    const next = { ...draft, ...patch };
    if (next.day && next.year && next.month && next.day > hijriMonthLength(next.year, next.month))
      next.day = undefined;
    setDraft(next);
    const day = next.day && next.month && next.year ? fromHijri(next as HijriDay) : null;
    onChange(day ? dayjs(day) : null);
  };
  return (
    <Space.Compact block>
      <Select
        id={id}
        aria-label={t('dates.day')}
        placeholder={t('dates.day')}
        value={draft.day}
        onChange={(day: number) => update({ day })}
        options={Array.from({ length }, (_, i) => ({ value: i + 1, label: String(i + 1) }))}
        style={{ width: '28%' }}
      />
      <Select
        aria-label={t('dates.month')}
        placeholder={t('dates.month')}
        value={draft.month}
        onChange={(month: number) => update({ month })}
        options={months.map((label, i) => ({ value: i + 1, label }))}
        style={{ width: '42%' }}
      />
      <InputNumber<number>
        aria-label={t('dates.year')}
        placeholder={t('dates.year')}
        min={HIJRI_YEARS.min}
        max={HIJRI_YEARS.max}
        precision={0}
        value={draft.year ?? null}
        // Years typed on an Arabic keyboard (١٤٤٦) count as digits.
        parser={(s) => Number(normalizeDigits(s ?? '').replace(/[^0-9]/g, ''))}
        onChange={(year) => update({ year: year ?? undefined })}
        style={{ width: '30%' }}
      />
    </Space.Compact>
  );
}
