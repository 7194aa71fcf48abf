import { API_BASE, expenses, invoiceLines, invoices, lawsuits, timeEntries } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * What a valid time entry needs beyond its field types, for tests that build rows from a
 * definition (`test/fixtures` validInput): the seeded administrator's own entry (the employee
 * defaults to the actor) and a rate (its amount is the server's).
 */
export const timeEntrySample = (): Record<string, unknown> => ({
  employeeId: 1,
  duration: 90,
  rate: 20_000,
});

/** A typed-in line (its figures and source are the server's). */
export const invoiceLineSample = (): Record<string, unknown> => ({
  quantity: 2,
  unitPrice: 10_000,
  discount: 1_000,
  vatExempt: false,
  timeEntryId: null,
  expenseId: null,
  instalmentId: null,
});

/** A payment to no invoice (a draft takes none): all of it held for the client. */
export const paymentSample = (): Record<string, unknown> => ({
  invoiceIds: [],
  toRetainer: false,
  amount: 10_000,
  retained: 10_000,
});

/** A retainer deposit (applying or refunding needs money held first). */
export const retainerSample = (): Record<string, unknown> => ({ kind: 'deposit', invoiceId: null });

type Headers = Record<string, string>;
type Created = Record<string, unknown> & { id: number };

/**
 * An invoice line holding a time entry or an expense (`field`), made the way the module makes
 * one: a draft for the client of its lawsuit brings in the unbilled work (an expense paid by the
 * office, billable).
 */
export const billedBy =
  (field: 'timeEntryId' | 'expenseId') =>
  async (app: FastifyInstance, headers: Headers, held: Created): Promise<Created> => {
    const send = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
      const res = await app.inject({ method, url: API_BASE + url, headers, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json().data;
    };
    const path = field === 'timeEntryId' ? timeEntries.path : expenses.path;
    await send('PATCH', `${path}/${held.id}`, {
      billable: true,
      ...(field === 'expenseId' ? { paidBy: 'office' } : {}),
    });
    const lawsuit = await send('GET', `${lawsuits.path}/${held.lawsuitId as number}`);
    const invoice = await send('POST', invoices.path, {
      customerId: lawsuit.customerIds[0],
      lawsuitId: lawsuit.id,
    });
    await send('POST', `${invoices.path}/${invoice.id}/collect`, {});
    const lines = await send('GET', `${invoiceLines.path}?invoiceId=${invoice.id}&${field}=${held.id}`);
    return lines.items[0];
  };
