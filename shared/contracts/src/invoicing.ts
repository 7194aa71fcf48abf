/**
 * The money rules of invoices, in integers only (minor units, basis points): a line's net amount
 * and VAT, an invoice's totals under either rounding rule, what an invoice still owes, and the
 * Saudi simplified tax invoice's QR payload (ZATCA phase 1). The server computes every stored
 * total with these; screens use them for previews, so both always agree.
 */

/** Basis points in 100 %: a VAT rate of 15 % is 1500. */
export const BASIS_POINTS = 10_000;

/**
 * Where VAT is rounded to the minor unit: `line` (each line's VAT rounded, the invoice's VAT their
 * sum) or `invoice` (the VAT of the invoice's taxable total rounded once; a line's VAT is then
 * shown rounded on its own and may differ from its share by a minor unit).
 */
export const VAT_ROUNDINGS = ['line', 'invoice'] as const;
export type VatRounding = (typeof VAT_ROUNDINGS)[number];

/** `numerator / denominator` rounded half up (away from zero for halves), exact for any safe integers. */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (d * 2n);
  return negative ? -q : q;
}

/** VAT of `net` minor units at `rateBps` basis points, rounded half up to a minor unit. */
export function vatOf(net: number, rateBps: number): number {
  return Number(divideHalfUp(BigInt(net) * BigInt(rateBps), BigInt(BASIS_POINTS)));
}

/** What a line is made of: how many, at what unit price, less what discount, VAT-exempt or not. */
export interface LineInput {
  quantity: number;
  unitPrice: number;
  /** An amount off the line (minor units), at most quantity × unit price. */
  discount: number;
  vatExempt: boolean;
}

/** A line's figures: before discount, after it (`net`), its VAT (rounded on its own) and total. */
export interface LineFigures {
  gross: number;
  net: number;
  vat: number;
  total: number;
}

/** A line's figures at `rateBps`; throws a RangeError on a discount above the line's amount. */
export function lineFigures(line: LineInput, rateBps: number): LineFigures {
  const gross = line.quantity * line.unitPrice;
  if (!Number.isSafeInteger(gross)) throw new RangeError('line amount out of range');
  if (line.discount > gross) throw new RangeError('discount above the line amount');
  const net = gross - line.discount;
  const vat = line.vatExempt ? 0 : vatOf(net, rateBps);
  return { gross, net, vat, total: net + vat };
}

/** An invoice's totals: before discounts, the discounts, net, VAT and total with VAT. */
export interface InvoiceTotals {
  gross: number;
  discount: number;
  subtotal: number;
  vatTotal: number;
  total: number;
}

/**
 * An invoice's totals from its lines at `rateBps`, with VAT rounded per line (the sum of each
 * line's rounded VAT) or per invoice (the taxable lines' net summed, then rounded once).
 */
export function invoiceTotals(
  lines: readonly LineInput[],
  rateBps: number,
  rounding: VatRounding,
): InvoiceTotals {
  let gross = 0;
  let discount = 0;
  let subtotal = 0;
  let taxable = 0;
  let lineVat = 0;
  for (const line of lines) {
    const figures = lineFigures(line, rateBps);
    gross += figures.gross;
    discount += line.discount;
    subtotal += figures.net;
    if (!line.vatExempt) taxable += figures.net;
    lineVat += figures.vat;
  }
  const vatTotal = rounding === 'line' ? lineVat : vatOf(taxable, rateBps);
  return { gross, discount, subtotal, vatTotal, total: subtotal + vatTotal };
}

/** The states of an invoice or a credit note; `partlyPaid` and `paid` follow from what was paid. */
export const INVOICE_STATES = ['draft', 'issued', 'partlyPaid', 'paid', 'void'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/** An invoice, or a credit note correcting an issued one (it references it, and lowers what it owes). */
export const INVOICE_KINDS = ['invoice', 'creditNote'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** States whose lines and totals are frozen: everything but a draft. */
export const isFrozen = (state: string) => state !== 'draft';

/**
 * The state of an issued invoice that owes `due` of `total`: paid at nothing left, partly paid
 * once something was paid or credited, else issued.
 */
export function settledState(total: number, due: number): InvoiceState {
  if (due <= 0) return 'paid';
  return due < total ? 'partlyPaid' : 'issued';
}

/** The printed number of an issued invoice or credit note: `INV-2026-000042`, `CN-2026-000003`. */
export function invoiceNumber(kind: InvoiceKind, year: number, sequence: number): string {
  return `${kind === 'creditNote' ? 'CN' : 'INV'}-${year}-${String(sequence).padStart(6, '0')}`;
}

/** The five fields of a Saudi simplified tax invoice's QR code (ZATCA phase 1), in tag order. */
export interface ZatcaFields {
  sellerName: string;
  vatNumber: string;
  /** ISO 8601 instant of issue. */
  timestamp: string;
  /** Total with VAT, as decimal text (`1150.00`). */
  total: string;
  /** VAT total, as decimal text (`150.00`). */
  vatTotal: string;
}

const ZATCA_TAGS = ['sellerName', 'vatNumber', 'timestamp', 'total', 'vatTotal'] as const;
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The UTF-8 bytes of `text` (the same in browsers and Node, with no DOM or Node types). */
function utf8(text: string): number[] {
  const out: number[] = [];
  for (const char of text) {
    const c = char.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

/** The text of UTF-8 `bytes`. */
function fromUtf8(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const extra = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
    let c = extra ? b & (0x3f >> extra) : b;
    for (let k = 1; k <= extra; k++) c = (c << 6) | (bytes[i + k]! & 63);
    out += String.fromCodePoint(c);
    i += extra + 1;
  }
  return out;
}

function toBase64(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += BASE64[n >> 18]! + BASE64[(n >> 12) & 63]!;
    out += b === undefined ? '=' : BASE64[(n >> 6) & 63]!;
    out += c === undefined ? '=' : BASE64[n & 63]!;
  }
  return out;
}

function fromBase64(text: string): number[] {
  const out: number[] = [];
  const clean = text.replace(/=+$/, '');
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE64.indexOf(char);
    if (index < 0) throw new RangeError('not base64');
    value = (value << 6) | index;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >> bits) & 0xff);
    }
  }
  return out;
}

/** The TLV of `fields` (tag byte, length byte, UTF-8 value; tags 1 to 5), base64-encoded. */
export function zatcaTlv(fields: ZatcaFields): string {
  const bytes: number[] = [];
  ZATCA_TAGS.forEach((key, i) => {
    const value = utf8(fields[key]);
    if (value.length > 255) throw new RangeError(`${key} is longer than 255 bytes`);
    bytes.push(i + 1, value.length, ...value);
  });
  return toBase64(bytes);
}

/** The fields of a base64 TLV made by `zatcaTlv` (what a reader of the QR code gets back). */
export function readZatcaTlv(base64: string): ZatcaFields {
  const bytes = fromBase64(base64);
  const out: Partial<Record<(typeof ZATCA_TAGS)[number], string>> = {};
  for (let i = 0; i < bytes.length;) {
    const tag = bytes[i]!;
    const length = bytes[i + 1]!;
    const key = ZATCA_TAGS[tag - 1];
    if (key) out[key] = fromUtf8(bytes.slice(i + 2, i + 2 + length));
    i += 2 + length;
  }
  return out as ZatcaFields;
}
