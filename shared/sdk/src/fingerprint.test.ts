import { FINGERPRINT } from '@mizan/contracts';
import { createHash } from 'node:crypto';
import { loadSources } from '@fingerprintjs/fingerprintjs';
import { FINGERPRINT_EXCLUDED, getFingerprint, resetFingerprintCache } from './fingerprint';

jest.mock('@fingerprintjs/fingerprintjs', () => ({
  sources: { fonts: 1, canvas: 1, audio: 1, webGlBasics: 1, timezone: 1 },
  prepareForSources: jest.fn(async () => undefined),
  loadSources: jest.fn(),
  hashComponents: jest.fn(
    (components: Record<string, unknown>) => `hash(${Object.keys(components).join(',')})`,
  ),
}));

const loadSourcesMock = loadSources as unknown as jest.Mock;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Each call of loadSources gets the next behaviour: components, a rejection, or a hang. */
function attempts(...outcomes: ('ok' | 'reject' | 'hang')[]) {
  for (const outcome of outcomes) {
    loadSourcesMock.mockImplementationOnce(() => () => {
      if (outcome === 'ok') return Promise.resolve({ timezone: { value: 'Asia/Riyadh' } });
      if (outcome === 'reject') return Promise.reject(new Error('font probing failed'));
      return new Promise(() => undefined);
    });
  }
}

beforeEach(() => {
  resetFingerprintCache();
  loadSourcesMock.mockReset();
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe(getFingerprint.name, () => {
  it('excludes graphics, canvas and audio, and derives the session hash with the suffix', async () => {
    attempts('ok');
    const result = await getFingerprint();
    const exclude = loadSourcesMock.mock.calls[0]![2] as string[];
    expect(exclude).toEqual(expect.arrayContaining(['webGlBasics', 'webGlExtensions', 'canvas', 'audio']));
    expect(exclude).not.toContain('fonts');
    expect(result).toEqual({
      visitorId: 'hash(timezone)',
      session: sha256(`hash(timezone)${FINGERPRINT.sessionSuffix}`),
    });
  });

  it('retries excluding fonts as well when the first attempt fails', async () => {
    attempts('reject', 'ok');
    const result = await getFingerprint();
    expect(loadSourcesMock).toHaveBeenCalledTimes(2);
    expect(loadSourcesMock.mock.calls[1]![2]).toEqual([...FINGERPRINT_EXCLUDED, 'fonts', 'fontPreferences']);
    expect(result?.visitorId).toBe('hash(timezone)');
  });

  it('returns undefined and logs to the console only when the retry fails too', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    attempts('reject', 'reject');
    await expect(getFingerprint()).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('gives each attempt 5000 ms', async () => {
    jest.useFakeTimers();
    attempts('hang', 'ok');
    const pending = getFingerprint();
    await jest.advanceTimersByTimeAsync(FINGERPRINT.timeoutMs - 1);
    expect(loadSourcesMock).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ visitorId: 'hash(timezone)' });
    expect(loadSourcesMock).toHaveBeenCalledTimes(2);
  });

  it('caches a fingerprint 300 000 ms and a failure 30 000 ms', async () => {
    jest.useFakeTimers();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    attempts('reject', 'reject', 'ok', 'ok');
    await expect(getFingerprint()).resolves.toBeUndefined();
    await jest.advanceTimersByTimeAsync(FINGERPRINT.cacheMsAsWritten - 1);
    await expect(getFingerprint()).resolves.toBeUndefined();
    expect(loadSourcesMock).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(1);
    await expect(getFingerprint()).resolves.toBeDefined();
    expect(loadSourcesMock).toHaveBeenCalledTimes(3);

    await jest.advanceTimersByTimeAsync(FINGERPRINT.cacheMsIntended - 1);
    await getFingerprint();
    expect(loadSourcesMock).toHaveBeenCalledTimes(3);
    await jest.advanceTimersByTimeAsync(1);
    await getFingerprint();
    expect(loadSourcesMock).toHaveBeenCalledTimes(4);
  });

  it('computes once for concurrent callers', async () => {
    attempts('ok');
    const [a, b] = await Promise.all([getFingerprint(), getFingerprint()]);
    expect(a).toBe(b);
    expect(loadSourcesMock).toHaveBeenCalledTimes(1);
  });
});
