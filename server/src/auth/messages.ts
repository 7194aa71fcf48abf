import type { FastifyRequest } from 'fastify';
import { registerMessages, requestLanguage, type Lang } from '../http/messages';

export type { Lang };

/** Messages of the auth and people routes, Arabic first (DESIGN §4: the request's language, default Arabic). */
const MESSAGES = {
  tokenMissing: { ar: 'يرجى تسجيل الدخول', en: 'Please sign in' },
  tokenInvalid: {
    ar: 'انتهت الجلسة، يرجى تسجيل الدخول مرة أخرى',
    en: 'Your session has ended, please sign in again',
  },
  fingerprintMismatch: {
    ar: 'هذه الجلسة مرتبطة بجهاز آخر، يرجى تسجيل الدخول مرة أخرى',
    en: 'This session belongs to another device, please sign in again',
  },
  forbidden: { ar: 'لا يمكنك الوصول إلى هذه الصفحة', en: 'You cannot access this page' },
  passwordChangeRequired: {
    ar: 'يجب عليك تغيير كلمة المرور للمتابعة',
    en: 'You must change your password to continue',
  },
  employeeBanned: {
    ar: 'تم حظر حسابك، يرجى التواصل مع مدير النظام',
    en: 'Your account is banned, please contact the administrator',
  },
  employeeInactive: {
    ar: 'حسابك غير مفعل، يرجى التواصل مع مدير النظام',
    en: 'Your account is inactive, please contact the administrator',
  },
  roleBlocked: {
    ar: 'تم إيقاف أحد أدوار حسابك، يرجى التواصل مع مدير النظام',
    en: 'One of your roles is suspended, please contact the administrator',
  },
  badCredentials: {
    ar: 'البريد الإلكتروني أو اسم المستخدم أو كلمة المرور غير صحيحة',
    en: 'The email, username or password is incorrect',
  },
  tooManyRequests: {
    ar: 'محاولات كثيرة، يرجى المحاولة بعد {{seconds}} ثانية',
    en: 'Too many attempts, please try again in {{seconds}} seconds',
  },
  loggedOut: { ar: 'تم تسجيل الخروج بنجاح', en: 'Signed out successfully' },
  forgotPasswordSent: {
    ar: 'إذا كان البريد الإلكتروني مسجلاً لدينا فستصلك رسالة فيها رابط ورمز لإعادة تعيين كلمة المرور',
    en: 'If this email is registered, you will receive a message with a link and a code to reset your password',
  },
  resetInvalid: {
    ar: 'رابط أو رمز إعادة التعيين غير صالح أو منتهي الصلاحية',
    en: 'The reset link or code is invalid or has expired',
  },
  resetTooManyAttempts: {
    ar: 'تم تجاوز عدد المحاولات المسموح بها لهذا الرمز، يرجى طلب رمز جديد',
    en: 'Too many attempts for this code, please request a new one',
  },
  resetDone: {
    ar: 'تم تغيير كلمة المرور بنجاح، يمكنك تسجيل الدخول الآن',
    en: 'Your password has been changed, you can sign in now',
  },
  passwordTooShort: {
    ar: 'يجب ألا تقل كلمة المرور عن {{min}} أحرف',
    en: 'The password must be at least {{min}} characters',
  },
  passwordTooLong: {
    ar: 'يجب ألا تزيد كلمة المرور على {{max}} حرفاً',
    en: 'The password must be at most {{max}} characters',
  },
  passwordWeak: {
    ar: 'كلمة المرور ضعيفة: استخدم نوعين على الأقل من الحروف والأرقام والرموز',
    en: 'The password is weak: use at least two of letters, digits and symbols',
  },
  passwordNeedsDigit: {
    ar: 'يجب أن تحتوي كلمة المرور على رقم واحد على الأقل',
    en: 'The password must contain at least one digit',
  },
  passwordNeedsSymbol: {
    ar: 'يجب أن تحتوي كلمة المرور على رمز واحد على الأقل (مثل ! أو @)',
    en: 'The password must contain at least one symbol (such as ! or @)',
  },
  passwordSameAsOld: {
    ar: 'يجب أن تختلف كلمة المرور الجديدة عن الحالية',
    en: 'The new password must differ from the current one',
  },
  currentPasswordWrong: { ar: 'كلمة المرور الحالية غير صحيحة', en: 'The current password is incorrect' },
  passwordChanged: { ar: 'تم تغيير كلمة المرور بنجاح', en: 'Your password has been changed' },
  passwordResetByAdmin: {
    ar: 'تم تعيين كلمة مرور مؤقتة، وسيُطلب من الموظف تغييرها عند الدخول',
    en: 'A temporary password was set; the employee must change it at the next sign-in',
  },
  required: { ar: 'حقل {{label}} مطلوب', en: '{{label}} is required' },
  invalidEmail: { ar: 'حقل {{label}} ليس بريداً إلكترونياً صحيحاً', en: '{{label}} is not a valid email' },
  tooLong: {
    ar: 'يجب ألا يزيد {{label}} على {{max}} حرفاً',
    en: '{{label}} must be at most {{max}} characters',
  },
  tooShort: {
    ar: 'يجب ألا يقل {{label}} عن {{min}} أحرف',
    en: '{{label}} must be at least {{min}} characters',
  },
  invalidData: { ar: 'يرجى التحقق من البيانات المدخلة', en: 'Please check the entered data' },
  emailTaken: { ar: 'البريد الإلكتروني مستخدم من قبل', en: 'This email is already in use' },
  usernameTaken: { ar: 'اسم المستخدم مستخدم من قبل', en: 'This username is already in use' },
  notFound: { ar: 'الموظف غير موجود', en: 'The employee does not exist' },
  mailSubject: { ar: 'إعادة تعيين كلمة المرور - {{office}}', en: 'Reset your password - {{office}}' },
  mailGreeting: { ar: 'مرحباً {{name}}،', en: 'Hello {{name}},' },
  mailBody: {
    ar: 'تلقينا طلباً لإعادة تعيين كلمة المرور لحسابك. افتح الرابط التالي أو أدخل الرمز، خلال {{minutes}} دقيقة:',
    en: 'We received a request to reset the password of your account. Open the link below or enter the code within {{minutes}} minutes:',
  },
  mailCode: { ar: 'الرمز: {{code}}', en: 'Code: {{code}}' },
  mailIgnore: {
    ar: 'إذا لم تطلب ذلك فتجاهل هذه الرسالة، ولن يتغير شيء.',
    en: 'If you did not ask for this, ignore this message; nothing will change.',
  },
  mailButton: { ar: 'إعادة تعيين كلمة المرور', en: 'Reset password' },
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof MESSAGES;

/** Field labels used in this module's 422 answers. */
export const LABELS: Record<string, Record<Lang, string>> = {
  email: { ar: 'البريد الإلكتروني', en: 'Email' },
  password: { ar: 'كلمة المرور', en: 'Password' },
  newPassword: { ar: 'كلمة المرور الجديدة', en: 'New password' },
  currentPassword: { ar: 'كلمة المرور الحالية', en: 'Current password' },
  token: { ar: 'رمز إعادة التعيين', en: 'Reset token' },
  code: { ar: 'الرمز', en: 'Code' },
  name: { ar: 'الاسم', en: 'Name' },
  username: { ar: 'اسم المستخدم', en: 'Username' },
  phone: { ar: 'الهاتف', en: 'Phone' },
  jobTitle: { ar: 'المسمى الوظيفي', en: 'Job title' },
};

export function message(lang: Lang, key: MessageKey, vars: Record<string, string | number> = {}): string {
  return MESSAGES[key][lang].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

export function label(lang: Lang, field: string): string {
  return LABELS[field]?.[lang] ?? field;
}

export function requestLang(request: FastifyRequest): Lang {
  return requestLanguage(request);
}

// The error handler translates `auth.<key>` in the request's language.
registerMessages(Object.fromEntries(Object.entries(MESSAGES).map(([key, texts]) => [`auth.${key}`, texts])));
