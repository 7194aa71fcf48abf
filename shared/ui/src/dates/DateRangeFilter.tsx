import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateInput } from './DateInput';
import { parseDateValue, toDateValue } from './dayjs';

/** A range of days, `YYYY-MM-DD` each end, either end open. */
export interface DateRange {
  from?: string;
  to?: string;
}

/** Whether the range starts after it ends (a list or report is then not asked for). */
export const rangeReversed = (range: DateRange): boolean =>
  !!range.from && !!range.to && range.from > range.to;

export interface DateRangeFilterProps {
  value: DateRange;
  /** The end that changed (`{ from }` or `{ to }`), `undefined` when it was cleared. */
  onChange: (change: DateRange) => void;
}

/**
 * The "from … to …" filter of a dashboard, report or statement: two labelled date inputs, and,
 * when the start is after the end, the message saying so (the caller leaves the query out).
 */
export function DateRangeFilter({ value, onChange }: DateRangeFilterProps) {
  const { t } = useTranslation('ui');
  const day = (picked: Parameters<typeof toDateValue>[0]) => toDateValue(picked, 'date') ?? undefined;
  return (
    <Flex wrap gap={12} align="center" data-testid="date-range">
      {(['from', 'to'] as const).map((key) => (
        <Flex gap={8} align="center" key={key}>
          <Typography.Text type="secondary">{t(`dateRange.${key}`)}</Typography.Text>
          <DateInput
            aria-label={t(`dateRange.${key}`)}
            value={parseDateValue(value[key], 'date')}
            onChange={(picked) => onChange({ [key]: day(picked) })}
          />
        </Flex>
      ))}
      {rangeReversed(value) && (
        <Typography.Text type="danger" role="alert">
          {t('dateRange.fromAfterTo')}
        </Typography.Text>
      )}
    </Flex>
  );
}
