import Bowser from 'bowser';

/**
 * What a session's or sign-in's user agent says, for people to recognise their devices:
 * `device` (`desktop`, `mobile`, `tablet`, ...) and `browser` (`Chrome 130 · Windows`), read by
 * the `bowser` library; nulls when there is no user agent or it says nothing known.
 *
 * @example
 * describeAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) ... Chrome/130.0.0.0 Safari/537.36')
 * // { device: 'desktop', browser: 'Chrome 130 · Windows' }
 */
export function describeAgent(userAgent: string | null): { device: string | null; browser: string | null } {
  if (!userAgent) return { device: null, browser: null };
  try {
    const parsed = Bowser.parse(userAgent);
    const major = parsed.browser.version?.split('.')[0];
    const name = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : null;
    const browser = [name, parsed.os.name].filter(Boolean).join(' · ') || null;
    return { device: parsed.platform.type ?? null, browser };
  } catch {
    return { device: null, browser: null };
  }
}
