import { z } from 'zod';
import { COMMERCIAL_REGISTER_MAX, CUSTOMER_KINDS } from '../entities/customers';
import { permissionKey } from '../permissions';
import { answer, route } from '../route';
import { normalizeDigits } from '../text';

/**
 * `GET /api/admin/customers/conflicts?name=&nationalId=&for=`: the conflict-of-interest check.
 * Before a party is saved, the office looks for parties it already knows under that name or ID:
 * its clients and the opponents of its lawsuits (each match names its `entity`), both ways:
 * - from the client form (`for=customers`, the default): an opponent match is a prospective client
 *   who is an opponent, and lists the lawsuits it is an opponent in (`opponentIn`);
 * - from the opponent form (`for=opponents`): a client match is a prospective opponent who is
 *   already our client.
 * One route for both forms (not a second one under the opponents' path): the same comparison,
 * and `for` only says which entity `exceptId` (the row being edited) belongs to and which view
 * permission the check needs (`<for>.view`). Matches of an entity the user may not view are left
 * out.
 */

/** Most matches one check answers, best first. */
export const CONFLICT_LIMIT = 20;

/** Entities a conflict check looks through, and the forms it is run from (`for`). */
export const CONFLICT_ENTITIES = ['customers', 'opponents'] as const;
export type ConflictEntity = (typeof CONFLICT_ENTITIES)[number];

const positive = z.coerce
  .number({ error: 'validation.types.integer' })
  .int({ error: 'validation.types.integer' })
  .positive({ error: 'validation.types.integer' });

export const conflictQuery = z
  .object({
    /** A full or partial name in Arabic or English; folded and split into words. */
    name: z.string().trim().max(150, { error: 'validation.string.max' }).optional(),
    /** A national ID or commercial registration, in ASCII or Arabic-Indic digits. */
    nationalId: z
      .string()
      .trim()
      .transform(normalizeDigits)
      .pipe(
        z
          .string()
          .max(COMMERCIAL_REGISTER_MAX, { error: 'validation.string.max' })
          .regex(/^\d*$/, { error: 'validation.pattern.mismatch' }),
      )
      .optional(),
    /** The party being edited (of the `for` entity), left out of its own check. */
    exceptId: positive.optional(),
    /** The form the check is run from: the entity of the party being entered (default customers). */
    for: z.enum(CONFLICT_ENTITIES, { error: 'validation.enum' }).default('customers'),
  })
  .strip()
  .refine((q) => Boolean(q.name || q.nationalId), { path: ['name'], error: 'validation.required' });

export type ConflictQuery = z.input<typeof conflictQuery>;

/**
 * Why a party matched: `id` (same national ID or commercial registration), `sameName` (the same
 * words in any order), `contains` (its name holds the given name), `tokens` (enough words shared).
 */
export const CONFLICT_REASONS = ['id', 'sameName', 'contains', 'tokens'] as const;
export type ConflictReason = (typeof CONFLICT_REASONS)[number];

export const conflictMatch = z.object({
  entity: z.enum(CONFLICT_ENTITIES),
  id: z.number().int(),
  name: z.string(),
  nameEn: z.string().nullable(),
  kind: z.enum(CUSTOMER_KINDS),
  /** The party's national ID or commercial registration, whichever its kind carries. */
  idNumber: z.string().nullable(),
  /** 0–1: 1 for the same ID or the same words, else the share of words in common (Dice). */
  score: z.number().min(0).max(1),
  reasons: z.array(z.enum(CONFLICT_REASONS)),
  /** For an opponent match: the lawsuits it is an opponent in (id and office file number), oldest first. */
  opponentIn: z.array(z.object({ id: z.number().int(), fileNumber: z.string().nullable() })).optional(),
});
export type ConflictMatch = z.infer<typeof conflictMatch>;

export const conflictResult = z.object({ matches: z.array(conflictMatch) });
/** The `data` of the answer: at most `CONFLICT_LIMIT` matches, best first. */
export type ConflictResult = z.infer<typeof conflictResult>;

/** The clients area's routes beyond the customers' CRUD. */
export const CLIENT_ROUTES = {
  /** Viewing either list lets the request in; the handler checks the one its form (`for`) needs. */
  conflicts: route({
    method: 'GET',
    path: '/admin/customers/conflicts',
    permission: CONFLICT_ENTITIES.map((entity) => permissionKey(entity, 'view')),
    summary: 'Conflict-of-interest check: known clients and opponents by name (any word order, folded) or ID',
    query: conflictQuery,
    response: conflictResult,
    answer: answer<ConflictResult>(),
  }),
};
