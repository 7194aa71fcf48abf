import {
  API_BASE,
  HEADERS,
  HTTP_TIMEOUT_MS,
  pathOf,
  type AnyRoute,
  type RouteAnswer,
  type RouteInput,
} from '@mizan/contracts/light';
import type { ErrorBody } from '@mizan/contracts';
import { currentLanguage, i18n } from '@mizan/i18n';
import axios, {
  AxiosError,
  type AxiosRequestConfig,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { getFingerprint } from './fingerprint';
import { notify } from './notifier';
import { clearSession, sdkStore, tokenAtom } from './session';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** No error toast for this call; the caller handles the rejected `ApiError` itself. */
    silent?: boolean;
    /** Sends no Authorization and no fingerprint headers (`GET /auth/systemSettings`). */
    anonymous?: boolean;
    /**
     * A read the person asked for by a click (a download): refused, it toasts like a write.
     * Without it a refused read is background work (see `toastsFailure`).
     */
    userAction?: boolean;
    /**
     * Sent as `Idempotency-Key`: one per submission (`newIdempotencyKey()`), the same when that
     * submission is sent again, so the server answers a retry with its first answer.
     */
    idempotencyKey?: string;
  }
}

/** A fresh `Idempotency-Key` for one submission. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Pages served over plain http (not localhost) have no randomUUID.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

/** Options of one call: axios's, plus `silent`, `anonymous` and `idempotencyKey`. */
export type RequestOptions = AxiosRequestConfig;

/**
 * A failed call, as every caller sees it: the HTTP status (0 when no answer came: network down,
 * timeout), the message shown in the toast, and the server's field errors.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> = {},
    /** The server's stable code (`validation`, `unique`, `referenced`, ...), when it gave one. */
    readonly code?: string,
    /** Whether `message` came from the server rather than the default catalogue. */
    readonly fromServer = false,
    /** The whole answer body (a stale write's 409 carries the current record in it). */
    readonly body: unknown = undefined,
  ) {
    super(message);
  }

  /** The first message of each field, for antd `form.setFields`. */
  fieldErrors(): { name: string; errors: string[] }[] {
    return Object.entries(this.errors).map(([name, errors]) => ({ name, errors: errors.slice(0, 1) }));
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

const STATUS_KEYS: Record<number, string> = {
  400: 'status.400',
  401: 'status.401',
  403: 'status.403',
  404: 'status.404',
  422: 'status.422',
  429: 'status.429',
  500: 'status.500',
  502: 'status.502',
  503: 'status.503',
  504: 'status.504',
};

/** The catalogue message for a status (0: no answer from the server). */
export function defaultErrorMessage(status: number): string {
  if (status === 0) return i18n.t('errors:network');
  return i18n.t(`errors:${STATUS_KEYS[status] ?? 'status.default'}`);
}

function isErrorBody(body: unknown): body is Partial<ErrorBody> {
  return (
    typeof body === 'object' && body !== null && !(body instanceof Blob) && !(body instanceof ArrayBuffer)
  );
}

/** Builds the ApiError of an axios failure: server message first, 422 first field message first. */
export function toApiError(error: AxiosError): ApiError {
  const status = error.response?.status ?? 0;
  const body = isErrorBody(error.response?.data) ? error.response.data : {};
  const errors = body.errors && typeof body.errors === 'object' ? body.errors : {};
  const firstFieldMessage = Object.values(errors).find((list) => Array.isArray(list) && list.length > 0)?.[0];
  const serverMessage = typeof body.message === 'string' && body.message.trim() ? body.message : undefined;
  const fromServer = status === 422 ? (firstFieldMessage ?? serverMessage) : serverMessage;
  return new ApiError(
    status,
    fromServer ?? defaultErrorMessage(status),
    errors,
    body.code,
    fromServer !== undefined,
    error.response?.data,
  );
}

/**
 * Whether a failed call tells the person in a toast. A refused read (403 on GET) is background
 * work, a list, a picker or a badge loading for the screen: the screen that needs it shows its
 * own "no access" state, and a toast would speak of something nobody asked for (twice, when two
 * widgets read the same). What the person did (a write, a read marked `userAction`) always says
 * why it failed; `silent` calls never toast.
 */
export function toastsFailure(config: AxiosRequestConfig | undefined, status: number): boolean {
  if (config?.silent) return false;
  const read = (config?.method ?? 'get').toLowerCase() === 'get';
  return !(status === 403 && read && !config?.userAction);
}

/**
 * The one HTTP client: base `/api`, 30 s timeout, JSON accept and content type,
 * Bearer token, fingerprint headers, `Accept-Language`; answers unwrapped from `{ data }`.
 */
export const http = axios.create({
  baseURL: API_BASE,
  timeout: HTTP_TIMEOUT_MS,
  headers: { Accept: 'application/json' },
});

http.interceptors.request.use(async (config: InternalAxiosRequestConfig) => {
  const { headers } = config;
  headers.set('Accept-Language', currentLanguage());
  if (typeof FormData !== 'undefined' && config.data instanceof FormData) {
    // The browser writes `multipart/form-data; boundary=...` itself; a JSON type would make
    // axios serialise the form as JSON.
    headers.setContentType(null);
  } else if (!headers.getContentType()) {
    headers.setContentType('application/json');
  }
  if (config.idempotencyKey) headers.set(HEADERS.idempotencyKey, config.idempotencyKey);
  if (config.anonymous) return config;
  const token = sdkStore.get(tokenAtom);
  if (token) headers.setAuthorization(`Bearer ${token}`);
  const fingerprint = await getFingerprint();
  if (fingerprint) {
    headers.set(HEADERS.fingerprintSession, fingerprint.session);
    headers.set(HEADERS.fingerprint, fingerprint.visitorId);
  }
  return config;
});

http.interceptors.response.use(
  (response: AxiosResponse) => {
    const body: unknown = response.data;
    // Unwrap the `{ data }` envelope of JSON answers; files (blob, arraybuffer) pass as they are.
    if (typeof body === 'object' && body !== null && 'data' in body && !(body instanceof Blob)) {
      response.data = (body as { data: unknown }).data;
    }
    return response;
  },
  async (error: unknown) => {
    // A cancelled call (unmount, superseded query) is no failure to report.
    if (axios.isCancel(error) || !(error instanceof AxiosError)) throw error;
    const apiError = toApiError(error);
    // Only the token this call was sent with is known to be bad: a late 401 of a request made
    // before a new login must not end the new session.
    const sent = error.config?.headers?.get('Authorization');
    if (apiError.status === 401 && typeof sent === 'string' && sent === `Bearer ${sdkStore.get(tokenAtom)}`) {
      await clearSession('unauthorized');
    }
    if (toastsFailure(error.config, apiError.status)) notify.error(apiError.message);
    throw apiError;
  },
);

/**
 * Typed calls returning the unwrapped `data`; they reject with `ApiError`.
 *
 * @example const page = await api.get<Page<Court>>('/admin/settings/courts/courts', { params: { page: 1 } });
 */
export const api = {
  request: async <T>(config: RequestOptions): Promise<T> => (await http.request<T>(config)).data,
  get: <T>(url: string, options?: RequestOptions) => api.request<T>({ ...options, method: 'GET', url }),
  delete: <T>(url: string, options?: RequestOptions) => api.request<T>({ ...options, method: 'DELETE', url }),
  post: <T>(url: string, data?: unknown, options?: RequestOptions) =>
    api.request<T>({ ...options, method: 'POST', url, data }),
  put: <T>(url: string, data?: unknown, options?: RequestOptions) =>
    api.request<T>({ ...options, method: 'PUT', url, data }),
  patch: <T>(url: string, data?: unknown, options?: RequestOptions) =>
    api.request<T>({ ...options, method: 'PATCH', url, data }),
  /**
   * Calls a route declared in `@mizan/contracts`: its method and path (parameters filled in), the
   * query and body its contract types, answering what the contract says it answers.
   *
   * @example const timer = await api.call(TIMER_ROUTES.start, { body: { lawsuitId: 4 } });
   */
  call: <C extends AnyRoute>(contract: C, ...[input, options]: CallArgs<C>): Promise<RouteAnswer<C>> => {
    const { params, query, body } = (input ?? {}) as {
      params?: Record<string, string | number>;
      query?: unknown;
      body?: unknown;
    };
    return api.request<RouteAnswer<C>>({
      ...options,
      method: contract.method,
      url: pathOf(contract.path, params),
      ...(query === undefined ? {} : { params: query }),
      ...(body === undefined ? {} : { data: body }),
    });
  },
};

/** `api.call`'s input and options: the input may be left out when the route needs none. */
type CallArgs<C extends AnyRoute> =
  Record<never, never> extends RouteInput<C>
    ? [input?: RouteInput<C>, options?: RequestOptions]
    : [input: RouteInput<C>, options?: RequestOptions];
