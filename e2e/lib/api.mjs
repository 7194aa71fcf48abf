// A small HTTP client for setting up data through the API, as the front end would call it.
import { randomBytes } from 'node:crypto';

export class ApiError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path} → ${status}: ${JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * @param {string} baseURL server origin
 * @param {{ token?: string, lang?: 'ar' | 'en' }} [options]
 */
export function apiClient(baseURL, options = {}) {
  // Tokens are bound to the fingerprint session given at login, so one client keeps one.
  const fingerprint = randomBytes(16).toString('hex');
  const fingerprintSession = randomBytes(32).toString('hex');
  let token = options.token;
  const lang = options.lang ?? 'ar';

  /** @returns {Promise<{ status: number, body: any }>} */
  async function raw(method, path, body) {
    const headers = {
      accept: 'application/json',
      'accept-language': lang,
      'x-fingerprint': fingerprint,
      'x-fingerprint-session': fingerprintSession,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    let payload;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${baseURL}/api${path}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text for the error message
    }
    return { status: res.status, body: parsed };
  }

  /** Calls and unwraps `data`; throws ApiError on any non-2xx status. */
  async function call(method, path, body) {
    const res = await raw(method, path, body);
    if (res.status < 200 || res.status >= 300) throw new ApiError(method, path, res.status, res.body);
    return res.body?.data;
  }

  return {
    raw,
    call,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
    patch: (path, body) => call('PATCH', path, body),
    del: (path) => call('DELETE', path),
    get token() {
      return token;
    },
    async login(email, password) {
      const data = await call('POST', '/auth/login', { email, password });
      token = data.token;
      return data;
    },
  };
}

/** A short unique suffix so that rows made by one run never clash with another's. */
export const uniq = () => `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

/**
 * Today in the office's time zone (the system settings'; Cairo by default), `YYYY-MM-DD`: the day
 * the app's expiry flags and list filters count from, not the test machine's or the browser's.
 */
export async function officeToday(api) {
  const settings = await api.get('/auth/systemSettings');
  return new Intl.DateTimeFormat('en-CA', { timeZone: settings?.timeZone || 'Africa/Cairo' }).format(
    new Date(),
  );
}

/** The calendar day `days` after `day` (both `YYYY-MM-DD`). */
export function addDays(day, days) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
