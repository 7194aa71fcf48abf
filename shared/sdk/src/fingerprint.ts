import { FINGERPRINT } from '@mizan/contracts/light';
import { sha256hex } from './sha256';

/**
 * Device fingerprint sent with every call (`x-fingerprint`, `x-fingerprint-session`).
 *
 * FingerprintJS v5's `load()`/`get()` take no option to leave sources out, so this builds the same
 * agent from its public parts: `prepareForSources()` (what `load()` awaits), `loadSources()` with an
 * exclusion list, and `hashComponents()` (what `get()` returns as `visitorId`).
 */

/**
 * Sources that read the display the window is on, not the device: the screen's size
 * (`screenResolution`), the room the taskbar or dock takes from it (`screenFrame`), and the
 * display's colour depth, gamut and HDR. A session is bound to the fingerprint given at sign-in,
 * so any of these changing (a window resized or reopened on another display, a docked laptop, the
 * browser's own emulation of the screen from the window) would answer 401 on every request. The
 * device's stable traits stay: platform, CPU and memory, languages, time zone, fonts, storage,
 * plugins, touch, vendor, maths and the accessibility preferences (docs/security.md).
 */
export const FINGERPRINT_DISPLAY_SOURCES = [
  'screenResolution',
  'screenFrame',
  'colorDepth',
  'colorGamut',
  'hdr',
] as const;

/**
 * Left out of every fingerprint: graphics (WebGL), canvas and audio sources (FingerprintJS v5 has
 * no WebRTC source to exclude), and the display's sources.
 */
export const FINGERPRINT_EXCLUDED = [
  'webGlBasics',
  'webGlExtensions',
  'canvas',
  'audio',
  'audioBaseLatency',
  ...FINGERPRINT_DISPLAY_SOURCES,
] as const;
/** Left out as well on the second try: font probing is what fails in locked-down browsers. */
export const FINGERPRINT_FONT_SOURCES = ['fonts', 'fontPreferences'] as const;

export interface Fingerprint {
  /** `x-fingerprint`: the visitor identifier. */
  visitorId: string;
  /** `x-fingerprint-session`: SHA-256 hex of `visitorId + FINGERPRINT.sessionSuffix`. */
  session: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Fingerprint timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

async function visitorIdExcluding(exclude: readonly string[]): Promise<string> {
  // Loaded on the first request that sends the headers, not with the SDK: the login page makes
  // none before sign-in (login page weight).
  const { hashComponents, loadSources, prepareForSources, sources } =
    await import('@fingerprintjs/fingerprintjs');
  await prepareForSources();
  const getComponents = loadSources(sources, { cache: {}, debug: false }, exclude);
  return hashComponents(await getComponents());
}

async function compute(): Promise<Fingerprint | undefined> {
  let visitorId: string;
  try {
    visitorId = await withTimeout(visitorIdExcluding(FINGERPRINT_EXCLUDED), FINGERPRINT.timeoutMs);
  } catch {
    try {
      visitorId = await withTimeout(
        visitorIdExcluding([...FINGERPRINT_EXCLUDED, ...FINGERPRINT_FONT_SOURCES]),
        FINGERPRINT.timeoutMs,
      );
    } catch (error) {
      // Nothing is returned and the failure goes to the console only (no toast).
      console.error('Device fingerprint unavailable', error);
      return undefined;
    }
  }
  return { visitorId, session: await sha256hex(visitorId + FINGERPRINT.sessionSuffix) };
}

/**
 * The spec gives the cache as "5*60*100" ms; both readings apply, each where it fits:
 * - a computed fingerprint is kept 300 000 ms (`cacheMsIntended`): it does not change while the
 *   page is open and computing it costs up to two 5-second attempts;
 * - a failure is kept 30 000 ms (`cacheMsAsWritten`): requests in that window go without the
 *   headers instead of each waiting for another failing attempt, and it is retried soon after.
 */
let cached: { value: Fingerprint | undefined; expires: number } | null = null;
let inFlight: Promise<Fingerprint | undefined> | null = null;

/** The fingerprint headers' values, or undefined when the browser cannot give one. */
export function getFingerprint(): Promise<Fingerprint | undefined> {
  if (cached && cached.expires > Date.now()) return Promise.resolve(cached.value);
  inFlight ??= compute().then((value) => {
    cached = {
      value,
      expires: Date.now() + (value ? FINGERPRINT.cacheMsIntended : FINGERPRINT.cacheMsAsWritten),
    };
    inFlight = null;
    return value;
  });
  return inFlight;
}

/** Forgets the cached fingerprint (tests; a fresh computation on the next call). */
export function resetFingerprintCache(): void {
  cached = null;
  inFlight = null;
}
