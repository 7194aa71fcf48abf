import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '@mizan/contracts';
import { AppError, ERROR_STATUS, codeForStatus, type ErrorCode, type Translatable } from './errors';
import { fieldLabel, requestLanguage, translate, type Lang } from './messages';
import { rememberError } from '../logging/requestLog';

/** Fastify's and its plugins' own errors, mapped onto the catalogue (their English text is never shown). */
const FASTIFY_CODES: Record<string, { code: ErrorCode; key?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'malformed', key: 'http.malformedJson' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed', key: 'http.malformedJson' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'malformed' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payloadTooLarge' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupportedMediaType' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'unsupportedMediaType' },
  FST_REQ_FILE_TOO_LARGE: { code: 'payloadTooLarge' },
  FST_FILES_LIMIT: { code: 'payloadTooLarge' },
  FST_PARTS_LIMIT: { code: 'payloadTooLarge' },
  FST_FIELDS_LIMIT: { code: 'payloadTooLarge' },
  FST_PROTO_VIOLATION: { code: 'malformed' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: 'unsupportedMediaType' },
  FST_INVALID_JSON_FIELD_ERROR: { code: 'malformed' },
  FST_MP_PREMATURE_CLOSE: { code: 'malformed' },
  FST_ERR_VALIDATION: { code: 'validation' },
};

function translateOne(lang: Lang, entity: string | undefined, field: string, message: Translatable): string {
  if (typeof message === 'string') return message;
  const params: Record<string, unknown> = { label: fieldLabel(lang, entity, field), ...message.params };
  // "must be one of: …" lists the choices as the user sees them, not as stored.
  if (entity && typeof params.values === 'string') {
    params.values = params.values
      .split(', ')
      .map((value) => {
        const key = `entities.${entity}.values.${field}.${value}`;
        const label = translate(lang, key);
        return label === key ? value : label;
      })
      .join(lang === 'ar' ? '، ' : ', ');
  }
  return translate(lang, message.key, params);
}

/** Builds the error body of the API (docs/architecture.md) for an AppError in `lang`. */
export function appErrorBody(error: AppError, lang: Lang): ErrorBody {
  const { entity, errors, params, messageKey } = error.options;
  const body: ErrorBody = {
    message: translate(lang, messageKey ?? `http.${error.code}`, params),
    code: error.code,
  };
  if (errors && Object.keys(errors).length) {
    body.errors = Object.fromEntries(
      Object.entries(errors).map(([field, list]) => [
        field,
        list.map((m) => translateOne(lang, entity, field, m)),
      ]),
    );
    // The client shows the first message of the first field; the top message says it too for toasts.
    const first = Object.values(body.errors)[0]?.[0];
    if (error.code === 'validation' || error.code === 'unique' || error.code === 'referenced') {
      if (first) body.message = first;
    }
  }
  const translated = (list: Record<string, Translatable[]>) =>
    Object.fromEntries(
      Object.entries(list).map(([field, m]) => [field, m.map((x) => translateOne(lang, entity, field, x))]),
    );
  if (error.options.rows)
    Object.assign(body, {
      rows: error.options.rows.map((r) => ({ index: r.index, errors: translated(r.errors) })),
    });
  if (error.options.extra) Object.assign(body, error.options.extra);
  return body;
}

interface ModuleError extends Error {
  statusCode?: number;
  code?: string;
  errors?: Record<string, string[]>;
  headers?: Record<string, string>;
}

/** Status, headers and body for any thrown value. */
export function toErrorResponse(
  error: unknown,
  lang: Lang,
): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    return { status: error.statusCode, body: appErrorBody(error, lang), headers: error.options.headers };
  }
  const e = error as ModuleError & Partial<FastifyError>;
  const mapped = e?.code ? FASTIFY_CODES[e.code] : undefined;
  if (mapped) {
    const status = ERROR_STATUS[mapped.code];
    return {
      status,
      body: { message: translate(lang, mapped.key ?? `http.${mapped.code}`), code: mapped.code },
    };
  }
  if (e instanceof SyntaxError && (e as ModuleError).statusCode === 400) {
    return { status: 400, body: { message: translate(lang, 'http.malformedJson'), code: 'malformed' } };
  }
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    // Errors of other modules (auth, system) carry a message already in the request's language.
    const fromFastify = typeof e.code === 'string' && e.code.startsWith('FST_');
    const code = (e.code && !fromFastify ? e.code : codeForStatus(status)) as string;
    const body: ErrorBody = {
      message: fromFastify || !e.message ? translate(lang, `http.${codeForStatus(status)}`) : e.message,
      code,
    };
    if (e.errors) body.errors = e.errors;
    return { status, body, headers: e.headers };
  }
  return {
    status: status >= 500 && status < 600 ? status : 500,
    body: { message: translate(lang, 'http.internal'), code: 'internal' },
  };
}

/** Installs the one error handler and the JSON 404 for unknown `/api` routes. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, headers } = toErrorResponse(error, requestLanguage(request));
    if (status >= 500) rememberError(request, error);
    if (headers) void reply.headers(headers);
    return reply.status(status).send(body);
  });
}
