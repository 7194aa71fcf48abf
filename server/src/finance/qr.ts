import { moneyToMajor, zatcaTlv, type SystemSettings, type ZatcaFields } from '@mizan/contracts';
import type { ApiRow } from '../engine/serialize';
import { qrPng } from '../files/qrCode';

/** The invoice QR code's image: 240 px square, one module of quiet zone. */
export const QR_IMAGE = { margin: 1, width: 240 };

/** The five fields of an issued invoice's Saudi QR code (ZATCA phase 1). */
export function qrFields(settings: SystemSettings, invoice: ApiRow): ZatcaFields {
  return {
    sellerName: settings.officeName,
    vatNumber: settings.vatNumber ?? '',
    // Seconds precision, UTC, as the QR readers of the Authority's app expect.
    timestamp: new Date(String(invoice.issuedAt)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    total: moneyToMajor(Number(invoice.total)),
    vatTotal: moneyToMajor(Number(invoice.vatTotal)),
  };
}

/**
 * Why an invoice carries no QR code (the key of its message under `legal.invoices`): the office
 * is not in Saudi Arabia, has no VAT number, or the invoice is not issued; null when it carries one.
 */
export function qrAbsence(
  settings: SystemSettings,
  invoice: ApiRow,
): 'qrSaudiOnly' | 'noVatNumber' | 'notIssued' | null {
  if (settings.officeCountry !== 'SA') return 'qrSaudiOnly';
  if (!settings.vatNumber) return 'noVatNumber';
  if (invoice.state === 'draft' || !invoice.issuedAt) return 'notIssued';
  return null;
}

/** An invoice's QR code as the PNG the QR route answers, or null when it carries none (`qrAbsence`). */
export async function invoiceQrPng(settings: SystemSettings, invoice: ApiRow): Promise<Buffer | null> {
  if (qrAbsence(settings, invoice)) return null;
  return qrPng(zatcaTlv(qrFields(settings, invoice)), QR_IMAGE);
}
