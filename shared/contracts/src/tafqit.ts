/**
 * Amounts in words ("tafqit"), Arabic and English, as receipts, cheques and court papers write
 * them: «فقط ألف ومائتا جنيه لا غير». Pure functions of integers, no rounding.
 *
 * Arabic follows the rules of the counted noun (تمييز العدد):
 * - 1 and 2 are the noun alone, singular or dual (جنيه، جنيهان); 1 may follow as an adjective
 *   (جنيه واحد);
 * - 3–10 take the plural in the genitive, the number of the opposite gender (ثلاثة جنيهات، ثلاث هللات);
 * - 11–99 take the singular in the accusative (خمسة عشر جنيهًا، إحدى عشرة هللة);
 * - 100, 1000 and their multiples take the singular in the genitive, a dual number in construct
 *   (مائة جنيه، مائتا جنيه، ألفا جنيه);
 * - 101 and 102 past a round hundred repeat the noun (مائة جنيه وجنيه، ألف جنيه وجنيهان).
 * Thousands and millions are counted by the same rules (ثلاثة آلاف، أحد عشر ألفًا، مائتا ألف).
 */

/** The forms of a counted noun: singular, dual, plural (3–10), accusative singular (11–99). */
export interface CountedNoun {
  one: string;
  two: string;
  plural: string;
  accusative: string;
  feminine: boolean;
}

/** A currency: its Arabic and English names, major and minor units, minor units per major one. */
export interface Currency {
  code: string;
  ar: { major: CountedNoun; minor: CountedNoun };
  en: { major: [string, string]; minor: [string, string] };
  minorPerMajor: number;
}

const noun = (one: string, two: string, plural: string, accusative: string, feminine = false) => ({
  one,
  two,
  plural,
  accusative,
  feminine,
});

/** The currencies of the offices' countries (`officeCountry`). */
export const CURRENCIES = {
  EGP: {
    code: 'EGP',
    ar: {
      major: noun('جنيه', 'جنيهان', 'جنيهات', 'جنيهًا'),
      minor: noun('قرش', 'قرشان', 'قروش', 'قرشًا'),
    },
    en: { major: ['Egyptian pound', 'Egyptian pounds'], minor: ['piastre', 'piastres'] },
    minorPerMajor: 100,
  },
  SAR: {
    code: 'SAR',
    ar: {
      major: noun('ريال', 'ريالان', 'ريالات', 'ريالًا'),
      minor: noun('هللة', 'هللتان', 'هللات', 'هللة', true),
    },
    en: { major: ['Saudi riyal', 'Saudi riyals'], minor: ['halala', 'halalas'] },
    minorPerMajor: 100,
  },
  AED: {
    code: 'AED',
    ar: {
      major: noun('درهم', 'درهمان', 'دراهم', 'درهمًا'),
      minor: noun('فلس', 'فلسان', 'فلوس', 'فلسًا'),
    },
    en: { major: ['UAE dirham', 'UAE dirhams'], minor: ['fils', 'fils'] },
    minorPerMajor: 100,
  },
  KWD: {
    code: 'KWD',
    ar: {
      major: noun('دينار', 'ديناران', 'دنانير', 'دينارًا'),
      minor: noun('فلس', 'فلسان', 'فلوس', 'فلسًا'),
    },
    en: { major: ['Kuwaiti dinar', 'Kuwaiti dinars'], minor: ['fils', 'fils'] },
    minorPerMajor: 1000,
  },
  QAR: {
    code: 'QAR',
    ar: {
      major: noun('ريال', 'ريالان', 'ريالات', 'ريالًا'),
      minor: noun('درهم', 'درهمان', 'دراهم', 'درهمًا'),
    },
    en: { major: ['Qatari riyal', 'Qatari riyals'], minor: ['dirham', 'dirhams'] },
    minorPerMajor: 100,
  },
  BHD: {
    code: 'BHD',
    ar: {
      major: noun('دينار', 'ديناران', 'دنانير', 'دينارًا'),
      minor: noun('فلس', 'فلسان', 'فلوس', 'فلسًا'),
    },
    en: { major: ['Bahraini dinar', 'Bahraini dinars'], minor: ['fils', 'fils'] },
    minorPerMajor: 1000,
  },
  OMR: {
    code: 'OMR',
    ar: {
      major: noun('ريال', 'ريالان', 'ريالات', 'ريالًا'),
      minor: noun('بيسة', 'بيستان', 'بيسات', 'بيسة', true),
    },
    en: { major: ['Omani rial', 'Omani rials'], minor: ['baisa', 'baisa'] },
    minorPerMajor: 1000,
  },
  JOD: {
    code: 'JOD',
    ar: {
      major: noun('دينار', 'ديناران', 'دنانير', 'دينارًا'),
      minor: noun('فلس', 'فلسان', 'فلوس', 'فلسًا'),
    },
    en: { major: ['Jordanian dinar', 'Jordanian dinars'], minor: ['fils', 'fils'] },
    minorPerMajor: 1000,
  },
} as const satisfies Record<string, Currency>;

export type CurrencyCode = keyof typeof CURRENCIES;

/** The currency of an office's country (`officeCountry`); Egyptian pounds for any other. */
export function currencyOfCountry(country: string): Currency {
  const byCountry: Record<string, CurrencyCode> = {
    EG: 'EGP',
    SA: 'SAR',
    AE: 'AED',
    KW: 'KWD',
    QA: 'QAR',
    BH: 'BHD',
    OM: 'OMR',
    JO: 'JOD',
  };
  return CURRENCIES[byCountry[country] ?? 'EGP'];
}

const UNITS_M = ['', 'واحد', 'اثنان', 'ثلاثة', 'أربعة', 'خمسة', 'ستة', 'سبعة', 'ثمانية', 'تسعة', 'عشرة'];
const UNITS_F = ['', 'واحدة', 'اثنتان', 'ثلاث', 'أربع', 'خمس', 'ست', 'سبع', 'ثماني', 'تسع', 'عشر'];
const TENS = ['', '', 'عشرون', 'ثلاثون', 'أربعون', 'خمسون', 'ستون', 'سبعون', 'ثمانون', 'تسعون'];
const HUNDREDS = [
  '',
  'مائة',
  'مائتان',
  'ثلاثمائة',
  'أربعمائة',
  'خمسمائة',
  'ستمائة',
  'سبعمائة',
  'ثمانمائة',
  'تسعمائة',
];

/** 1–99 in words, agreeing with a counted noun of the given gender. */
function belowHundred(n: number, feminine: boolean): string {
  // 1 and 2 agree with the noun; 3–10 take the opposite gender, which is why the masculine list
  // holds the forms with ta marbuta (ثلاثة جنيهات، ثلاث هللات).
  const units = feminine ? UNITS_F : UNITS_M;
  if (n <= 10) return units[n]!;
  if (n === 11) return feminine ? 'إحدى عشرة' : 'أحد عشر';
  if (n === 12) return feminine ? 'اثنتا عشرة' : 'اثنا عشر';
  // In 13–19 the ten agrees with the noun and the unit does not (ثلاثة عشر جنيهًا، ثلاث عشرة هللة).
  if (n < 20) return `${units[n - 10]!} ${feminine ? 'عشرة' : 'عشر'}`;
  const unit = n % 10;
  const tens = TENS[Math.floor(n / 10)]!;
  if (!unit) return tens;
  return `${unit === 1 && feminine ? 'إحدى' : units[unit]!} و${tens}`;
}

/** 1–999 in words. */
function belowThousand(n: number, feminine: boolean): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts = [HUNDREDS[hundreds]!, rest ? belowHundred(rest, feminine) : ''].filter(Boolean);
  return parts.join(' و');
}

/**
 * A number directly before its noun is in construct: a dual loses its nun (مائتان → مائتا جنيه),
 * an accusative thousand or million its tanween (أحد عشر ألفًا → أحد عشر ألف جنيه).
 */
const construct = (words: string) =>
  words
    .replace(/(مائتان|ألفان|مليونان|ملياران|تريليونان)$/, (d) => d.slice(0, -1))
    .replace(/(ألف|مليون|مليار|تريليون)ًا$/, '$1');

/**
 * `n` things named by `counted`, in words: the number and the noun in their right forms.
 *
 * @example countArabic(1200, CURRENCIES.EGP.ar.major) // 'ألف ومائتا جنيه'
 * @example countArabic(3, CURRENCIES.SAR.ar.minor) // 'ثلاث هللات'
 */
export function countArabic(n: number, counted: CountedNoun): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Not a count: ${n}`);
  if (n === 0) return `صفر ${counted.one}`;
  if (n === 1) return `${counted.one} ${counted.feminine ? 'واحدة' : 'واحد'}`;
  if (n === 2) return counted.two;
  const rest = n % 100;
  if (n > 100 && (rest === 1 || rest === 2))
    return `${construct(numberArabic(n - rest, counted.feminine))} ${counted.one} و${rest === 1 ? counted.one : counted.two}`;
  const words = numberArabic(n, counted.feminine);
  if (rest >= 3 && rest <= 10) return `${words} ${counted.plural}`;
  if (rest >= 11) return `${words} ${counted.accusative}`;
  return `${construct(words)} ${counted.one}`;
}

const SCALES: readonly CountedNoun[] = [
  noun('ألف', 'ألفان', 'آلاف', 'ألفًا'),
  noun('مليون', 'مليونان', 'ملايين', 'مليونًا'),
  noun('مليار', 'ملياران', 'مليارات', 'مليارًا'),
  noun('تريليون', 'تريليونان', 'تريليونات', 'تريليونًا'),
];

/** A scale (thousands, millions) counted: ألف، ألفان، ثلاثة آلاف، أحد عشر ألفًا، مائة ألف. */
function scaleWords(count: number, scale: CountedNoun): string {
  if (count === 1) return scale.one;
  if (count === 2) return scale.two;
  return countArabic(count, scale);
}

/**
 * A number in Arabic words, in the gender of what it counts (a number standing alone: masculine).
 *
 * @example numberArabic(1200) // 'ألف ومائتان'
 * @example numberArabic(21, true) // 'إحدى وعشرون'
 */
export function numberArabic(n: number, feminine = false): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Not a count: ${n}`);
  if (n === 0) return 'صفر';
  const groups: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 1000)) groups.push(rest % 1000);
  const parts: string[] = [];
  for (let i = groups.length - 1; i >= 0; i--) {
    const group = groups[i]!;
    if (!group) continue;
    parts.push(i === 0 ? belowThousand(group, feminine) : scaleWords(group, SCALES[i - 1]!));
  }
  return parts.join(' و');
}

const EN_ONES = [
  '',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const EN_SCALES = ['', 'thousand', 'million', 'billion', 'trillion'];

function englishBelowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const tens =
    rest < 20
      ? EN_ONES[rest]!
      : `${EN_TENS[Math.floor(rest / 10)]!}${rest % 10 ? `-${EN_ONES[rest % 10]!}` : ''}`;
  return [hundreds ? `${EN_ONES[hundreds]!} hundred` : '', tens].filter(Boolean).join(' ');
}

/**
 * A number in English words.
 *
 * @example numberEnglish(1215) // 'one thousand two hundred fifteen'
 */
export function numberEnglish(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Not a count: ${n}`);
  if (n === 0) return 'zero';
  const parts: string[] = [];
  let scale = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 1000), scale++) {
    const group = rest % 1000;
    if (group) parts.unshift([englishBelowThousand(group), EN_SCALES[scale]!].filter(Boolean).join(' '));
  }
  return parts.join(' ');
}

/**
 * An amount in words, as written on a receipt: major and minor units, each with its name.
 * `minor` is in the currency's own minor units (0 ≤ minor < `minorPerMajor`).
 *
 * @example tafqit(1200, 0, CURRENCIES.EGP, 'ar') // 'فقط ألف ومائتا جنيه لا غير'
 * @example tafqit(1200, 50, CURRENCIES.EGP, 'en') // 'One thousand two hundred Egyptian pounds and fifty piastres only'
 */
export function tafqit(major: number, minor: number, currency: Currency, lng: 'ar' | 'en' = 'ar'): string {
  if (!Number.isSafeInteger(major) || major < 0) throw new RangeError(`Not an amount: ${major}`);
  if (!Number.isInteger(minor) || minor < 0 || minor >= currency.minorPerMajor)
    throw new RangeError(`Not a minor amount of ${currency.code}: ${minor}`);
  if (lng === 'ar') {
    const parts = [
      major || !minor ? countArabic(major, currency.ar.major) : '',
      minor ? countArabic(minor, currency.ar.minor) : '',
    ].filter(Boolean);
    return `فقط ${parts.join(' و')} لا غير`;
  }
  const english = (n: number, [one, many]: readonly [string, string]) =>
    `${numberEnglish(n)} ${n === 1 ? one : many}`;
  const parts = [
    major || !minor ? english(major, currency.en.major) : '',
    minor ? english(minor, currency.en.minor) : '',
  ].filter(Boolean);
  const text = `${parts.join(' and ')} only`;
  return text[0]!.toUpperCase() + text.slice(1);
}

/**
 * An amount of `MONEY_SCALE` minor units (a money field's value) in words in the currency given,
 * converting to the currency's own minor units (100 or 1000 per major).
 *
 * @example moneyInWords(120000, CURRENCIES.EGP, 100, 'ar') // 'فقط ألف ومائتا جنيه لا غير'
 */
export function moneyInWords(amount: number, currency: Currency, scale: number, lng: 'ar' | 'en'): string {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`Not an amount: ${amount}`);
  const major = Math.floor(amount / scale);
  const minor = ((amount % scale) * currency.minorPerMajor) / scale;
  return tafqit(major, Math.round(minor), currency, lng);
}
