import { getFingerprint, resetFingerprintCache } from './fingerprint';

// The real FingerprintJS in jsdom: what the screen reports changes as a window is resized, moved
// to another display or reopened; the fingerprint a session is bound to must not.

/** Makes `screen` report another display (jsdom's screen properties are getters on the prototype). */
function display(width: number, height: number, colorDepth: number) {
  const values = {
    width,
    height,
    availWidth: width,
    availHeight: height - 40,
    colorDepth,
    pixelDepth: colorDepth,
  };
  for (const [key, value] of Object.entries(values))
    Object.defineProperty(window.screen, key, { configurable: true, get: () => value });
}

describe('the device fingerprint', () => {
  afterEach(() => resetFingerprintCache());

  it('stays the same when the screen and window change size', async () => {
    display(1280, 800, 24);
    const before = await getFingerprint();
    expect(before?.visitorId).toMatch(/^[0-9a-f]{32}$/);
    resetFingerprintCache();
    display(390, 844, 30);
    const after = await getFingerprint();
    expect(after).toEqual(before);
  }, 30_000);
});
