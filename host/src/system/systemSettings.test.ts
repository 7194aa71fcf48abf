import { FALLBACK_SETTINGS, sanitizeSettings } from './systemSettings';

describe('sanitizeSettings', () => {
  it("keeps the server's calendars and falls back to Hijri for anything else", () => {
    expect(sanitizeSettings({ calendar: 'gregorian' }).calendar).toBe('gregorian');
    expect(sanitizeSettings({ calendar: 'hijri' }).calendar).toBe('hijri');
    // 'gregory' is an Intl name, not one the server sends (nor one the contracts' type allows:
    // a stored copy may still hold it).
    expect(sanitizeSettings({ calendar: 'gregory' as never }).calendar).toBe('hijri');
    expect(sanitizeSettings(null)).toEqual(FALLBACK_SETTINGS);
    expect(FALLBACK_SETTINGS.calendar).toBe('hijri');
  });

  it("keeps the office's time zone when it is one Intl knows, Cairo otherwise", () => {
    expect(sanitizeSettings({ timeZone: 'Asia/Riyadh' }).timeZone).toBe('Asia/Riyadh');
    expect(sanitizeSettings({ timeZone: 'Mars/Olympus' }).timeZone).toBe('Africa/Cairo');
    expect(sanitizeSettings({}).timeZone).toBe('Africa/Cairo');
  });

  it('drops colours and URLs the UI cannot use safely', () => {
    const s = sanitizeSettings({ primaryColor: 'red; x', logoUrl: 'javascript:alert(1)', officeName: '  ' });
    expect(s.primaryColor).toBe(FALLBACK_SETTINGS.primaryColor);
    expect(s.logoUrl).toBeNull();
    expect(s.officeName).toBe(FALLBACK_SETTINGS.officeName);
  });
});
