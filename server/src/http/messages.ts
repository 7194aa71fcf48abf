import type { FastifyRequest } from 'fastify';
import { resources, type ResourceTree } from '@mizan/i18n/resources';

export type Lang = 'ar' | 'en';
export const LANGS: readonly Lang[] = ['ar', 'en'];
export const DEFAULT_LANG: Lang = 'ar';

/** A flat message table: key → text per language, `{{name}}` for interpolation. */
export type MessageTable = Record<string, Record<Lang, string>>;

/** The server's own messages (HTTP catalogue, engine). Other modules add theirs with `registerMessages`. */
const SERVER_MESSAGES: MessageTable = {
  'http.validation': { ar: 'يرجى التحقق من البيانات المدخلة', en: 'Please check the entered data' },
  'http.malformed': {
    ar: 'الطلب غير صالح، يرجى التحقق من البيانات المرسلة',
    en: 'The request is malformed, please check the data sent',
  },
  'http.malformedJson': { ar: 'نص JSON المرسل غير صالح', en: 'The JSON body is not valid' },
  'http.unauthorized': { ar: 'يرجى تسجيل الدخول', en: 'Please sign in' },
  'http.forbidden': { ar: 'لا يمكنك الوصول إلى هذه الصفحة', en: 'You cannot access this page' },
  'http.notFound': { ar: 'العنصر المطلوب غير موجود', en: 'The requested item does not exist' },
  'http.routeNotFound': { ar: 'الصفحة غير موجودة', en: 'The page does not exist' },
  'http.conflict': { ar: 'تعارض مع بيانات موجودة', en: 'This conflicts with existing data' },
  'http.unique': { ar: 'قيمة {{label}} مستخدمة من قبل', en: 'This {{label}} is already in use' },
  'http.uniqueTogether': {
    ar: 'يوجد سجل بنفس {{label}}',
    en: 'A record with the same {{label}} already exists',
  },
  'http.referenced': {
    ar: 'لا يمكن حذف هذا العنصر لأنه مستخدم في بيانات أخرى',
    en: 'This item cannot be deleted because other data uses it',
  },
  'http.referenceMissing': { ar: '{{label}} المختار غير موجود', en: 'The selected {{label}} does not exist' },
  'http.payloadTooLarge': {
    ar: 'حجم البيانات أو الملف أكبر من المسموح',
    en: 'The data or file is larger than allowed',
  },
  'http.fileTooLarge': {
    ar: 'حجم الملف أكبر من المسموح ({{max}} ميغابايت)',
    en: 'The file is larger than allowed ({{max}} MB)',
  },
  'http.tooManyFiles': {
    ar: 'عدد الملفات أكبر من المسموح ({{max}})',
    en: 'Too many files (at most {{max}})',
  },
  'http.unsupportedMediaType': { ar: 'نوع المحتوى غير مدعوم', en: 'This content type is not supported' },
  'http.fileType': { ar: 'نوع الملف غير مسموح به', en: 'This file type is not allowed' },
  'http.unknownFilePart': { ar: 'حقل ملف غير معروف: {{field}}', en: 'Unknown file field: {{field}}' },
  'http.tooManyRequests': {
    ar: 'طلبات كثيرة، يرجى المحاولة لاحقاً',
    en: 'Too many requests, please try later',
  },
  'http.internal': { ar: 'خطأ في الخادم، يرجى المحاولة لاحقاً', en: 'Server error, please try later' },
  'http.unavailable': {
    ar: 'مشكلة في الاتصال، يرجى المحاولة لاحقاً',
    en: 'Connection problem, please try later',
  },
  'http.invalid': { ar: 'قيمة {{label}} غير صالحة', en: 'The {{label}} is not valid' },
  'ws.unknownType': { ar: 'نوع رسالة غير معروف', en: 'Unknown message type' },
  'ws.badFrame': { ar: 'رسالة غير صالحة', en: 'Malformed message' },
  'ws.channelRefused': { ar: 'لا يمكنك الاشتراك في هذه القناة', en: 'You cannot join this channel' },
  'ws.notSubscribed': { ar: 'لست مشتركاً في هذه القناة', en: 'You are not subscribed to this channel' },
  'ws.unauthorized': { ar: 'يرجى تسجيل الدخول', en: 'Please sign in' },
  'ws.revoked': { ar: 'انتهت الجلسة', en: 'The session has ended' },
};

const tables: MessageTable[] = [SERVER_MESSAGES];

/**
 * Adds a module's messages; a key registered later wins over the same key registered before.
 *
 * @example
 * registerMessages({ 'system.logNotFound': { ar: 'لا يوجد سجل لهذا اليوم', en: 'No log for this day' } });
 */
export function registerMessages(table: MessageTable): void {
  tables.unshift(table);
}

function lookup(tree: ResourceTree | undefined, path: string[]): string | undefined {
  let node: ResourceTree | string | undefined = tree;
  for (const part of path) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** `validation.required` → resources[lang].validation.required (the shared i18n JSON). */
function resourceMessage(lang: Lang, key: string): string | undefined {
  const [ns, ...rest] = key.split('.');
  const namespaces = resources[lang] as Record<string, ResourceTree> | undefined;
  return ns && rest.length ? lookup(namespaces?.[ns], rest) : undefined;
}

function interpolate(text: string, params: Record<string, unknown> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** The text of `key` in `lang`: module tables first, then the shared i18n resources, then English, then the key. */
export function translate(lang: Lang, key: string, params?: Record<string, unknown>): string {
  for (const candidate of [lang, 'en'] as Lang[]) {
    for (const table of tables) {
      const entry = table[key]?.[candidate];
      if (entry) return interpolate(entry, params);
    }
    const shared = resourceMessage(candidate, key);
    if (shared) return interpolate(shared, params);
  }
  return key;
}

/** The label of an entity's field in `lang` (`entities.<entity>.fields.<field>`), or the field's name. */
export function fieldLabel(lang: Lang, entity: string | undefined, field: string): string {
  if (entity) {
    const label = resourceMessage(lang, `entities.${entity}.fields.${field}`);
    if (label) return label;
  }
  return field;
}

/**
 * The request's language from `Accept-Language` (quality values honoured), Arabic by default.
 * `?lang=en` wins, for links opened outside the app (downloads).
 */
export function requestLanguage(request: Pick<FastifyRequest, 'headers'> & { query?: unknown }): Lang {
  const query = request.query as { lang?: unknown } | undefined;
  if (query && (query.lang === 'ar' || query.lang === 'en')) return query.lang;
  const header = request.headers['accept-language'];
  if (!header) return DEFAULT_LANG;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...attrs] = part.trim().split(';');
      const q = attrs.map((a) => a.trim()).find((a) => a.startsWith('q='));
      return { lang: tag.trim().toLowerCase().split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) => (LANGS as readonly string[]).includes(entry.lang ?? ''));
  return (found?.lang as Lang | undefined) ?? DEFAULT_LANG;
}

/**
 * Translates `key` in the request's language.
 *
 * @example
 * reply.send({ message: t(request, 'http.notFound') });
 */
export function t(
  request: Pick<FastifyRequest, 'headers'>,
  key: string,
  params?: Record<string, unknown>,
): string {
  return translate(requestLanguage(request), key, params);
}
