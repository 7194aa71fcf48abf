import type { MessageEvent, MessageLanguage } from '@mizan/contracts';

/** A default client message: one `messageTemplates` row a new office starts with. */
export type DefaultMessageTemplate = {
  name: string;
  event: MessageEvent;
  language: MessageLanguage;
  subject: string;
  body: string;
};

const AR_OPENING = 'السيد/ة {client.name}،\nتحية طيبة وبعد،\n';
const AR_CLOSING = '\nوتفضلوا بقبول فائق الاحترام،\n{office.name}';
const EN_OPENING = 'Dear {client.name},\n';
const EN_CLOSING = '\nYours faithfully,\n{office.name}';

/**
 * The office's first text for every event, in Arabic and English (filed once per database by
 * `seedListOnce`; the office edits or deletes them like its own). Each names only merge fields
 * its event's record offers (`EVENT_RECORDS`, `MESSAGE_TAGS`, `EVENT_TAGS`); a field the record may
 * leave blank (the lawsuit's court, the judgment's decision) sits in a section with the words that
 * introduce it (`render.ts`), so that a message without it still reads as a sentence. No
 * `whatsappTemplate`: a WhatsApp template is approved by Meta under the office's own business
 * account, so the office names its own; until then WhatsApp carries the text as a plain message.
 */
export const DEFAULT_MESSAGE_TEMPLATES: readonly DefaultMessageTemplate[] = [
  {
    name: 'إخطار بتحديد جلسة',
    event: 'hearingScheduled',
    language: 'ar',
    subject: 'تحديد جلسة في الدعوى رقم {session.lawsuit.fileNumber}',
    body:
      AR_OPENING +
      'نحيطكم علماً بأنه قد تحدد لنظر دعواكم رقم {session.lawsuit.fileNumber} جلسة بتاريخ {session.date}{#session.lawsuit.court} أمام {session.lawsuit.court}{/session.lawsuit.court}، وسنوافيكم بما يستجد فيها.' +
      AR_CLOSING,
  },
  {
    name: 'إخطار بتحديد جلسة (بالإنجليزية)',
    event: 'hearingScheduled',
    language: 'en',
    subject: 'Hearing scheduled in case no. {session.lawsuit.fileNumber}',
    body:
      EN_OPENING +
      'Please be advised that a hearing in your case no. {session.lawsuit.fileNumber} has been scheduled for {session.date}{#session.lawsuit.court} before {session.lawsuit.court}{/session.lawsuit.court}. We will keep you informed of its outcome.' +
      EN_CLOSING,
  },
  {
    name: 'إخطار بتأجيل جلسة',
    event: 'hearingPostponed',
    language: 'ar',
    subject: 'تأجيل جلسة الدعوى رقم {session.lawsuit.fileNumber}',
    body:
      AR_OPENING +
      'نحيطكم علماً بأن جلسة دعواكم رقم {session.lawsuit.fileNumber} المحددة بتاريخ {session.date}{#session.lawsuit.court} أمام {session.lawsuit.court}{/session.lawsuit.court} قد تأجلت إلى {event.newDate} للسبب: {event.reason}.' +
      AR_CLOSING,
  },
  {
    name: 'إخطار بتأجيل جلسة (بالإنجليزية)',
    event: 'hearingPostponed',
    language: 'en',
    subject: 'Hearing postponed in case no. {session.lawsuit.fileNumber}',
    body:
      EN_OPENING +
      'Please be advised that the hearing in your case no. {session.lawsuit.fileNumber} set for {session.date}{#session.lawsuit.court} before {session.lawsuit.court}{/session.lawsuit.court} has been postponed to {event.newDate}. Reason: {event.reason}.' +
      EN_CLOSING,
  },
  {
    name: 'إخطار بصدور حكم',
    event: 'judgmentRecorded',
    language: 'ar',
    subject: 'صدور حكم في الدعوى رقم {session.lawsuit.fileNumber}',
    body:
      AR_OPENING +
      'نحيطكم علماً بأنه قد صدر الحكم في دعواكم رقم {session.lawsuit.fileNumber} بجلسة {session.date}{#session.lawsuit.court} أمام {session.lawsuit.court}{/session.lawsuit.court}{#session.decision}، ومنطوقه: {session.decision}{/session.decision}.\nونرجو التواصل معنا لبحث الخطوات التالية ومواعيد الطعن المقررة قانوناً.' +
      AR_CLOSING,
  },
  {
    name: 'إخطار بصدور حكم (بالإنجليزية)',
    event: 'judgmentRecorded',
    language: 'en',
    subject: 'Judgment in case no. {session.lawsuit.fileNumber}',
    body:
      EN_OPENING +
      'Please be advised that judgment was delivered in your case no. {session.lawsuit.fileNumber} at the hearing of {session.date}{#session.lawsuit.court} before {session.lawsuit.court}{/session.lawsuit.court}{#session.decision}, as follows: {session.decision}{/session.decision}.\nPlease contact us to discuss the next steps and the time limits for any appeal.' +
      EN_CLOSING,
  },
  {
    name: 'تنبيه باقتراب موعد إجرائي',
    event: 'deadlineApproaching',
    language: 'ar',
    subject: 'اقتراب موعد إجرائي في الدعوى رقم {lawsuit.fileNumber}',
    body:
      AR_OPENING +
      'نحيطكم علماً بأن موعداً إجرائياً في دعواكم رقم {lawsuit.fileNumber} ينقضي بتاريخ {event.newDate}، ونرجو التواصل معنا قبل هذا التاريخ لاستيفاء ما قد يلزم من مستندات أو توقيعات.' +
      AR_CLOSING,
  },
  {
    name: 'تنبيه باقتراب موعد إجرائي (بالإنجليزية)',
    event: 'deadlineApproaching',
    language: 'en',
    subject: 'Deadline approaching in case no. {lawsuit.fileNumber}',
    body:
      EN_OPENING +
      'Please be advised that a procedural deadline in your case no. {lawsuit.fileNumber} falls due on {event.newDate}. Kindly contact us before that date so that any documents or signatures required can be completed in time.' +
      EN_CLOSING,
  },
  {
    name: 'مشاركة مستند',
    event: 'documentShared',
    language: 'ar',
    subject: 'مستند في الدعوى رقم {lawsuit.fileNumber}: {event.document}',
    body:
      AR_OPENING +
      'نرسل إليكم مستند «{event.document}» الخاص بدعواكم رقم {lawsuit.fileNumber}، وتجدونه مرفقاً برسالتنا إليكم بالبريد الإلكتروني أو عبر واتساب.' +
      AR_CLOSING,
  },
  {
    name: 'مشاركة مستند (بالإنجليزية)',
    event: 'documentShared',
    language: 'en',
    subject: 'Document in case no. {lawsuit.fileNumber}: {event.document}',
    body:
      EN_OPENING +
      'Please find the document “{event.document}” relating to your case no. {lawsuit.fileNumber} attached to our message by email or WhatsApp.' +
      EN_CLOSING,
  },
  {
    name: 'إخطار بإصدار فاتورة',
    event: 'invoiceIssued',
    language: 'ar',
    subject: 'فاتورة رقم {event.invoiceNumber} من {office.name}',
    body:
      AR_OPENING +
      'نحيطكم علماً بأنه قد صدرت باسمكم الفاتورة رقم {event.invoiceNumber} بإجمالي مبلغ {event.total}، ونرجو التكرم بسدادها، ويسعدنا الرد على أي استفسار بشأنها.' +
      AR_CLOSING,
  },
  {
    name: 'إخطار بإصدار فاتورة (بالإنجليزية)',
    event: 'invoiceIssued',
    language: 'en',
    subject: 'Invoice no. {event.invoiceNumber} from {office.name}',
    body:
      EN_OPENING +
      'Please be advised that invoice no. {event.invoiceNumber} for a total of {event.total} has been issued in your name. We would be grateful for its settlement and are happy to answer any question about it.' +
      EN_CLOSING,
  },
];
