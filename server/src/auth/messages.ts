import type { FastifyRequest } from 'fastify';
import type { ServerAuthKey } from '@mizan/i18n/resources';
import { hasMessage, requestLanguage, translate, type Lang } from '../http/messages';

export type { Lang };

/**
 * A message of the auth and people routes: a key of the `server-auth` namespace in `@mizan/i18n`
 * (typed from its JSON, so a misspelt key does not compile). Arabic first (the API conventions: the
 * request's language, default Arabic); the error handler translates `auth.<key>` the same way.
 */
export type MessageKey = ServerAuthKey;

export function message(lang: Lang, key: MessageKey, vars: Record<string, string | number> = {}): string {
  return translate(lang, `auth.${key}`, vars);
}

/** A field's label in this module's 422 answers (`server-auth:labels.<field>`), or the field's name. */
export function label(lang: Lang, field: string): string {
  const key = `auth.labels.${field}`;
  return hasMessage(lang, key) ? translate(lang, key) : field;
}

export function requestLang(request: FastifyRequest): Lang {
  return requestLanguage(request);
}
