import {
  divideHalfUp,
  invoiceNumber,
  invoiceTotals,
  lineFigures,
  readZatcaTlv,
  settledState,
  vatOf,
  zatcaTlv,
  type LineInput,
} from './invoicing';
import { MONEY_MAX } from './money';
import { CURRENCIES, moneyInWords } from './tafqit';

const line = (unitPrice: number, extra: Partial<LineInput> = {}): LineInput => ({
  quantity: 1,
  unitPrice,
  discount: 0,
  vatExempt: false,
  ...extra,
});

describe('invoice money rules', () => {
  it.each([
    [10n, 4n, 3n], // 2.5 → 3
    [9n, 4n, 2n], // 2.25 → 2
    [-10n, 4n, -3n], // halves away from zero
    [7n, 7n, 1n],
    [0n, 5n, 0n],
  ])('divideHalfUp(%s, %s) is %s', (n, d, q) => {
    expect(divideHalfUp(n, d)).toBe(q);
  });

  it.each([
    // net, rate (bps), VAT
    [10_000, 1500, 1_500], // 100.00 at 15 % → 15.00
    [3_333, 1500, 500], // 33.33 × 15 % = 4.9995 → 5.00
    [3_330, 1500, 500], // 4.995 → 5.00 (half up)
    [3_329, 1500, 499], // 4.9935 → 4.99
    [1, 1400, 0], // 0.14 of a minor unit → 0
    [4, 1400, 1], // 0.56 → 1
    [MONEY_MAX, 1500, 150_000_000_000_000], // no float overflow at the largest amount
  ])('VAT of %s at %s bps is %s', (net, rate, vat) => {
    expect(vatOf(net, rate)).toBe(vat);
  });

  it.each([
    ['a plain line', line(10_000), 1500, { gross: 10_000, net: 10_000, vat: 1_500, total: 11_500 }],
    [
      'quantity × unit price',
      line(2_500, { quantity: 3 }),
      1500,
      { gross: 7_500, net: 7_500, vat: 1_125, total: 8_625 },
    ],
    [
      'less a discount',
      line(10_000, { discount: 1_000 }),
      1500,
      { gross: 10_000, net: 9_000, vat: 1_350, total: 10_350 },
    ],
    [
      'exempt',
      line(10_000, { vatExempt: true }),
      1500,
      { gross: 10_000, net: 10_000, vat: 0, total: 10_000 },
    ],
    [
      'discount of the whole line',
      line(500, { discount: 500 }),
      1500,
      { gross: 500, net: 0, vat: 0, total: 0 },
    ],
  ])('line figures: %s', (_what, input, rate, figures) => {
    expect(lineFigures(input, rate)).toEqual(figures);
  });

  it('refuses a discount above the line', () => {
    expect(() => lineFigures(line(500, { discount: 501 }), 1500)).toThrow(RangeError);
  });

  // Three lines of 0.33 at 15 %: each line's VAT is 0.0495 → 0.05 (0.15 in all) per line, while
  // the invoice's 0.99 taxable gives 0.1485 → 0.15 once; 0.03 lines show where they part.
  it.each([
    ['line', [line(33), line(33), line(33)], 1500, { subtotal: 99, vatTotal: 15, total: 114 }],
    ['invoice', [line(33), line(33), line(33)], 1500, { subtotal: 99, vatTotal: 15, total: 114 }],
    ['line', [line(3), line(3), line(3)], 1500, { subtotal: 9, vatTotal: 0, total: 9 }],
    ['invoice', [line(3), line(3), line(3)], 1500, { subtotal: 9, vatTotal: 1, total: 10 }],
    ['line', [line(10), line(10), line(10)], 1500, { subtotal: 30, vatTotal: 6, total: 36 }],
    ['invoice', [line(10), line(10), line(10)], 1500, { subtotal: 30, vatTotal: 5, total: 35 }],
    [
      'line',
      [line(10_000), line(5_000, { vatExempt: true })],
      1500,
      { subtotal: 15_000, vatTotal: 1_500, total: 16_500 },
    ],
    [
      'invoice',
      [line(10_000, { discount: 2_500 }), line(1)],
      1400,
      { subtotal: 7_501, vatTotal: 1_050, total: 8_551 },
    ],
    ['line', [], 1500, { subtotal: 0, vatTotal: 0, total: 0 }],
  ] as const)('totals with VAT rounded per %s, case %#', (rounding, lines, rate, totals) => {
    expect(invoiceTotals(lines, rate, rounding)).toMatchObject(totals);
  });

  it.each([
    [11_500, 11_500, 'issued'],
    [11_500, 1, 'partlyPaid'],
    [11_500, 0, 'paid'],
    [11_500, -5, 'paid'],
  ] as const)('an invoice of %s owing %s is %s', (total, due, state) => {
    expect(settledState(total, due)).toBe(state);
  });

  it('numbers by kind, year and sequence', () => {
    expect(invoiceNumber('invoice', 2026, 42)).toBe('INV-2026-000042');
    expect(invoiceNumber('creditNote', 2027, 1)).toBe('CN-2027-000001');
  });

  it.each([
    [1_150_00, 'SAR', 'ar', 'فقط ألف ومائة وخمسون ريالًا لا غير'],
    [1_150_00, 'SAR', 'en', 'One thousand one hundred fifty Saudi riyals only'],
    [1_150_50, 'SAR', 'ar', 'فقط ألف ومائة وخمسون ريالًا وخمسون هللة لا غير'],
    [2_00, 'EGP', 'ar', 'فقط جنيهان لا غير'],
    [2_01, 'EGP', 'en', 'Two Egyptian pounds and one piastre only'],
  ] as const)('%s %s in words (%s)', (amount, code, lng, words) => {
    expect(moneyInWords(amount, CURRENCIES[code], 100, lng)).toBe(words);
  });
});

describe('Saudi simplified tax invoice QR (ZATCA phase 1)', () => {
  const fields = {
    sellerName: 'مكتب ميزان للمحاماة',
    vatNumber: '310122393500003',
    timestamp: '2026-03-10T08:00:00Z',
    total: '1150.00',
    vatTotal: '150.00',
  };

  it('encodes the five fields as TLV in base64 and reads them back', () => {
    const tlv = zatcaTlv(fields);
    expect(readZatcaTlv(tlv)).toEqual(fields);
    const bytes = Buffer.from(tlv, 'base64');
    // Tag 1, the seller's name's UTF-8 length, then the name.
    expect(bytes[0]).toBe(1);
    expect(bytes[1]).toBe(Buffer.byteLength(fields.sellerName));
    expect(bytes.subarray(2, 2 + bytes[1]!).toString('utf8')).toBe(fields.sellerName);
  });

  it('gives the bytes of a worked example, byte for byte', () => {
    // The example most QR guides work through: seller "Bobs Records", VAT 310122393500003.
    const tlv = zatcaTlv({
      sellerName: 'Bobs Records',
      vatNumber: '310122393500003',
      timestamp: '2022-04-25T15:30:00Z',
      total: '1000.00',
      vatTotal: '150.00',
    });
    expect(tlv).toBe(
      'AQxCb2JzIFJlY29yZHMCDzMxMDEyMjM5MzUwMDAwMwMUMjAyMi0wNC0yNVQxNTozMDowMFoEBzEwMDAuMDAFBjE1MC4wMA==',
    );
  });

  it('refuses a field over 255 bytes', () => {
    expect(() => zatcaTlv({ ...fields, sellerName: 'x'.repeat(256) })).toThrow(RangeError);
  });
});
