import type { DocumentRecordKind, DocumentTemplateKind } from '@mizan/contracts';
import fs from 'node:fs';
import path from 'node:path';
import PizZip from 'pizzip';

/**
 * The Arabic starter templates a new office begins with: a memo to the court, a hearing notice to
 * the client, a request for a power of attorney, a fee receipt and a tax invoice. Their `.docx` files are built
 * by `buildStarterDocx` and kept in `server/templates/` (rebuilt with
 * `node server/dist/documents/starters.js`); the office downloads, edits and uploads them again.
 */

/** A paragraph: its text (with merge tags), and whether it is a heading or centred. */
type Para = string | { text: string; heading?: boolean; center?: boolean };

export interface Starter {
  file: string;
  name: string;
  kind: DocumentTemplateKind;
  record: DocumentRecordKind;
  description: string;
  body: Para[];
}

export const STARTERS: readonly Starter[] = [
  {
    file: 'memo-to-court.docx',
    name: 'مذكرة بدفاع إلى المحكمة',
    kind: 'memo',
    record: 'lawsuit',
    description: 'مذكرة تقدم إلى المحكمة في دعوى، بأطرافها وجلساتها وطلبات الموكل',
    body: [
      { text: 'بسم الله الرحمن الرحيم', center: true },
      { text: 'محكمة {lawsuit.court.name}', heading: true, center: true },
      { text: 'مذكرة بدفاع', heading: true, center: true },
      'مقدمة من: {lawsuit.customersText} ({lawsuit.ownerType.name})',
      'ضد: {lawsuit.opponentsText}',
      'في الدعوى رقم {lawsuit.caseNumber} لسنة {lawsuit.caseYear} (ملف المكتب رقم {lawsuit.fileNumber})',
      'والمحدد لنظرها جلسة {next.sessions.date}',
      { text: 'الوقائع', heading: true },
      '{lawsuit.subject}',
      '{#lawsuit.claimAmount}قيمة المطالبة: {lawsuit.claimAmount} ({lawsuit.claimAmountWords}).{/lawsuit.claimAmount}',
      { text: 'سير الدعوى', heading: true },
      '{#sessions}جلسة {date}: {decision}{/sessions}',
      { text: 'الطلبات', heading: true },
      'يلتمس المدعي الحكم له بطلباته الواردة بصحيفة الدعوى، مع إلزام المدعى عليه المصروفات ومقابل أتعاب المحاماة.',
      'وكيل المدعي: {office.name}',
      'تحريرًا في {today}',
    ],
  },
  {
    file: 'hearing-notice.docx',
    name: 'إخطار الموكل بموعد جلسة',
    kind: 'clientLetter',
    record: 'session',
    description: 'خطاب إلى الموكل بموعد الجلسة القادمة ومكانها وما يلزم إحضاره',
    body: [
      { text: '{office.name}', heading: true, center: true },
      { text: 'إخطار بموعد جلسة', heading: true, center: true },
      'السيد/ {session.lawsuit.customersText} المحترم،',
      'تحية طيبة وبعد،',
      'نحيطكم علمًا بأن الدعوى رقم {session.lawsuit.caseNumber} لسنة {session.lawsuit.caseYear} (ملف المكتب رقم {session.lawsuit.fileNumber}) المنظورة أمام {session.court.name} قد تحدد لنظرها جلسة يوم {session.dateHijri} الموافق {session.dateGregorian}{#session.time} الساعة {session.time}{/session.time}.',
      '{#session.requirements}والمطلوب للجلسة: {session.requirements}{/session.requirements}',
      'يحضر الجلسة عن المكتب: {session.lawyer.name}',
      'وتفضلوا بقبول فائق الاحترام،',
      '{office.name} - {office.address} - {office.phone}',
      'تحريرًا في {today}',
    ],
  },
  {
    file: 'procuration-request.docx',
    name: 'طلب عمل توكيل',
    kind: 'procurationRequest',
    record: 'lawsuit',
    description: 'خطاب إلى الموكل يطلب منه عمل توكيل رسمي في القضايا لمحامي المكتب',
    body: [
      { text: '{office.name}', heading: true, center: true },
      { text: 'طلب عمل توكيل رسمي في القضايا', heading: true, center: true },
      'السيد/ {lawsuit.customer.name} المحترم،',
      '{#lawsuit.customer.nationalId}رقم الهوية: {lawsuit.customer.nationalId}{/lawsuit.customer.nationalId}',
      'تحية طيبة وبعد،',
      'لمباشرة الدعوى رقم {lawsuit.caseNumber} لسنة {lawsuit.caseYear} أمام محكمة {lawsuit.court.name} ضد {lawsuit.opponentsText}، نرجو التكرم بالتوجه إلى أقرب مكتب توثيق لعمل توكيل رسمي عام في القضايا باسم محامي المكتب: {lawsuit.lawyersText}.',
      'ويرجى إحضار أصل بطاقة الرقم القومي، وموافاتنا بصورة من التوكيل بعد إصداره.',
      'وتفضلوا بقبول فائق الاحترام،',
      '{office.name} - {office.phone}',
      'تحريرًا في {today}',
    ],
  },
  {
    file: 'fee-receipt.docx',
    name: 'إيصال استلام أتعاب',
    kind: 'receipt',
    record: 'lawsuit',
    description: 'إيصال بالأتعاب المتفق عليها في دعوى، بالأرقام والحروف، وبالدفعات المسددة',
    body: [
      { text: '{office.name}', heading: true, center: true },
      { text: 'إيصال استلام أتعاب', heading: true, center: true },
      'استلمنا من السيد/ {lawsuit.customersText}',
      'مبلغًا وقدره {lawsuit.agreedFee}',
      '({lawsuit.agreedFeeWords})',
      'وذلك قيمة أتعاب المحاماة المتفق عليها في الدعوى رقم {lawsuit.caseNumber} لسنة {lawsuit.caseYear} (ملف المكتب رقم {lawsuit.fileNumber}).',
      { text: 'الدفعات المسددة', heading: true },
      '{#lawsuitPayments}{paidOn}: {amount} ({amountWords}){/lawsuitPayments}',
      'المستلم: ........................      التوقيع: ........................',
      'تحريرًا في {today}',
    ],
  },
  {
    // No QR code: the document fields offer none (the print view of the invoice shows it).
    file: 'invoice.docx',
    name: 'فاتورة ضريبية',
    kind: 'invoice',
    record: 'invoice',
    description: 'فاتورة إلى الموكل ببنودها وضريبة القيمة المضافة وإجماليها بالأرقام والحروف',
    body: [
      { text: '{%office.logo}', center: true },
      { text: '{office.name}', heading: true, center: true },
      {
        text: '{office.address}{#office.phone}  هاتف: {office.phone}{/office.phone}{#office.email}  البريد: {office.email}{/office.email}',
        center: true,
      },
      { text: '{#office.vatNumber}الرقم الضريبي: {office.vatNumber}{/office.vatNumber}', center: true },
      { text: 'فاتورة ضريبية', heading: true, center: true },
      'رقم الفاتورة: {invoice.number}',
      'تاريخ الإصدار: {invoice.issueDateHijri} الموافق {invoice.issueDateGregorian}',
      '{#invoice.dueDate}تاريخ الاستحقاق: {invoice.dueDateHijri} الموافق {invoice.dueDateGregorian}{/invoice.dueDate}',
      'العميل: {invoice.customer.name}',
      '{#invoice.lawsuit.fileNumber}الدعوى: ملف المكتب رقم {invoice.lawsuit.fileNumber}{/invoice.lawsuit.fileNumber}',
      { text: 'البنود', heading: true },
      '{#invoiceLines}{description}: الكمية {quantity} × {unitPrice}، الصافي {net}، الضريبة {vat}، الإجمالي {total}{/invoiceLines}',
      'المجموع قبل الضريبة: {invoice.subtotal}',
      'ضريبة القيمة المضافة: {invoice.vatTotal}',
      { text: 'الإجمالي شاملًا الضريبة: {invoice.total}', heading: true },
      '({invoice.totalWords})',
      { text: '{%invoice.qr}', center: true },
      '{#invoice.notes}ملاحظات: {invoice.notes}{/invoice.notes}',
      'تحريرًا في {today}',
    ],
  },
];

/** A font with Arabic letters on every system that opens the file (Word and LibreOffice alike). */
const FONT = 'Arial';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A right-to-left paragraph (`w:bidi`) of one right-to-left run (`w:rtl`) in the Arabic font. */
function paragraph(para: Para): string {
  const { text, heading, center } = typeof para === 'string' ? { text: para } : para;
  const size = heading ? 32 : 28;
  return (
    `<w:p><w:pPr><w:bidi/><w:spacing w:after="160" w:line="360" w:lineRule="auto"/>` +
    `<w:jc w:val="${center ? 'center' : 'both'}"/></w:pPr>` +
    `<w:r><w:rPr><w:rFonts w:ascii="${FONT}" w:hAnsi="${FONT}" w:cs="${FONT}"/>` +
    `${heading ? '<w:b/><w:bCs/>' : ''}<w:rtl/><w:sz w:val="${size}"/><w:szCs w:val="${size}"/>` +
    `<w:lang w:bidi="ar-EG"/></w:rPr><w:t xml:space="preserve">${escape(text)}</w:t></w:r></w:p>`
  );
}

/** The `.docx` of a starter template: the least a DOCX needs, every paragraph right to left. */
export function buildStarterDocx(starter: Starter): Buffer {
  const zip = new PizZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    'word/_rels/document.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    'word/styles.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults>' +
      `<w:rPrDefault><w:rPr><w:rFonts w:ascii="${FONT}" w:hAnsi="${FONT}" w:cs="${FONT}"/>` +
      '<w:rtl/><w:lang w:val="ar-EG" w:bidi="ar-EG"/></w:rPr></w:rPrDefault>' +
      '<w:pPrDefault><w:pPr><w:bidi/></w:pPr></w:pPrDefault></w:docDefaults></w:styles>',
  );
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
      starter.body.map(paragraph).join('') +
      '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/>' +
      '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>' +
      '<w:bidi/></w:sectPr></w:body></w:document>',
  );
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** Where the built starter templates are kept: `server/templates` (from `src/` or `dist/` alike). */
export const STARTERS_DIR = path.join(__dirname, '..', '..', 'templates');

/** Reads a starter template's committed file. */
export function starterFile(starter: Starter): Buffer {
  return fs.readFileSync(path.join(STARTERS_DIR, starter.file));
}

// `node server/dist/documents/starters.js` rebuilds the files in server/templates.
if (require.main === module) {
  fs.mkdirSync(STARTERS_DIR, { recursive: true });
  for (const starter of STARTERS) {
    fs.writeFileSync(path.join(STARTERS_DIR, starter.file), buildStarterDocx(starter));
    console.info(`wrote ${path.join(STARTERS_DIR, starter.file)}`);
  }
}
