import { createSchema, issueMessage } from './schema';
import { defineEntity } from './entity';
import { circuits, employees, roles } from './entities/index';
import {
  foldArabic,
  joinCompoundNames,
  hasBidiControls,
  hasControlCharacters,
  isWellFormed,
  normalizeDigits,
  parseDigits,
} from './text';

describe('normalizeDigits', () => {
  it.each([
    ['٠١٢٣٤٥٦٧٨٩', '0123456789'],
    ['۰۱۲۳۴۵۶۷۸۹', '0123456789'],
    ['٠١٠٠١٢٣٤٥٦٧', '01001234567'],
    ['+٩٦٦ ۵۰۰', '+966 500'],
    ['abc 123', 'abc 123'],
    ['قضية ٢٩/١٤٤٥', 'قضية 29/1445'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeDigits(input)).toBe(expected);
  });

  it.each([
    ['١٢', 12],
    ['۱۸۰۴', 1804],
    ['  7 ', 7],
    ['-٣', -3],
    ['٣٫٥', 3.5],
    ['12a', '12a'],
    ['', ''],
    [5, 5],
    [null, null],
  ])('parseDigits(%j) → %j', (input, expected) => {
    expect(parseDigits(input)).toBe(expected);
  });
});

/** The folding table: the engine's `q` search and the client's filters both rely on these. */
describe('foldArabic', () => {
  it.each([
    // hamza and alef forms
    ['أحمد', 'احمد'],
    ['إبراهيم', 'ابراهيم'],
    ['آمنة', 'امنه'],
    ['ٱلله', 'الله'],
    ['أحمد إبراهيم', 'احمد ابراهيم'],
    ['مسؤول', 'مسوول'],
    ['رئيس', 'رييس'],
    ['هيئة', 'هييه'],
    // ta marbuta and alef maqsura
    ['محكمة', 'محكمه'],
    ['فاطمة الزهراء', 'فاطمه الزهراء'],
    ['مصطفى', 'مصطفي'],
    ['على', 'علي'],
    // diacritics, superscript alef, Quranic marks
    ['مُحَمَّد', 'محمد'],
    ['قَضِيَّةٌ', 'قضيه'],
    ['رَحْمٰن', 'رحمن'],
    ['سلامً', 'سلام'],
    // tatweel and invisible marks
    ['محـــمد', 'محمد'],
    ['عبد\u200Cالله', 'عبدالله'],
    ['\u200Fأحمد\u200E', 'احمد'],
    ['\u202Bمكتب\u202C', 'مكتب'],
    // digits
    ['٢٩٨٠١', '29801'],
    ['۲۹۸۰۱', '29801'],
    ['دائرة ١٢', 'دايره 12'],
    // Latin case and mixed scripts
    ['Ahmed IBRAHIM', 'ahmed ibrahim'],
    ['Mizan قانون LLC', 'mizan قانون llc'],
    ['ＡＢＣ', 'abc'],
    // whitespace
    ['  أحمد   \t علي \n', 'احمد علي'],
    ['', ''],
    // presentation forms and Persian letters
    ['ﻻ', 'لا'],
    ['ﺃﺣﻤﺪ', 'احمد'],
    ['علی', 'علي'],
    ['کریم', 'كريم'],
    // already folded text is unchanged
    ['احمد ابراهيم', 'احمد ابراهيم'],
    // a whole client record as typed: several rules at once
    ['مؤسسة أحمد ABC للمحاماة ٢٠٢٤', 'موسسه احمد abc للمحاماه 2024'],
    ['إِيمَان عبد الـرحمن', 'ايمان عبدالرحمن'],
    ['Hoda هُدى ۱۲۳', 'hoda هدي 123'],
  ])('%j → %j', (input, expected) => {
    expect(foldArabic(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const s of ['أَحْمَدُ إبراهيمـ', 'Ÿ ÉCOLE ٣', 'مسؤولة', 'عبد  الله أبو بكر'])
      expect(foldArabic(foldArabic(s))).toBe(foldArabic(s));
  });
});

/** Compound names fold to one word, written joined or apart: each pair finds the other. */
describe('foldArabic: compound names', () => {
  it.each([
    ['عبدالفتاح', 'عبد الفتاح', 'عبدالفتاح'],
    ['عبدالله', 'عبد الله', 'عبدالله'],
    ['عبدُ اللهِ', 'عبد   الله', 'عبدالله'],
    ['عبد الرحمن', 'عبدالرحمن', 'عبدالرحمن'],
    ['أبو بكر', 'أبوبكر', 'ابوبكر'],
    ['ابو بكر', 'أبوبكر', 'ابوبكر'],
    ['أبي طالب', 'أبيطالب', 'ابيطالب'],
    ['أبا ذر', 'أباذر', 'اباذر'],
    ['محمد عبد الفتاح', 'محمد عبدالفتاح', 'محمد عبدالفتاح'],
    ['علي بن أبي طالب', 'علي بن ابيطالب', 'علي بن ابيطالب'],
  ])('%j and %j → %j', (apart, joined, expected) => {
    expect(foldArabic(apart)).toBe(expected);
    expect(foldArabic(joined)).toBe(expected);
  });

  it.each([
    // a word that only ends in the prefix is not one
    ['العبد الصالح', 'العبد الصالح'],
    ['الابو الكبير', 'الابو الكبير'],
    // the prefix alone, last, or before a number stays a word (a query typed so far)
    ['عبد', 'عبد'],
    ['محمد عبد', 'محمد عبد'],
    ['ابو 12', 'ابو 12'],
    // Latin is left alone
    ['Abu Bakr', 'abu bakr'],
  ])('%j → %j', (input, expected) => {
    expect(foldArabic(input)).toBe(expected);
  });

  it('joins across a space only, never across the line between two folded fields', () => {
    expect(joinCompoundNames('عبد\nالله')).toBe('عبد\nالله');
    expect(joinCompoundNames('محمد عبد الله\nابو بكر')).toBe('محمد عبدالله\nابوبكر');
  });

  it('of text folded before compounds were joined gives what folding gives now', () => {
    for (const s of ['محمد عبد الفتاح', 'أبو بكر الصديق', 'شركة عبد اللطيف'])
      expect(joinCompoundNames(foldArabic(s).replace(/(عبد|ابو|ابي|ابا)(?=\S)/gu, '$1 '))).toBe(
        foldArabic(s),
      );
  });
});

describe('text safety predicates', () => {
  it.each([
    ['plain', true],
    ['😀 emoji pair', true],
    ['lone high \uD83D end', false],
    ['\uDE00 lone low', false],
    ['reversed \uDE00\uD83D', false],
  ])('isWellFormed(%j) = %s', (s, ok) => expect(isWellFormed(s)).toBe(ok));

  it.each([
    ['a\u0000b', true],
    ['bell\u0007', true],
    ['del\u007F', true],
    ['c1\u0085', true],
    ['tab\tand\nnewline\r\n', false],
    ['عربي', false],
  ])('hasControlCharacters(%j) = %s', (s, bad) => expect(hasControlCharacters(s)).toBe(bad));

  it.each([
    ['\u202Egnp.exe', true],
    ['\u2066isolate\u2069', true],
    ['\u202Aembed', true],
    ['rlm\u200F is a mark, not a control', false],
  ])('hasBidiControls(%j) = %s', (s, bad) => expect(hasBidiControls(s)).toBe(bad));
});

const keysOf = (result: { success: boolean; error?: { issues: Parameters<typeof issueMessage>[0][] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), issueMessage(i).key]));

describe('field schemas', () => {
  const probe = defineEntity({
    name: 'probes',
    path: '/admin/probes',
    remote: 'settings',
    fields: {
      name: { type: 'string', required: true, max: 20 },
      notes: { type: 'text' },
      phone: { type: 'phone', max: 20 },
      count: { type: 'integer', min: 0, max: 5000 },
      ratio: { type: 'number' },
      ownerId: { type: 'ref', entity: 'employees' },
      nationalId: { type: 'string', max: 14, code: true },
      email: { type: 'email' },
      secret: { type: 'password' },
      day: { type: 'date' },
    },
  });
  const schema = createSchema(probe);

  it('accepts Arabic-Indic and Persian digits in phones, numbers, references, codes and dates', () => {
    expect(
      schema.parse({
        name: 'x',
        phone: '٠١٠٠١٢٣٤٥٦٧',
        count: '۱۸۰۴',
        ratio: '٢٫٥',
        ownerId: '٣',
        nationalId: '٢٩٨٠١٠١٠١٢٣٤٥٦',
        day: '٢٠٢٤-٠٥-٠١',
      }),
    ).toMatchObject({
      phone: '01001234567',
      count: 1804,
      ratio: 2.5,
      ownerId: 3,
      nationalId: '29801010123456',
      day: '2024-05-01',
    });
  });

  it('keeps the field rules after normalising digits', () => {
    expect(keysOf(schema.safeParse({ name: 'x', phone: '٠١٢', count: '٩٩٩٩', ownerId: 'abc' }))).toEqual({
      phone: 'validation.pattern.mismatch',
      count: 'validation.number.max',
      ownerId: 'validation.types.integer',
    });
  });

  it('leaves Arabic-Indic digits of ordinary text as typed', () => {
    expect(schema.parse({ name: 'مكتب ٣' }).name).toBe('مكتب ٣');
  });

  it.each([
    ['name', 'a\u0000b', 'validation.text.control'],
    ['notes', 'line\u0007', 'validation.text.control'],
    ['name', '\u202Egnp.exe', 'validation.text.bidi'],
    ['email', '\u2066a@b.co\u2069', 'validation.text.bidi'],
    ['name', 'bad \uD800', 'validation.text.malformed'],
    ['notes', '\uDC00', 'validation.text.malformed'],
    ['secret', 'pw\u0000', 'validation.text.control'],
  ])('%s = %j → %s', (field, value, key) => {
    expect(keysOf(schema.safeParse({ name: 'ok', [field]: value }))[field]).toBe(key);
  });

  it('lets multi-line text keep tabs, newlines and bidi controls, and stores NFC', () => {
    const parsed = schema.parse({ name: 'Cafe\u0301', notes: 'a\tb\r\nc \u202Bعربي\u202C' });
    expect(parsed.name).toBe('Café');
    expect(parsed.name).toHaveLength(4);
    expect(parsed.notes).toBe('a\tb\r\nc \u202Bعربي\u202C');
  });

  it('keeps passwords as typed (no normalisation the sign-in would not repeat)', () => {
    expect(schema.parse({ name: 'x', secret: 'Cafe\u0301' }).secret).toBe('Cafe\u0301');
  });

  it('applies to the real definitions: roles, employees, circuits', () => {
    expect(keysOf(createSchema(roles).safeParse({ name: 'a\u0000b' })).name).toBe('validation.text.control');
    expect(createSchema(circuits).parse({ name: 'الأولى', number: '١٢', courtId: '٧' })).toMatchObject({
      number: 12,
      courtId: 7,
    });
    expect(
      keysOf(createSchema(employees).safeParse({ name: 'x', phone: '٠١٠٠١٢٣٤٥٦٧' })).phone,
    ).toBeUndefined();
  });
});
