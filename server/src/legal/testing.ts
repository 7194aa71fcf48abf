import { API_BASE, sessions } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * What valid hearings and payments need beyond their field types, for tests that build rows from
 * a definition (`test/fixtures` validInput), by the rules of `sessions.ts` and `payments.ts`:
 *
 * - a hearing's time is `HH:mm` (`previousId` and `nextDate` are written by postponing only:
 *   `setBy`, left out of generated bodies); court, circuit and judge left blank come from the
 *   lawsuit (a generated circuit would not be of a generated court);
 * - a payment is marked as an overpayment, so a generated amount never meets the agreed fee rule.
 *
 * @example sessionSample(7) // { time: '09:07', courtId: null, circuitId: null, judgeId: null }
 */
export function sessionSample(seq: number): Record<string, unknown> {
  return {
    time: `09:${String(seq % 60).padStart(2, '0')}`,
    courtId: null,
    circuitId: null,
    judgeId: null,
  };
}

export function lawsuitPaymentSample(): Record<string, unknown> {
  return { overpayment: true };
}

/**
 * The hearing holding `held` through `previousId`: the one postponing `held` creates (a day
 * later), the only way a hearing comes to hold another. For delete tests (`createHolder`).
 */
export async function postponedFrom(
  app: FastifyInstance,
  headers: Record<string, string>,
  held: Record<string, unknown> & { id: number },
): Promise<Record<string, unknown> & { id: number }> {
  const date = new Date(`${String(held.date)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  const res = await app.inject({
    method: 'PATCH',
    url: `${API_BASE}${sessions.path}/${held.id}/postpone`,
    headers,
    payload: { decision: 'تأجيل', nextDate: date.toISOString().slice(0, 10) },
  });
  if (res.statusCode !== 200) throw new Error(`postpone failed: ${res.statusCode} ${res.body}`);
  const next = await app.inject({
    method: 'GET',
    url: `${API_BASE}${sessions.path}/${res.json().data.nextId}`,
    headers,
  });
  return next.json().data;
}

/**
 * An attachment names no hearing: a generated one would be of another lawsuit (422, see
 * attachments.ts). Its files are sent as multipart by the attachment tests.
 */
export function attachmentSample(): Record<string, unknown> {
  return { sessionId: null };
}

/**
 * An attachment holding hearing `held` through `sessionId`: filed in the hearing's own lawsuit,
 * the only lawsuit whose attachments may name it. For delete tests (`createHolder`).
 */
export async function attachmentOfSession(
  app: FastifyInstance,
  headers: Record<string, string>,
  held: Record<string, unknown> & { id: number },
  createRow: (
    app: FastifyInstance,
    headers: Record<string, string>,
    name: string,
    overrides: Record<string, unknown>,
  ) => Promise<Record<string, unknown> & { id: number }>,
): Promise<Record<string, unknown> & { id: number }> {
  return createRow(app, headers, 'attachments', { lawsuitId: held.lawsuitId, sessionId: held.id });
}
