import { Typography } from 'antd';
import { formatDateParts } from './format';
import { useDateStyle } from './useDateStyle';

export interface DualDateProps {
  /** Wire value: `YYYY-MM-DD` for a date, an ISO instant for a datetime. */
  value: string | null | undefined;
  type?: 'date' | 'datetime';
  /** Only the office's first calendar (narrow places); the other shows on hover. */
  primaryOnly?: boolean;
  /**
   * The second calendar on a line of its own, under the first (table cells: the column is as wide
   * as the longer date, not both side by side, so a list fits the screen's width).
   */
  stacked?: boolean;
}

/**
 * A date in both calendars, the office's first calendar (system setting) first, in the interface
 * language with its digits.
 *
 * @example <DualDate value="2024-05-01" /> // ٢٢ شوال ١٤٤٥ هـ · ٥/١/٢٠٢٤ (Arabic, Hijri first)
 */
export function DualDate({ value, type = 'date', primaryOnly = false, stacked = false }: DualDateProps) {
  const parts = formatDateParts(value, type, useDateStyle());
  if (!parts) return null;
  return (
    <span
      className="mizan-dual-date"
      style={{
        whiteSpace: 'nowrap',
        ...(stacked ? { display: 'inline-flex', flexDirection: 'column' } : {}),
      }}
      title={primaryOnly ? parts.secondary : undefined}
    >
      <bdi>{parts.primary}</bdi>
      {!primaryOnly && (
        <Typography.Text
          type="secondary"
          style={{
            marginInlineStart: stacked ? 0 : 8,
            fontSize: '0.85em',
            lineHeight: stacked ? 1.3 : undefined,
          }}
        >
          <bdi>{parts.secondary}</bdi>
        </Typography.Text>
      )}
    </span>
  );
}
