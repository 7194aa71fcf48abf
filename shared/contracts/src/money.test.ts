import { defineEntity } from './entity';
import { MONEY_MAX, moneyToMajor, parseMoney } from './money';
import { createSchema, listQuerySchema } from './schema';

describe('parseMoney: major units as typed → minor units, exactly', () => {
  it.each([
    ['0', 0],
    ['1', 100],
    ['1.5', 150],
    ['1.50', 150],
    ['1.500', 150],
    ['1,234.50', 123450],
    ['1 234.50', 123450],
    ['12,345,678.09', 1234567809],
    ['١٬٢٣٤٫٥٠', 123450],
    ['۱۲۳۴.۵', 123450],
    ['  0.07 ', 7],
    ['.5', null],
    ['0.29', 29],
    ['1.10', 110],
    ['19.99', 1999],
    ['-5', -500],
    ['+5', 500],
    ['9999999999999.99', MONEY_MAX],
  ])('%s → %s', (text, minor) => {
    expect(parseMoney(text)).toBe(minor);
  });

  it('adds 0.1 and 0.2 to 0.3 (what floats do not), and 1.15 × 100 stays 115', () => {
    expect(parseMoney('0.1')! + parseMoney('0.2')!).toBe(parseMoney('0.3'));
    // 1.15 * 100 is 114.99999999999999 in floating point.
    expect(parseMoney('1.15')).toBe(115);
    expect(parseMoney('4.35')).toBe(435);
    expect(parseMoney('0.57')).toBe(57);
  });

  it.each([
    ['1.005'],
    ['0.001'],
    ['1,23.50'],
    ['1,2345'],
    ['12a'],
    [''],
    ['1.2.3'],
    ['1e3'],
    ['99999999999999.99'],
    ['NaN'],
  ])('refuses %j', (text) => {
    expect(parseMoney(text)).toBeNull();
  });
});

describe('moneyToMajor', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [150, '1.50'],
    [123450, '1234.50'],
    [-123450, '-1234.50'],
    [MONEY_MAX, '9999999999999.99'],
  ])('%s → %s', (minor, text) => {
    expect(moneyToMajor(minor)).toBe(text);
    expect(parseMoney(text)).toBe(minor);
  });

  it('refuses a fraction of the smallest unit', () => {
    expect(() => moneyToMajor(1.5)).toThrow(RangeError);
  });
});

describe('money fields in the schemas', () => {
  const fees = defineEntity({
    name: 'fees',
    path: '/fees',
    remote: 'legal',
    fields: {
      name: { type: 'string', required: true },
      amount: { type: 'money', required: true },
      cap: { type: 'money', min: 100, max: 10_000 },
    },
  });
  const schema = createSchema(fees);
  const errorsOf = (body: object) =>
    schema.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

  it('takes whole minor units, from JSON numbers or digit strings (Arabic-Indic too)', () => {
    expect(schema.parse({ name: 'x', amount: 123450 }).amount).toBe(123450);
    expect(schema.parse({ name: 'x', amount: '١٢٣' }).amount).toBe(123);
    expect(schema.parse({ name: 'x', amount: 0, cap: null }).cap).toBeNull();
  });

  it('refuses negatives, fractions of the smallest unit, amounts past the bounds and non-numbers', () => {
    expect(errorsOf({ name: 'x', amount: -1 })).toEqual([['amount', 'validation.number.min']]);
    expect(errorsOf({ name: 'x', amount: 10.5 })).toEqual([['amount', 'validation.types.money']]);
    expect(errorsOf({ name: 'x', amount: 'abc' })).toEqual([['amount', 'validation.types.money']]);
    expect(errorsOf({ name: 'x', amount: MONEY_MAX + 1 })).toEqual([['amount', 'validation.number.max']]);
    expect(errorsOf({ name: 'x', amount: 1, cap: 99 })).toEqual([['cap', 'validation.number.min']]);
    expect(errorsOf({ name: 'x' })).toEqual([['amount', 'validation.required']]);
  });

  it('filters by a money field as a number', () => {
    expect(() => listQuerySchema(fees)).not.toThrow();
  });

  it('refuses bounds and defaults that are not minor units', () => {
    expect(() =>
      defineEntity({
        name: 'bad',
        path: '/bad',
        remote: 'legal',
        fields: { name: { type: 'string' }, amount: { type: 'money', min: 0.5, default: 1.25 } },
      }),
    ).toThrow(/min of a money field is in minor units[\s\S]*default of a money field/);
  });
});
