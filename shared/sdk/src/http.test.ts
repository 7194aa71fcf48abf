import { answer, financeRangeQuery, route, timerStopBody } from '@mizan/contracts';
import { initI18n } from '@mizan/i18n';
import { api, ApiError, http, newIdempotencyKey } from './http';
import { configureNotifier } from './notifier';
import { sdkStore, tokenAtom, userAtom } from './session';
import { secureStorage } from './storage';
import { json, startServer } from './testing/apiServer';
import type { AuthUser } from './types';

jest.mock('./fingerprint', () => ({
  getFingerprint: jest.fn(async () => ({ visitorId: 'visitor-123', session: 'session-abc' })),
}));

// As configured, before the tests point the client at their server.
const configured = { baseURL: http.defaults.baseURL, timeout: http.defaults.timeout };

const notifier = { success: jest.fn(), error: jest.fn(), warning: jest.fn(), info: jest.fn() };
let server: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  await initI18n('ar');
  configureNotifier(notifier);
  server = await startServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const status = url.pathname.match(/^\/api\/status\/(\d+)$/);
    if (status) {
      const body: Record<string, unknown> = {};
      if (url.searchParams.has('message')) body.message = url.searchParams.get('message');
      if (url.searchParams.has('fields')) body.errors = JSON.parse(url.searchParams.get('fields')!);
      json(res, Number(status[1]), body);
      return;
    }
    if (url.pathname === '/api/slow401') {
      setTimeout(() => json(res, 401, {}), 100);
      return;
    }
    if (url.pathname.startsWith('/api/echo/')) {
      json(res, 200, {
        data: {
          method: req.method,
          path: url.pathname,
          query: url.search,
          body: req.body ? JSON.parse(req.body) : null,
        },
      });
      return;
    }
    if (url.pathname === '/api/courts') {
      json(res, 200, { data: { items: [{ id: 1, name: 'محكمة' }], total: 1, page: 1, pageSize: 20 } });
      return;
    }
    json(res, 200, { data: { ok: true } });
  });
  http.defaults.baseURL = `${server.url}/api`;
});

afterAll(() => server.close());

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The ApiError a call rejects with (fails the test if it resolves). */
async function failure(call: Promise<unknown>): Promise<ApiError> {
  const outcome = await call.then(
    () => new Error('the call succeeded'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof ApiError)) throw outcome;
  return outcome;
}

beforeEach(() => {
  jest.clearAllMocks();
  server.seen.length = 0;
  sdkStore.set(tokenAtom, null);
  sdkStore.set(userAtom, null);
});

describe('http client: answers', () => {
  it('uses base /api and a 30 s timeout', () => {
    expect(configured).toEqual({ baseURL: '/api', timeout: 30_000 });
  });

  it('unwraps the { data } envelope', async () => {
    await expect(api.get('/courts')).resolves.toEqual({
      items: [{ id: 1, name: 'محكمة' }],
      total: 1,
      page: 1,
      pageSize: 20,
    });
  });
});

describe('http client: error catalogue', () => {
  const catalogue: [number, string][] = [
    [400, 'يرجى التحقق من البيانات المدخلة'],
    [422, 'يرجى التحقق من البيانات المدخلة'],
    [401, 'يرجى تسجيل الدخول'],
    [403, 'لا يمكنك الوصول إلى هذه الصفحة'],
    [404, 'الصفحة غير موجودة'],
    [429, 'طلبات كثيرة جداً، يرجى المحاولة لاحقاً'],
    [500, 'خطأ في الخادم، يرجى المحاولة لاحقاً'],
    [502, 'مشكلة في الاتصال، يرجى المحاولة لاحقاً'],
    [503, 'مشكلة في الاتصال، يرجى المحاولة لاحقاً'],
    [504, 'مشكلة في الاتصال، يرجى المحاولة لاحقاً'],
    [409, 'حدث خطأ، يرجى المحاولة مرة أخرى'],
    [418, 'حدث خطأ، يرجى المحاولة مرة أخرى'],
  ];

  it.each(catalogue)('status %i of an action toasts the default message', async (status, message) => {
    const error = await failure(api.post(`/status/${status}`));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, message, fromServer: false });
    expect(notifier.error).toHaveBeenCalledTimes(1);
    expect(notifier.error).toHaveBeenCalledWith(message);
  });

  it('uses the server message instead of the default', async () => {
    const error = await failure(api.get(`/status/409?message=${encodeURIComponent('الاسم مستخدم من قبل')}`));
    expect(error).toMatchObject({ status: 409, message: 'الاسم مستخدم من قبل', fromServer: true });
    expect(notifier.error).toHaveBeenCalledWith('الاسم مستخدم من قبل');
  });

  it('shows the first message of the first field on 422 and keeps every field error', async () => {
    const fields = { name: ['الاسم مطلوب', 'second'], email: ['البريد غير صالح'] };
    const error = await failure(
      api.post(`/status/422?message=invalid&fields=${encodeURIComponent(JSON.stringify(fields))}`, {
        name: '',
      }),
    );
    expect(error.message).toBe('الاسم مطلوب');
    expect(error.errors).toEqual(fields);
    expect(error.fieldErrors()).toEqual([
      { name: 'name', errors: ['الاسم مطلوب'] },
      { name: 'email', errors: ['البريد غير صالح'] },
    ]);
    expect(notifier.error).toHaveBeenCalledWith('الاسم مطلوب');
  });

  it('on 401 removes token and user from the state and the encrypted storage', async () => {
    sdkStore.set(tokenAtom, 'expired');
    sdkStore.set(userAtom, { id: 1 } as AuthUser);
    await secureStorage.set('auth_token', 'expired');
    await secureStorage.set('auth_user', { id: 1 });

    await expect(api.get('/status/401')).rejects.toMatchObject({ status: 401 });
    expect(sdkStore.get(tokenAtom)).toBeNull();
    expect(sdkStore.get(userAtom)).toBeNull();
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(localStorage.getItem('auth_user')).toBeNull();
  });

  it('on a late 401 of a call sent with an older token keeps the newer session', async () => {
    sdkStore.set(tokenAtom, 'old');
    const call = api.get('/slow401', { silent: true });
    await waitFor(() => server.seen.length === 1);
    sdkStore.set(tokenAtom, 'new'); // a new login while the old call is in flight
    await expect(call).rejects.toMatchObject({ status: 401 });
    expect(sdkStore.get(tokenAtom)).toBe('new');
  });

  it('does not toast a refused background read, but still rejects with its message', async () => {
    const error = await failure(api.get('/status/403'));
    expect(error).toMatchObject({ status: 403, message: 'لا يمكنك الوصول إلى هذه الصفحة' });
    expect(notifier.error).not.toHaveBeenCalled();
    // Other failures of a read are news: the server is down, the row is gone.
    await failure(api.get('/status/500'));
    expect(notifier.error).toHaveBeenCalledTimes(1);
  });

  it('toasts a refused read the person asked for, and a refused write', async () => {
    await failure(api.get('/status/403', { userAction: true }));
    await failure(api.delete('/status/403'));
    expect(notifier.error).toHaveBeenCalledTimes(2);
  });

  it('lets a caller opt out of the toast and still get the typed error', async () => {
    await expect(api.get('/status/403', { silent: true })).rejects.toMatchObject({ status: 403 });
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('speaks English when the page does', async () => {
    await initI18n('en');
    try {
      await expect(api.get('/status/404')).rejects.toMatchObject({ message: 'The page does not exist' });
    } finally {
      await initI18n('ar');
    }
  });

  it('reports an unreachable server as status 0 with the connection message', async () => {
    // jsdom prints the refused connection through its virtual console.
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // timeout 0: jsdom's XHR leaves its timeout timer running after a connection error.
    const error = await failure(api.get('http://127.0.0.1:1/api/x', { timeout: 0 }));
    expect(error).toMatchObject({ status: 0, message: 'تعذر الاتصال بالخادم، تحقق من الشبكة وحاول لاحقاً' });
  });
});

describe('http client: headers', () => {
  it('sends JSON accept and type, the bearer token, fingerprints and the language', async () => {
    sdkStore.set(tokenAtom, 'tok-1');
    await api.post('/echo', { a: 1 });
    const { headers, body } = server.seen[0]!;
    expect(headers.accept).toBe('application/json');
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(headers.authorization).toBe('Bearer tok-1');
    expect(headers['x-fingerprint-session']).toBe('session-abc');
    expect(headers['x-fingerprint']).toBe('visitor-123');
    expect(headers['accept-language']).toBe('ar');
    expect(JSON.parse(body)).toEqual({ a: 1 });
  });

  it('sends the Idempotency-Key given for a submission, the same one on its retry, and none otherwise', async () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(newIdempotencyKey()).not.toBe(key);
    await api.post('/echo', { a: 1 }, { idempotencyKey: key });
    await api.post('/echo', { a: 1 }, { idempotencyKey: key });
    await api.post('/echo', { a: 1 });
    expect(server.seen.map((r) => r.headers['idempotency-key'])).toEqual([key, key, undefined]);
  });

  it('sends no Authorization without a token, and none at all for anonymous calls', async () => {
    await api.get('/echo');
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
    sdkStore.set(tokenAtom, 'tok-1');
    await api.get('/echo', { anonymous: true });
    expect(server.seen[1]!.headers.authorization).toBeUndefined();
    expect(server.seen[1]!.headers['x-fingerprint']).toBeUndefined();
  });

  it('sends FormData as multipart with the boundary, never as JSON', async () => {
    const form = new FormData();
    form.append('name', 'عقد');
    form.append('files', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'contract.pdf');
    await api.post('/upload', form);
    const { headers, body } = server.seen[0]!;
    expect(headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(body).toContain('name="name"');
    expect(body).toContain('filename="contract.pdf"');
    expect(body).toContain('%PDF-1.4');
  });
});

describe('api.call', () => {
  const echo = route({
    method: 'PUT',
    path: '/echo/:chatId/items/:name',
    permission: null,
    summary: 'Answers what it was sent',
    query: financeRangeQuery,
    body: timerStopBody,
    answer: answer<{ method: string; path: string; query: string; body: unknown }>(),
  });

  it('sends the contract’s method to its path with the parameters filled in, the query and the body', async () => {
    const answered = await api.call(echo, {
      params: { chatId: 7, name: 'عقد إيجار' },
      query: { from: '2026-01-01' },
      body: { description: 'مرحبا' },
    });
    expect(answered).toEqual({
      method: 'PUT',
      path: `/api/echo/7/items/${encodeURIComponent('عقد إيجار')}`,
      query: '?from=2026-01-01',
      body: { description: 'مرحبا' },
    });
  });

  it('refuses to call a path with a parameter missing, before any request', () => {
    expect(() => api.call(echo, { params: { chatId: 7 } as never, body: {} })).toThrow(':name');
  });

  it('sends a multipart route’s form to its path, as multipart', async () => {
    const upload = route({
      method: 'POST',
      path: '/files/:id/versions',
      permission: null,
      summary: 'Takes a form',
      multipart: { parts: { file: 'file' }, required: ['file'] },
      answer: answer<{ ok: boolean }>(),
    });
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'contract.pdf');
    expect(await api.call(upload, { params: { id: 31 }, body: form })).toEqual({ ok: true });
    const { method, url, headers, body } = server.seen[0]!;
    expect([method, url]).toEqual(['POST', '/api/files/31/versions']);
    expect(headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(body).toContain('filename="contract.pdf"');
  });

  it('sends a multipart route its JSON body or a FormData, both typed', async () => {
    const upload = route({
      method: 'POST',
      path: '/upload/:chatId',
      permission: null,
      summary: 'Takes JSON, or multipart with files',
      multipart: { parts: { description: 'string', files: 'file' }, json: timerStopBody },
      answer: answer<{ ok: boolean }>(),
    });
    const filesOnly = route({
      method: 'POST',
      path: '/upload',
      permission: null,
      summary: 'Takes multipart only',
      multipart: { parts: { file: 'file' } },
    });
    const form = new FormData();
    form.set('description', 'مرحبا');
    expect(await api.call(upload, { params: { chatId: 7 }, body: { description: 'مرحبا' } })).toEqual({
      ok: true,
    });
    expect(await api.call(upload, { params: { chatId: 7 }, body: form })).toEqual({ ok: true });
    await api.call(filesOnly, { body: form });
    expect(server.seen.map((r) => String(r.headers['content-type']).split(';')[0])).toEqual([
      'application/json',
      'multipart/form-data',
      'multipart/form-data',
    ]);
    // What the types refuse, never sent.
    const refused = () => [
      // @ts-expect-error: `billable` is a boolean in the route's JSON body
      api.call(upload, { params: { chatId: 7 }, body: { billable: 'yes' } }),
      // @ts-expect-error: a route without a JSON body takes FormData only
      api.call(filesOnly, { body: { file: 'x' } }),
    ];
    expect(typeof refused).toBe('function');
  });
});
