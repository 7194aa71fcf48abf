import {
  CURRENCIES,
  countArabic,
  currencyOfCountry,
  moneyInWords,
  numberArabic,
  numberEnglish,
  tafqit,
} from './tafqit';

const EGP = CURRENCIES.EGP;
const SAR = CURRENCIES.SAR;

describe('tafqit: Arabic amounts in words', () => {
  it.each([
    [0, 0, 'فقط صفر جنيه لا غير'],
    [1, 0, 'فقط جنيه واحد لا غير'],
    [2, 0, 'فقط جنيهان لا غير'],
    [3, 0, 'فقط ثلاثة جنيهات لا غير'],
    [8, 0, 'فقط ثمانية جنيهات لا غير'],
    [10, 0, 'فقط عشرة جنيهات لا غير'],
    [11, 0, 'فقط أحد عشر جنيهًا لا غير'],
    [12, 0, 'فقط اثنا عشر جنيهًا لا غير'],
    [15, 0, 'فقط خمسة عشر جنيهًا لا غير'],
    [20, 0, 'فقط عشرون جنيهًا لا غير'],
    [21, 0, 'فقط واحد وعشرون جنيهًا لا غير'],
    [22, 0, 'فقط اثنان وعشرون جنيهًا لا غير'],
    [99, 0, 'فقط تسعة وتسعون جنيهًا لا غير'],
    [100, 0, 'فقط مائة جنيه لا غير'],
    [101, 0, 'فقط مائة جنيه وجنيه لا غير'],
    [102, 0, 'فقط مائة جنيه وجنيهان لا غير'],
    [103, 0, 'فقط مائة وثلاثة جنيهات لا غير'],
    [115, 0, 'فقط مائة وخمسة عشر جنيهًا لا غير'],
    [200, 0, 'فقط مائتا جنيه لا غير'],
    [250, 0, 'فقط مائتان وخمسون جنيهًا لا غير'],
    [300, 0, 'فقط ثلاثمائة جنيه لا غير'],
    [1000, 0, 'فقط ألف جنيه لا غير'],
    [1001, 0, 'فقط ألف جنيه وجنيه لا غير'],
    [1200, 0, 'فقط ألف ومائتا جنيه لا غير'],
    [1215, 0, 'فقط ألف ومائتان وخمسة عشر جنيهًا لا غير'],
    [2000, 0, 'فقط ألفا جنيه لا غير'],
    [2500, 0, 'فقط ألفان وخمسمائة جنيه لا غير'],
    [3000, 0, 'فقط ثلاثة آلاف جنيه لا غير'],
    [10000, 0, 'فقط عشرة آلاف جنيه لا غير'],
    [11000, 0, 'فقط أحد عشر ألف جنيه لا غير'],
    [25000, 0, 'فقط خمسة وعشرون ألف جنيه لا غير'],
    [100000, 0, 'فقط مائة ألف جنيه لا غير'],
    [101000, 0, 'فقط مائة ألف وألف جنيه لا غير'],
    [200000, 0, 'فقط مائتا ألف جنيه لا غير'],
    [350750, 0, 'فقط ثلاثمائة وخمسون ألفًا وسبعمائة وخمسون جنيهًا لا غير'],
    [1000000, 0, 'فقط مليون جنيه لا غير'],
    [2000000, 0, 'فقط مليونا جنيه لا غير'],
    [3000000, 0, 'فقط ثلاثة ملايين جنيه لا غير'],
    [12000000, 0, 'فقط اثنا عشر مليون جنيه لا غير'],
    [1000000000, 0, 'فقط مليار جنيه لا غير'],
    [1200, 50, 'فقط ألف ومائتا جنيه وخمسون قرشًا لا غير'],
    [0, 5, 'فقط خمسة قروش لا غير'],
    [7, 1, 'فقط سبعة جنيهات وقرش واحد لا غير'],
  ])('%d pounds %d piastres → %s', (major, minor, words) => {
    expect(tafqit(major, minor, EGP, 'ar')).toBe(words);
  });

  it.each([
    [3, 3, 'فقط ثلاثة ريالات وثلاث هللات لا غير'],
    [1, 1, 'فقط ريال واحد وهللة واحدة لا غير'],
    [2, 2, 'فقط ريالان وهللتان لا غير'],
    [11, 11, 'فقط أحد عشر ريالًا وإحدى عشرة هللة لا غير'],
    [12, 12, 'فقط اثنا عشر ريالًا واثنتا عشرة هللة لا غير'],
    [13, 13, 'فقط ثلاثة عشر ريالًا وثلاث عشرة هللة لا غير'],
    [21, 21, 'فقط واحد وعشرون ريالًا وإحدى وعشرون هللة لا غير'],
    [18, 18, 'فقط ثمانية عشر ريالًا وثماني عشرة هللة لا غير'],
  ])('a feminine minor unit (halala) reverses the gender of 3–10: %d.%d → %s', (major, minor, words) => {
    expect(tafqit(major, minor, SAR, 'ar')).toBe(words);
  });

  it('numbers standing alone and counting thousands', () => {
    expect(numberArabic(1200)).toBe('ألف ومائتان');
    expect(numberArabic(21, true)).toBe('إحدى وعشرون');
    expect(countArabic(11, CURRENCIES.AED.ar.major)).toBe('أحد عشر درهمًا');
    expect(countArabic(5, CURRENCIES.KWD.ar.major)).toBe('خمسة دنانير');
  });

  it('money field values (hundredths) convert to the currency minor unit', () => {
    expect(moneyInWords(120000, EGP, 100, 'ar')).toBe('فقط ألف ومائتا جنيه لا غير');
    expect(moneyInWords(150, CURRENCIES.KWD, 100, 'ar')).toBe('فقط دينار واحد وخمسمائة فلس لا غير');
    expect(currencyOfCountry('SA').code).toBe('SAR');
    expect(currencyOfCountry('XX').code).toBe('EGP');
  });

  it('refuses what is not an amount', () => {
    expect(() => tafqit(-1, 0, EGP)).toThrow(RangeError);
    expect(() => tafqit(1.5, 0, EGP)).toThrow(RangeError);
    expect(() => tafqit(1, 100, EGP)).toThrow(RangeError);
  });
});

describe('tafqit: English amounts in words', () => {
  it.each([
    [0, 0, 'Zero Egyptian pounds only'],
    [1, 0, 'One Egyptian pound only'],
    [1200, 50, 'One thousand two hundred Egyptian pounds and fifty piastres only'],
    [21, 1, 'Twenty-one Egyptian pounds and one piastre only'],
    [2000115, 0, 'Two million one hundred fifteen Egyptian pounds only'],
  ])('%d.%d → %s', (major, minor, words) => {
    expect(tafqit(major, minor, EGP, 'en')).toBe(words);
  });

  it('numbers', () => {
    expect(numberEnglish(1215)).toBe('one thousand two hundred fifteen');
    expect(numberEnglish(1000001)).toBe('one million one');
  });
});
