import { Typography } from 'antd';
import { DATE_FORMAT, DATETIME_FORMAT, parseDateValue } from './dayjs';
import { formatHijri } from './hijri';

export interface DualDateProps {
  /** Wire value: `YYYY-MM-DD` for a date, an ISO instant for a datetime. */
  value: string | null | undefined;
  type?: 'date' | 'datetime';
  /** Hide the Hijri date (narrow places). */
  gregorianOnly?: boolean;
}

/**
 * A Gregorian date with its Hijri (Umm al-Qura) date beside it in Arabic.
 *
 * @example <DualDate value="2024-05-01" /> // 5/1/2024 · ٢٢ شوال ١٤٤٥ هـ
 */
export function DualDate({ value, type = 'date', gregorianOnly = false }: DualDateProps) {
  const date = parseDateValue(value, type);
  if (!date) return null;
  const gregorian = date.format(type === 'date' ? DATE_FORMAT : DATETIME_FORMAT);
  return (
    <span className="mizan-dual-date" style={{ whiteSpace: 'nowrap' }}>
      <bdi>{gregorian}</bdi>
      {!gregorianOnly && (
        <Typography.Text type="secondary" lang="ar" style={{ marginInlineStart: 8, fontSize: '0.85em' }}>
          <bdi>{formatHijri(date.toDate())}</bdi>
        </Typography.Text>
      )}
    </span>
  );
}
