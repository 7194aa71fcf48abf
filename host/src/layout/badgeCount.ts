import { formatNumber } from '@mizan/ui';

/** The most a header badge counts before it shows "99+". */
const MAX = 99;

/**
 * A header badge's count in the language's digits, as its button's label says it (a label read
 * "٣" beside a badge drawn "3" is two different names for one button). 0 hides the badge.
 */
export function badgeCount(count: number, lng: string): number | string {
  if (count <= 0) return 0;
  return count > MAX ? `${formatNumber(MAX, lng)}+` : formatNumber(count, lng);
}
