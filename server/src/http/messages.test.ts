import { resources } from '@mizan/i18n/resources';
import { hasMessage, requestLanguage, t, translate, fieldLabel } from './messages';
import { AppError, ERROR_STATUS } from './errors';
import { toErrorResponse } from './errorHandler';

describe('messages', () => {
  it('picks the request language from Accept-Language by quality, Arabic by default', () => {
    const lang = (header?: string, query?: unknown) =>
      requestLanguage({ headers: header === undefined ? {} : { 'accept-language': header }, query });
    expect(lang()).toBe('ar');
    expect(lang('en')).toBe('en');
    expect(lang('en-US,en;q=0.9')).toBe('en');
    expect(lang('fr-FR,en;q=0.5,ar;q=0.8')).toBe('ar');
    expect(lang('fr, de')).toBe('ar');
    expect(lang('en;q=0, ar')).toBe('ar');
    expect(lang('ar', { lang: 'en' })).toBe('en');
  });

  it('translates server keys and the shared validation keys with interpolation, falling back to English then the key', () => {
    expect(translate('en', 'http.notFound')).toBe('The requested item does not exist');
    expect(translate('ar', 'validation.required', { label: 'الاسم' })).toContain('الاسم');
    expect(translate('en', 'validation.string.max', { label: 'Name', max: 5 })).toBe(
      'Name must be at most 5 characters',
    );
    // `{{max, number}}`: the bound in the language's digits, as the client writes it.
    expect(translate('ar', 'validation.number.max', { label: 'المبلغ', max: 1500 })).toBe(
      'يجب ألا تزيد قيمة «المبلغ» على ١٬٥٠٠',
    );
    expect(translate('en', 'validation.array.max', { label: 'Lawyers', max: 1, count: 1 })).toBe(
      'Lawyers must have at most 1 item',
    );
    expect(translate('ar', 'no.such.key')).toBe('no.such.key');
    expect(fieldLabel('en', 'courts', 'courtType')).toBe('Court type');
    expect(fieldLabel('en', 'courts', 'noSuchField')).toBe('noSuchField');
  });

  it('reads each area from its server namespace of @mizan/i18n, in the request language', () => {
    const en = { headers: { 'accept-language': 'en' } };
    expect(t(en, 'auth.tooManyRequests', { seconds: 30 })).toBe(
      'Too many attempts, please try again in 30 seconds',
    );
    expect(t({ headers: {} }, 'import.rowPrefix', { row: 7 })).toBe('الصف 7');
    expect(t(en, 'system.fields.officeName')).toBe('Office name');
    expect(t(en, 'ws.badFrame')).toBe('Malformed message');
    // A placeholder without a value stays visible rather than silently vanishing.
    expect(translate('en', 'http.fileTooLarge')).toBe('The file is larger than allowed ({{max, number}} MB)');
    // The server namespace wins over the client namespace of the same area name (auth.json).
    expect(translate('en', 'auth.tokenMissing')).toBe(resources.en['server-auth'].tokenMissing);
  });

  it('has the default message of every error code in both languages', () => {
    const missing = (Object.keys(ERROR_STATUS) as (keyof typeof ERROR_STATUS)[]).flatMap((code) =>
      (['ar', 'en'] as const).filter((lang) => !hasMessage(lang, `http.${code}`)).map((l) => `${l}:${code}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('error responses', () => {
  it('maps every catalogue code to its status with a translated message', () => {
    const cases: [ConstructorParameters<typeof AppError>[0], number][] = [
      ['validation', 422],
      ['malformed', 400],
      ['unauthorized', 401],
      ['forbidden', 403],
      ['notFound', 404],
      ['unique', 409],
      ['referenced', 409],
      ['payloadTooLarge', 413],
      ['unsupportedMediaType', 415],
      ['tooManyRequests', 429],
      ['internal', 500],
    ];
    for (const [code, status] of cases) {
      const res = toErrorResponse(new AppError(code), 'en');
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.message).not.toMatch(/^http\./);
    }
  });

  it('translates field errors with the field label and keeps module errors and headers as given', () => {
    const res = toErrorResponse(
      new AppError('validation', { entity: 'courts', errors: { name: [{ key: 'validation.required' }] } }),
      'en',
    );
    expect(res.body).toEqual({
      message: 'Name is required',
      code: 'validation',
      errors: { name: ['Name is required'] },
    });
    const choice = toErrorResponse(
      new AppError('validation', {
        entity: 'lawsuitCases',
        errors: { outcome: [{ key: 'validation.enum', params: { values: 'ongoing, won, lost' } }] },
      }),
      'en',
    );
    expect(choice.body.errors!.outcome![0]).toMatch(/Ongoing.*Won.*Lost/i);
    const moduleError = Object.assign(new Error('انتظر قليلاً'), {
      statusCode: 429,
      code: 'tooManyRequests',
      headers: { 'retry-after': '30' },
    });
    expect(toErrorResponse(moduleError, 'ar')).toEqual({
      status: 429,
      body: { message: 'انتظر قليلاً', code: 'tooManyRequests' },
      headers: { 'retry-after': '30' },
    });
    expect(toErrorResponse(new Error('secret detail'), 'en')).toEqual({
      status: 500,
      body: { message: 'Server error, please try later', code: 'internal' },
    });
  });
});
