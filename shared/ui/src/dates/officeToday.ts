import { dayInZone, DEFAULT_TIME_ZONE, isTimeZone } from '@mizan/contracts';
import { sdkStore, systemSettingsAtom } from '@mizan/sdk';
import { useAtomValue } from 'jotai';

/** The office's time zone from the public system settings (the default until they are read). */
export function officeTimeZone(settings: { timeZone?: string | null } | null | undefined): string {
  const zone = settings?.timeZone;
  return zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

/**
 * Today's calendar day in the office's time zone, `YYYY-MM-DD`, as the server's list filters count
 * it (expired, expires within N days): not the browser's own day, which differs for hours around
 * midnight when the user's clock is in another zone. Outside React (column renderers, exports).
 *
 * @example officeToday(new Date('2026-11-22T22:30:00Z')) // '2026-11-23' with Africa/Cairo
 */
export function officeToday(
  now: Date = new Date(),
  settings: { timeZone?: string | null } | null = sdkStore.get(systemSettingsAtom),
): string {
  return dayInZone(officeTimeZone(settings), now);
}

/** `officeToday()` for components, re-rendering when the office's time zone changes. */
export function useOfficeToday(now?: Date): string {
  const settings = useAtomValue(systemSettingsAtom, { store: sdkStore });
  return officeToday(now ?? new Date(), settings);
}
