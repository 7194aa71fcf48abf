import { useContext, useMemo, useState, type CSSProperties } from 'react';
import { ConfigProvider, DatePicker, Flex, InputNumber, Segmented, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { normalizeDigits } from '@mizan/contracts';
import { DATE_FORMAT, DATETIME_FORMAT, dayjs } from './dayjs';
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

export interface DateInputProps {
  /** A dayjs day (the form value); `onChange` hands back one, or null when cleared. */
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
  const picker = (
    <DatePicker
      id={id}
      {...aria}
      locale={locale}
      value={value ?? null}
      onChange={(d: Dayjs | null) => onChange?.(d)}
      format={type === 'date' ? DATE_FORMAT : DATETIME_FORMAT}
      showTime={type === 'datetime' ? { format: 'HH:mm' } : false}
      style={{ width: '100%', ...style }}
    />
  );
  if (type === 'datetime') return picker;
  const parts = value
    ? formatDateParts(value.format('YYYY-MM-DD'), 'date', { ...dateStyle, calendar: mode })
    : null;
  return (
    <Flex vertical gap={4}>
      <Flex gap={8} align="center">
        <div style={{ flex: 1, minWidth: 0 }}>
          {mode === 'gregorian' ? (
            picker
          ) : (
            <HijriFields id={id} value={value ?? null} onChange={(d) => onChange?.(d)} lng={dateStyle.lng} />
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
