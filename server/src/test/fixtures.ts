import {
  getEntity,
  permissionKey,
  setByServer,
  type Entity,
  type FieldDefinition,
  type Fields,
} from '@mizan/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { API_BASE, AUTH_ROUTES, MESSAGE_ROUTES, MONEY_MAX, PEOPLE_ROUTES } from '@mizan/contracts';
import { customerSample } from '../clients/testing';
import { deadlineRuleSample, deadlineSample, holidaySample } from '../deadlines/testing';
import {
  billedBy,
  invoiceLineSample,
  paymentSample,
  retainerSample,
  timeEntrySample,
} from '../finance/testing';
import { benchHolder, lawsuitSample, opponentSample } from '../legal/samples';
import {
  attachmentOfSession,
  attachmentSample,
  lawsuitPaymentSample,
  postponedFrom,
  sessionSample,
} from '../legal/testing';
import { taskOfHearing, taskSample, writtenBy } from '../tasks/testing';

/** A strong password that passes the auth module's rules. */
export const TEST_PASSWORD = 'Strong-pass-2026';

let sequence = 0;
/** A number unique within the test process, for unique field values. */
export const nextSeq = () => ++sequence;

export const entityUrl = (entity: Entity<Fields> | string) =>
  API_BASE + (typeof entity === 'string' ? getEntity(entity) : entity).path;

/**
 * Rows made for other rows to reference, by app, caller and entity. A valid body references a row
 * of each entity it needs: the same one while it exists, made through the API the first time, so
 * that a lawsuit costs one POST rather than the dozens its references' own references made each
 * time (a court's city, the city's country, ...).
 */
const referenced = new WeakMap<FastifyInstance, Map<string, number>>();

/**
 * The id of a row of `name` for a reference to hold: a new one when `fresh` (a reference that must
 * be unique), otherwise the one made earlier for the same caller, when it still exists.
 */
async function referencedRow(
  app: FastifyInstance,
  headers: Record<string, string>,
  name: string,
  fresh: boolean,
): Promise<number> {
  if (fresh) return (await createRow(app, headers, name)).id;
  let rows = referenced.get(app);
  if (!rows) referenced.set(app, (rows = new Map()));
  const key = `${name}\0${headers.authorization ?? ''}`;
  const kept = rows.get(key);
  if (kept !== undefined) {
    const row = await app.db
      .selectFrom(getEntity(name).table)
      .select('id')
      .where('id', '=', kept)
      .executeTakeFirst();
    if (row) return kept;
  }
  const made = (await createRow(app, headers, name)).id;
  rows.set(key, made);
  return made;
}

/**
 * A valid value for one field. A reference holds a row made through the API, shared with other
 * bodies unless `fresh` (the field is unique, alone or in a group).
 */
export async function validValue(
  app: FastifyInstance,
  headers: Record<string, string>,
  key: string,
  field: FieldDefinition,
  seq: number,
  fresh = false,
): Promise<unknown> {
  // Cut to the field's length without a trailing space (the schema trims: stored ≠ sent).
  const fit = (text: string, max = 255) => text.slice(0, max).trimEnd();
  switch (field.type) {
    case 'string':
      return fit(`${key} ${seq} قيمة`, field.max);
    case 'text':
      return `${key} ${seq}: نص أطول للملاحظات`;
    case 'email':
      return `${key.toLowerCase()}${seq}@mizan.test`;
    case 'phone':
      return `+20 100 ${String(seq).padStart(4, '0')}`;
    case 'url':
      return `https://example.com/${seq}`;
    case 'color':
      return '#1d4ed8';
    case 'password':
      return TEST_PASSWORD;
    case 'integer':
      return Math.min(field.max ?? 1_000_000, (field.min ?? 0) + seq);
    case 'number':
      return seq + 0.5;
    case 'money':
      return Math.min(field.max ?? MONEY_MAX, (field.min ?? 0) + seq * 100 + 5);
    case 'duration':
      return Math.min(field.max ?? 1440, (field.min ?? 0) + seq);
    case 'boolean':
      return true;
    case 'date':
      return '2026-03-15';
    case 'datetime':
      return '2026-03-15T10:30:00.000Z';
    case 'enum':
      return field.values[field.values.length - 1];
    case 'ref':
      return referencedRow(app, headers, field.entity, fresh);
    case 'refs':
      return [await referencedRow(app, headers, field.entity, fresh)];
    case 'files':
      return undefined;
  }
}

/**
 * Values a module's hooks require beyond what the field types say, by entity (merged over the
 * generated ones): rules between fields that no single field's value can satisfy.
 */
const MODULE_SAMPLES: Record<string, (seq: number) => Record<string, unknown>> = {
  customers: customerSample,
  sessions: sessionSample,
  lawsuitPayments: lawsuitPaymentSample,
  lawsuits: lawsuitSample,
  opponents: opponentSample,
  attachments: attachmentSample,
  tasks: taskSample,
  holidays: holidaySample,
  deadlineRules: deadlineRuleSample,
  deadlines: deadlineSample,
  timeEntries: timeEntrySample,
  payments: paymentSample,
  retainerMovements: retainerSample,
  invoiceLines: invoiceLineSample,
};

/** The module's part of a valid body of `entity` (see `MODULE_SAMPLES`); `{}` for most entities. */
export const moduleSample = (entity: string, seq = nextSeq()): Record<string, unknown> =>
  MODULE_SAMPLES[entity]?.(seq) ?? {};

/**
 * A valid create body for `entity`, every field a client may send filled (optional ones too):
 * not those only the server sets on create (`setByServer`).
 */
export async function validInput(
  app: FastifyInstance,
  headers: Record<string, string>,
  entity: Entity<Fields>,
  seq = nextSeq(),
): Promise<Record<string, unknown>> {
  const sample = moduleSample(entity.name, seq);
  for (const key of Object.keys(sample)) {
    const field = entity.fields[key];
    if (field && setByServer(field, 'create')) delete sample[key];
  }
  const input: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(entity.fields)) {
    // The sample's own value wins: nothing generated for it (no rows made for its references).
    if (key in sample || setByServer(field, 'create')) continue;
    const unique = Boolean(field.unique) || (entity.uniqueTogether ?? []).some((g) => g.includes(key));
    const value = await validValue(app, headers, key, field, seq, unique);
    if (value !== undefined) input[key] = value;
  }
  return { ...input, ...sample };
}

type Holder = (
  app: FastifyInstance,
  headers: Record<string, string>,
  held: Record<string, unknown> & { id: number },
) => Promise<Record<string, unknown> & { id: number }>;

/**
 * How a module makes a row of `<entity>` hold another through `<field>` when the field is not
 * a form's to set (a hearing holds the one it was postponed from: made by postponing it).
 */
const MODULE_HOLDERS: Record<string, Record<string, Holder>> = {
  sessions: {
    previousId: postponedFrom,
    circuitId: benchHolder('sessions', 'circuitId', createRow),
    judgeId: benchHolder('sessions', 'judgeId', createRow),
  },
  lawsuits: {
    circuitId: benchHolder('lawsuits', 'circuitId', createRow),
    judgeId: benchHolder('lawsuits', 'judgeId', createRow),
  },
  attachments: {
    sessionId: (app, headers, held) => attachmentOfSession(app, headers, held, createRow),
  },
  tasks: {
    createdById: writtenBy('tasks', 'createdById', createRow),
    stateChangedById: writtenBy('tasks', 'stateChangedById', createRow),
    sessionId: taskOfHearing(createRow),
  },
  taskComments: {
    authorId: writtenBy('taskComments', 'authorId', createRow),
  },
  invoiceLines: {
    timeEntryId: billedBy('timeEntryId'),
    expenseId: billedBy('expenseId'),
  },
};

/**
 * References that keep the row they hold for good, by held entity (`<holder>.<field>`): only an
 * issued invoice is credited, paid or has the retainer applied to it, and an issued invoice is
 * never deleted. The registry-wide delete test leaves these out (finance/invoices.test.ts covers them).
 */
export const HELD_FOR_GOOD: Record<string, readonly string[]> = {
  invoices: ['invoices.creditOfId', 'payments.invoiceIds', 'retainerMovements.invoiceId'],
};

/**
 * A new row of `holder` whose `field` (a `ref` or `refs`) points at `held`: created with that
 * value, or made the module's way (`MODULE_HOLDERS`). For delete tests (409 while held).
 */
export async function createHolder(
  app: FastifyInstance,
  headers: Record<string, string>,
  holder: string,
  field: string,
  type: 'ref' | 'refs',
  held: Record<string, unknown> & { id: number },
): Promise<Record<string, unknown> & { id: number }> {
  const own = MODULE_HOLDERS[holder]?.[field];
  if (own) return own(app, headers, held);
  return createRow(app, headers, holder, { [field]: type === 'refs' ? [held.id] : held.id });
}

/**
 * How many rows a table holds now, or those whose columns equal `where`'s values (tests that check
 * a refused write left nothing).
 *
 * @example
 * await countRows(t.app, 'audit_log', { entity: 'customers' })
 */
export async function countRows(
  app: FastifyInstance,
  table: string,
  where: Record<string, unknown> = {},
): Promise<number> {
  let query = app.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Creates one row through `POST` and returns it; throws with the response when refused. */
export async function createRow(
  app: FastifyInstance,
  headers: Record<string, string>,
  name: string,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: number }> {
  const entity = getEntity(name);
  const payload = { ...(await validInput(app, headers, entity)), ...overrides };
  const res = await app.inject({ method: 'POST', url: entityUrl(entity), headers, payload });
  if (res.statusCode !== 201) throw new Error(`create ${name} failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/**
 * An employee holding exactly `permissions` (through a new role), created through the API as the
 * administrator. Returns the credentials to `login` with.
 */
export async function createUserWith(
  app: FastifyInstance,
  adminHeaders: Record<string, string>,
  permissions: readonly string[],
): Promise<{ email: string; password: string; employeeId: number }> {
  const list = await app.inject({
    method: 'GET',
    url: `${entityUrl('permissions')}?pageSize=100&page=1`,
    headers: adminHeaders,
  });
  const all: { id: number; key: string }[] = [];
  const total = list.json().data.total as number;
  for (let page = 1; (page - 1) * 100 < total; page++) {
    const res = await app.inject({
      method: 'GET',
      url: `${entityUrl('permissions')}?pageSize=100&page=${page}`,
      headers: adminHeaders,
    });
    all.push(...(res.json().data.items as { id: number; key: string }[]));
  }
  const permissionIds = permissions.map((key) => {
    const found = all.find((p) => p.key === key);
    if (!found) throw new Error(`No permission ${key}`);
    return found.id;
  });
  const seq = nextSeq();
  const role = await createRow(app, adminHeaders, 'roles', { name: `role ${seq}`, permissionIds });
  const email = `user${seq}@mizan.test`;
  const employee = await createRow(app, adminHeaders, 'employees', {
    name: `User ${seq}`,
    email,
    username: `user${seq}`,
    password: TEST_PASSWORD,
    roleIds: [role.id],
  });
  // An account opened by an administrator must change its password before anything else.
  const password = `${TEST_PASSWORD}-own`;
  const headers = { 'x-fingerprint-session': `setup-${seq}`, 'x-fingerprint': 'test-device' };
  const login = await app.inject({
    method: 'POST',
    url: `${API_BASE}${AUTH_ROUTES.login.path}`,
    headers,
    payload: { email, password: TEST_PASSWORD },
  });
  if (login.statusCode !== 200)
    throw new Error(`login as ${email} failed: ${login.statusCode} ${login.body}`);
  const changed = await app.inject({
    method: 'PUT',
    url: `${API_BASE}${PEOPLE_ROUTES.changePassword.path}`,
    headers: { ...headers, authorization: `Bearer ${login.json().data.token}` },
    payload: { currentPassword: TEST_PASSWORD, newPassword: password },
  });
  if (changed.statusCode !== 200)
    throw new Error(`password change of ${email} failed: ${changed.statusCode} ${changed.body}`);
  return { email, password, employeeId: employee.id };
}

export { permissionKey };

/**
 * An event's `messageTemplates` rows (a new office has the defaults, one per language), first by
 * id: the one its messages use.
 */
export async function messageTemplatesOf(
  app: FastifyInstance,
  headers: Record<string, string>,
  event: string,
): Promise<(Record<string, unknown> & { id: number })[]> {
  const res = await app.inject({
    method: 'GET',
    url: `${entityUrl('messageTemplates')}?event=${event}&pageSize=100`,
    headers,
  });
  if (res.statusCode !== 200) throw new Error(`list messageTemplates failed: ${res.statusCode} ${res.body}`);
  return (res.json().data.items as (Record<string, unknown> & { id: number })[]).sort((a, b) => a.id - b.id);
}

/** Rewrites the event's template in `language` as an office would (`PATCH`); returns it. */
export async function rewriteMessageTemplate(
  app: FastifyInstance,
  headers: Record<string, string>,
  event: string,
  language: string,
  changes: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: number }> {
  const row = (await messageTemplatesOf(app, headers, event)).find((r) => r.language === language);
  if (!row) throw new Error(`no ${language} template for ${event}`);
  const res = await app.inject({
    method: 'PATCH',
    url: `${entityUrl('messageTemplates')}/${row.id}`,
    headers,
    payload: changes,
  });
  if (res.statusCode !== 200)
    throw new Error(`update messageTemplates failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** Deletes every template of the event, as an office that does not tell its clients of it. */
export async function deleteMessageTemplates(
  app: FastifyInstance,
  headers: Record<string, string>,
  event: string,
): Promise<void> {
  for (const row of await messageTemplatesOf(app, headers, event)) {
    const res = await app.inject({
      method: 'DELETE',
      url: `${entityUrl('messageTemplates')}/${row.id}`,
      headers: { ...headers, 'if-unmodified-since': String(row.updatedAt) },
    });
    if (res.statusCode >= 300)
      throw new Error(`delete messageTemplates failed: ${res.statusCode} ${res.body}`);
  }
}

/**
 * The stand-in servers (`test/httpStandIn.ts`) the messaging providers' settings point at: an SMS
 * gateway, and WhatsApp's Cloud API (without one, WhatsApp is left unconfigured: no phone number id).
 */
export interface ProviderStandIns {
  sms: { url: string };
  whatsapp?: { url: string };
}

/**
 * Saves the messaging providers' settings (`PUT`, `MESSAGE_ROUTES.updateProviders`) pointing at
 * stand-in servers: a gateway taking `{"to","text"}` as JSON at `/send`, WhatsApp's Cloud API v21.0
 * for phone number id 1098765. `changes` are merged over each provider's settings (a secret, a bad
 * value) and may set the clients' `deadlineNoticeDays`. Answers the response: a refusal is the
 * caller's to check.
 *
 * @example
 * await configureProviders(t.app, headers, { sms: gateway, whatsapp }, { whatsapp: { token: 'wa-token' } })
 */
export function configureProviders(
  app: FastifyInstance,
  headers: Record<string, string>,
  standIns: ProviderStandIns,
  changes: { sms?: object; whatsapp?: object; deadlineNoticeDays?: unknown } = {},
): Promise<LightMyRequestResponse> {
  const { sms, whatsapp, ...rest } = changes;
  return app.inject({
    method: 'PUT',
    url: API_BASE + MESSAGE_ROUTES.updateProviders.path,
    headers,
    payload: {
      ...rest,
      sms: {
        url: `${standIns.sms.url}/send`,
        method: 'POST',
        contentType: 'application/json',
        bodyTemplate: '{"to":"{to}","text":"{text}"}',
        ...sms,
      },
      whatsapp: {
        ...(standIns.whatsapp
          ? { baseUrl: standIns.whatsapp.url, apiVersion: 'v21.0', phoneNumberId: '1098765' }
          : { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0', phoneNumberId: '' }),
        ...whatsapp,
      },
    },
  });
}
