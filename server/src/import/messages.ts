import { registerMessages } from '../http/messages';

/** Messages of the import module (ar, en). */
registerMessages({
  'import.unsupported': {
    ar: 'نوع الملف غير مدعوم: يرجى رفع ملف CSV بترميز UTF-8 أو ملف Excel ‏(XLSX)',
    en: 'This file type is not supported: please upload a UTF-8 CSV or an Excel (XLSX) file',
  },
  'import.unreadable': {
    ar: 'تعذرت قراءة ملف Excel: قد يكون تالفاً أو ليس بصيغة XLSX',
    en: 'The Excel file could not be read: it may be damaged or not in XLSX format',
  },
  'import.noFile': { ar: 'يرجى اختيار ملف للاستيراد', en: 'Please choose a file to import' },
  'import.empty': { ar: 'الملف فارغ', en: 'The file is empty' },
  'import.headerless': {
    ar: 'يجب أن يحتوي الصف الأول على عناوين الأعمدة، ولم يُعرف أي منها. الأعمدة المتوقعة: {{columns}}',
    en: 'The first row must hold the column headers, and none was recognised. Expected columns: {{columns}}',
  },
  'import.noRows': {
    ar: 'لا يحتوي الملف على صفوف بيانات بعد صف العناوين',
    en: 'The file has no data rows below the header row',
  },
  'import.missingColumns': {
    ar: 'أعمدة مطلوبة غير موجودة في الملف: {{columns}}',
    en: 'Required columns are missing from the file: {{columns}}',
  },
  'import.tooManyRows': {
    ar: 'عدد الصفوف أكبر من المسموح: {{max}} صف كحد أقصى في الملف الواحد',
    en: 'Too many rows: at most {{max}} rows per file',
  },
  'import.tooLarge': {
    ar: 'حجم الملف أكبر من المسموح ({{max}} ميغابايت)',
    en: 'The file is larger than allowed ({{max}} MB)',
  },
  'import.invalidRows': {
    ar: 'لم يُستورد أي صف: يوجد {{count}} صف غير صالح. صحح الأخطاء ثم أعد المحاولة',
    en: 'Nothing was imported: {{count}} rows are invalid. Correct them and try again',
  },
  'import.rowPrefix': { ar: 'الصف {{row}}', en: 'Row {{row}}' },
  'import.refNotFound': {
    ar: 'لا يوجد {{label}} بالاسم أو الرقم "{{value}}"',
    en: 'No {{label}} has the name or id "{{value}}"',
  },
  'import.refAmbiguous': {
    ar: 'يوجد أكثر من {{label}} بالاسم "{{value}}"؛ استخدم الرقم بدلاً من الاسم',
    en: 'More than one {{label}} is named "{{value}}"; use the id instead of the name',
  },
  'import.duplicateInFile': {
    ar: 'مكرر للصف {{row}} في الملف نفسه ({{label}})',
    en: 'Duplicate of row {{row}} in the same file ({{label}})',
  },
  'import.duplicateExisting': {
    ar: 'موجود مسبقاً ({{label}})',
    en: 'Already exists ({{label}})',
  },
  'import.badFormat': {
    ar: 'صيغة القالب غير مدعومة: csv أو xlsx',
    en: 'Unsupported template format: csv or xlsx',
  },
  'import.instructions': { ar: 'تعليمات', en: 'Instructions' },
  'import.column': { ar: 'العمود', en: 'Column' },
  'import.required': { ar: 'مطلوب', en: 'Required' },
  'import.optional': { ar: 'اختياري', en: 'Optional' },
  'import.accepted': { ar: 'القيم المقبولة', en: 'Accepted values' },
  'import.refHint': {
    ar: 'اسم {{label}} كما هو مسجل أو رقمه',
    en: 'The {{label}} name as recorded, or its id',
  },
  'import.booleanHint': { ar: 'نعم / لا', en: 'yes / no' },
  'import.dateHint': { ar: 'YYYY-MM-DD', en: 'YYYY-MM-DD' },
  'import.listHint': { ar: 'عدة قيم مفصولة بـ ;', en: 'Several values separated by ;' },
});
