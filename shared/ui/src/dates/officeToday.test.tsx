import { act, render, screen } from '@testing-library/react';
import { sdkStore, systemSettingsAtom, type SystemSettings } from '@mizan/sdk';
import { officeTimeZone, officeToday, useOfficeToday } from './officeToday';

/** 22:30 UTC on 22 November: 00:30 on the 23rd in Cairo (UTC+2), 01:30 in Riyadh (UTC+3). */
const NIGHT = new Date('2026-11-22T22:30:00Z');
const zone = (timeZone: string) => ({ timeZone }) as SystemSettings;

afterEach(() => act(() => sdkStore.set(systemSettingsAtom, null)));

describe("the office's today", () => {
  it("is the day in the office's zone, whatever the browser's", () => {
    expect(officeToday(NIGHT, zone('Asia/Riyadh'))).toBe('2026-11-23');
    expect(officeToday(NIGHT, zone('UTC'))).toBe('2026-11-22');
    expect(officeToday(NIGHT, zone('America/New_York'))).toBe('2026-11-22');
    // Cairo keeps summer time (UTC+3) in July: 21:30 UTC is already the next day there.
    expect(officeToday(new Date('2026-07-10T21:30:00Z'), zone('Africa/Cairo'))).toBe('2026-07-11');
    expect(officeToday(new Date('2026-01-10T21:30:00Z'), zone('Africa/Cairo'))).toBe('2026-01-10');
  });

  it('is Cairo until the settings are read, or when they name no known zone', () => {
    expect(officeTimeZone(null)).toBe('Africa/Cairo');
    expect(officeTimeZone(zone('Mars/Olympus'))).toBe('Africa/Cairo');
    expect(officeToday(NIGHT, null)).toBe('2026-11-23');
    expect(officeToday(NIGHT)).toBe('2026-11-23');
  });

  it('follows the settings the SDK loaded, in and outside React', () => {
    function Today() {
      return <span data-testid="today">{useOfficeToday(NIGHT)}</span>;
    }
    act(() => sdkStore.set(systemSettingsAtom, zone('UTC')));
    expect(officeToday(NIGHT)).toBe('2026-11-22');
    render(<Today />);
    expect(screen.getByTestId('today').textContent).toBe('2026-11-22');
    act(() => sdkStore.set(systemSettingsAtom, zone('Asia/Riyadh')));
    expect(screen.getByTestId('today').textContent).toBe('2026-11-23');
    expect(officeToday(NIGHT)).toBe('2026-11-23');
  });
});
