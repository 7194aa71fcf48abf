// The registry-wide part of the engine's tests: every definition of the registry through every
// CRUD route (create, read, list, update, stale writes, toggles, 422/409/404/415, delete), with
// the audit entry and the event of each write. Split in shards so that Jest's workers share it:
// this file is shard 1, engine.entities-<k>.test.ts load it as shard k, and each has its
// PostgreSQL twin (see `shardOf` and `splitDialects` in test/harness.ts). A definition added to
// the registry lands in a shard by itself.
import fs from 'node:fs';
import path from 'node:path';
import {
  referencesTo,
  DEFAULT_MAX,
  filterableFields,
  registry,
  type Entity,
  MONEY_SCALE,
  type FieldDefinition,
  type Fields,
  setByServer,
} from '@mizan/contracts';
import FormData from 'form-data';
import type { AuthUser } from '../auth/types';
import { importableFields } from '../import/mapping';
import { refDisplayName, refsDisplayName } from './serialize';
import {
  HELD_FOR_GOOD,
  createHolder,
  createRow,
  entityUrl,
  moduleSample,
  validInput,
} from '../test/fixtures';
import { createTestApp, type Session, type TestApp, shardOf, splitDialects } from '../test/harness';
import { engineChecks } from './testChecks';

/** How many files share the registry: this one and engine.entities-2 … -SHARDS.test.ts. */
const SHARDS = 4;

type Row = Record<string, unknown> & { id: number };
const { shard, items: entities } = shardOf(registry as readonly Entity<Fields>[], SHARDS);

const isText = (f: FieldDefinition) =>
  ['string', 'text', 'email', 'phone', 'url', 'color', 'password'].includes(f.type);
const maxOf = (f: FieldDefinition) =>
  'max' in f && f.max !== undefined ? f.max : f.type === 'text' ? DEFAULT_MAX.text : DEFAULT_MAX.string;

if (shard === 1)
  it('has a file for every shard, each with its PostgreSQL twin', () => {
    const files = fs
      .readdirSync(__dirname)
      .filter((f) => /^engine\.entities(-\d+)?(\.postgres)?\.test\.ts$/.test(f));
    const expected = Array.from({ length: SHARDS }, (_, i) =>
      i === 0 ? 'engine.entities' : `engine.entities-${i + 1}`,
    ).flatMap((base) => [`${base}.test.ts`, `${base}.postgres.test.ts`]);
    expect(files.sort()).toEqual(expected.sort());
    for (const file of files.filter((f) => f !== path.basename(__filename)))
      expect(fs.readFileSync(path.join(__dirname, file), 'utf8')).toContain(
        "require('./engine.entities.test')",
      );
  });

/** A value of `field` other than `held` and than its default, of the right type. */
function otherValue(field: FieldDefinition, held: unknown): unknown {
  const differs = (v: unknown) => v !== held && v !== field.default;
  switch (field.type) {
    case 'enum':
      return field.values.find(differs);
    case 'date':
      return '2031-01-02';
    case 'datetime':
      return '2031-01-02T03:04:05.000Z';
    case 'boolean':
      return !(held ?? field.default ?? false);
    case 'ref':
      return 999999;
    case 'refs':
      return [999999];
    case 'integer':
    case 'number':
    case 'money':
    case 'duration':
      return [7, 8].find(differs);
    default: {
      // Within the field's length (a currency code takes three letters), so only the refusal speaks.
      const max = 'max' in field ? field.max : undefined;
      return ['forged', 'other'].map((v) => v.slice(0, max)).find(differs);
    }
  }
}

/** A value as a spreadsheet cell holds it (money in major units, durations as `h:mm`, lists split by `;`). */
function importCell(field: FieldDefinition, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.type === 'refs') return (value as number[]).join(';');
  if (field.type === 'money') {
    const minor = Number(value);
    return `${Math.trunc(minor / MONEY_SCALE)}.${String(Math.abs(minor % MONEY_SCALE)).padStart(2, '0')}`;
  }
  if (field.type === 'duration') {
    const minutes = Number(value);
    return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
  }
  return String(value);
}

const csvQuote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

describe.each(splitDialects())(`entity engine on %s, registry shard ${shard} of ${SHARDS}`, (dialect) => {
  let t: TestApp;
  let admin: Session;
  const h = (extra: Record<string, string> = {}) => ({ ...admin.headers, ...extra });
  const { count, audits, events, statesAround } = engineChecks(() => t);
  /** Runs `fn` and checks that it changed neither row `id` of `table` nor any other (`writeState`). */
  const writesNothingTo = async (table: string, id: number, fn: () => Promise<void>) => {
    const [before, after] = await statesAround(table, id, fn);
    expect(after).toEqual(before);
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  describe.each(entities.map((e) => [e.name, e] as const))('%s', (name, entity) => {
    const url = entityUrl(entity);
    /**
     * A row as stored, which is what the audit trail keeps: the answer without the fields a
     * module's `expand` hook computes for it (a lawsuit's fees, a hearing's next one).
     */
    const storedKeys = new Set([
      'id',
      'createdAt',
      'updatedAt',
      'status',
      'baned',
      ...Object.entries(entity.fields).flatMap(([key, field]) =>
        field.type === 'ref'
          ? [key, refDisplayName(key)]
          : field.type === 'refs'
            ? [key, refsDisplayName(key)]
            : [key],
      ),
    ]);
    const stored = (row: Row) =>
      Object.fromEntries(Object.entries(row).filter(([key]) => storedKeys.has(key)));
    let created: Row;
    let input: Record<string, unknown>;

    /** Runs `fn` and checks that it changed no row, no audit entry and published nothing. */
    async function writesNothing(fn: () => Promise<void>) {
      const before = {
        rows: await count(entity.table),
        audit: await count('audit_log'),
        events: t.published.length,
      };
      await fn();
      expect({
        rows: await count(entity.table),
        audit: await count('audit_log'),
        events: t.published.length,
      }).toEqual(before);
    }

    it('creates a row with every field, in one transaction with its audit entry, then publishes its event', async () => {
      input = await validInput(t.app, admin.headers, entity);
      const res = await t.app.inject({ method: 'POST', url, headers: h(), payload: input });
      expect(res.statusCode).toBe(201);
      created = res.json().data;
      expect(created).toMatchObject({
        id: expect.any(Number),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      if (entity.status) expect(created.status).toBe(true);
      if (entity.baned) expect(created.baned).toBe(false);
      for (const [key, field] of Object.entries(entity.fields)) {
        if (field.writeOnly) {
          expect(created).not.toHaveProperty(key);
          continue;
        }
        // The server's own (a creator, a state): its module's tests say what it holds.
        if (setByServer(field, 'create')) continue;
        if (field.type === 'files') {
          expect(created[key]).toEqual([]);
          continue;
        }
        expect(created[key]).toEqual(input[key]);
        // A module's sample may leave a reference empty (a hearing's previous one: set by postponing).
        if (field.type === 'ref')
          expect(created[refDisplayName(key)]).toEqual(
            input[key] === null ? null : { id: input[key], name: expect.any(String) },
          );
        if (field.type === 'refs') {
          expect(created[refsDisplayName(key)]).toEqual(
            (input[key] as number[]).map((id) => ({ id, name: expect.any(String) })),
          );
        }
      }
      const [audit] = await audits(name, created.id, 'create');
      expect(audit).toMatchObject({ employee_id: admin.user.id, before: null });
      expect(JSON.parse(String(audit!.after))).toEqual(stored(created));
      expect(String(audit!.ip)).not.toBe('');
      expect(events(name, 'create', created.id)).toEqual([
        { channel: name, message: { type: 'event', channel: name, action: 'create', data: stored(created) } },
      ]);
    });

    it('applies defaults and leaves optional fields empty', async () => {
      // Only what a module's rules between fields require beyond the required fields (a person's ID).
      const minimal: Record<string, unknown> = moduleSample(name);
      for (const [key, field] of Object.entries(entity.fields)) {
        if (field.required && field.default === undefined)
          minimal[key] = (await validInput(t.app, admin.headers, entity))[key];
      }
      const res = await t.app.inject({ method: 'POST', url, headers: h(), payload: minimal });
      expect(res.statusCode).toBe(201);
      const row = res.json().data as Row;
      for (const [key, field] of Object.entries(entity.fields)) {
        if (field.writeOnly || setByServer(field, 'create') || key in minimal) continue;
        if (field.default !== undefined) expect(row[key]).toEqual(field.default);
        else if (field.type === 'refs' || field.type === 'files') expect(row[key]).toEqual([]);
        else expect(row[key]).toBeNull();
      }
      expect(
        (await t.app.inject({ method: 'DELETE', url: `${url}/${row.id}`, headers: h() })).statusCode,
      ).toBe(200);
    });

    it('gets one row; 404 for an unknown or malformed id', async () => {
      const res = await t.app.inject({ method: 'GET', url: `${url}/${created.id}`, headers: h() });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: created });
      for (const id of ['999999', 'abc', '0', '1.5']) {
        const missing = await t.app.inject({
          method: 'GET',
          url: `${url}/${id}`,
          headers: h({ 'accept-language': 'en' }),
        });
        expect(missing.statusCode).toBe(404);
        expect(missing.json()).toEqual({ message: 'The requested item does not exist', code: 'notFound' });
      }
    });

    it('lists with paging, sort, search and filters, totals matching the table', async () => {
      await createRow(t.app, admin.headers, name);
      await createRow(t.app, admin.headers, name);
      const total = await count(entity.table);
      const page1 = (
        await t.app.inject({ method: 'GET', url: `${url}?page=1&pageSize=2&sort=id:asc`, headers: h() })
      ).json().data;
      expect(page1).toMatchObject({ total, page: 1, pageSize: 2 });
      expect(page1.items).toHaveLength(2);
      const page2 = (
        await t.app.inject({ method: 'GET', url: `${url}?page=2&pageSize=2&sort=id:asc`, headers: h() })
      ).json().data;
      const ids = [...page1.items, ...page2.items].map((r: Row) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);

      const desc = (await t.app.inject({ method: 'GET', url: `${url}?sort=id:desc`, headers: h() })).json()
        .data;
      expect(desc.pageSize).toBe(20);
      expect(desc.items.map((r: Row) => r.id)).toEqual(
        [...desc.items.map((r: Row) => r.id)].sort((a, b) => b - a),
      );

      const search = Object.entries(entity.fields).find(([, f]) => f.search && !f.writeOnly);
      if (search) {
        const q = String(created[search[0]]);
        const found = (
          await t.app.inject({ method: 'GET', url: `${url}?q=${encodeURIComponent(q)}`, headers: h() })
        ).json().data;
        expect(found.items.map((r: Row) => r.id)).toContain(created.id);
        expect(found.total).toBe(found.items.length);
        const none = (
          await t.app.inject({
            method: 'GET',
            url: `${url}?q=${encodeURIComponent('%_no such row_%')}`,
            headers: h(),
          })
        ).json().data;
        expect(none).toMatchObject({ items: [], total: 0 });
      }

      for (const key of filterableFields(entity)) {
        const value = key in created ? created[key] : undefined;
        if (value === undefined || value === null) continue;
        const param = Array.isArray(value) ? value[0] : value;
        const res = await t.app.inject({
          method: 'GET',
          url: `${url}?${key}=${encodeURIComponent(String(param))}&pageSize=100`,
          headers: h(),
        });
        expect(res.statusCode).toBe(200);
        const { items, total: filtered } = res.json().data;
        expect(items.map((r: Row) => r.id)).toContain(created.id);
        expect(filtered).toBe(items.length);
        for (const item of items) {
          if (Array.isArray(value)) expect(item[key]).toContain(param);
          else expect(item[key]).toEqual(value);
        }
      }

      const bad = await t.app.inject({
        method: 'GET',
        url: `${url}?pageSize=101&sort=nope:asc`,
        headers: h({ 'accept-language': 'en' }),
      });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(['pageSize', 'sort']);
    });

    it('updates a row (id in the body) with its audit entry and event; 404 for an unknown id', async () => {
      const changed = await validInput(t.app, admin.headers, entity);
      const body: Record<string, unknown> = { id: created.id };
      for (const [key, field] of Object.entries(entity.fields)) {
        // What only the server sets is sent back as read, as a form echoing the row does.
        if (!field.createOnly && field.type !== 'files')
          body[key] = field.setBy ? created[key] : changed[key];
      }
      const res = await t.app.inject({ method: 'PUT', url, headers: h(), payload: body });
      expect(res.statusCode).toBe(200);
      const updated = res.json().data as Row;
      for (const [key, field] of Object.entries(entity.fields)) {
        if (field.createOnly || field.writeOnly || field.type === 'files') continue;
        expect(updated[key]).toEqual(body[key]);
      }
      const [audit] = await audits(name, created.id, 'update');
      expect(JSON.parse(String(audit!.before))).toEqual(stored(created));
      expect(JSON.parse(String(audit!.after))).toEqual(stored(updated));
      expect(events(name, 'update', created.id)).toHaveLength(1);
      created = updated;

      await writesNothing(async () => {
        const missing = await t.app.inject({
          method: 'PUT',
          url,
          headers: h(),
          payload: { ...body, id: 999999 },
        });
        expect(missing.statusCode).toBe(404);
      });
    });

    it('refuses a stale update, patch or toggle with 409, the current row and who changed it, writing nothing', async () => {
      const read = created;
      // Someone else saves first, with the version they read.
      const first = await t.app.inject({
        method: 'PATCH',
        url: `${url}/${created.id}`,
        headers: h(),
        payload: { updatedAt: read.updatedAt },
      });
      expect(first.statusCode).toBe(200);
      const current = first.json().data as Row;
      // Two saves within one millisecond still make two versions.
      expect(Date.parse(String(current.updatedAt))).toBeGreaterThan(Date.parse(String(read.updatedAt)));
      const stale: [string, string, Record<string, unknown>][] = [
        ['PUT', url, { id: created.id, updatedAt: read.updatedAt }],
        ['PATCH', `${url}/${created.id}`, { updatedAt: read.updatedAt }],
      ];
      if (entity.status) stale.push(['PATCH', `${url}/status/${created.id}`, { updatedAt: read.updatedAt }]);
      if (entity.baned) stale.push(['PATCH', `${url}/baned/${created.id}`, { updatedAt: read.updatedAt }]);
      await writesNothingTo(entity.table, created.id, async () => {
        for (const [method, path, payload] of stale) {
          const res = await t.app.inject({
            method: method as 'PUT',
            url: path,
            headers: h({ 'accept-language': 'en' }),
            payload,
          });
          expect([method, path, res.statusCode]).toEqual([method, path, 409]);
          expect(res.json()).toEqual({
            code: 'stale',
            message:
              'Someone else changed this record after you opened it: review the current data, then save again',
            current,
            changedBy: { id: admin.user.id, name: admin.user.name, gender: null },
            changedAt: current.updatedAt,
          });
        }
      });
      // The version read now goes through; a PUT needs no field it does not change.
      const ok = await t.app.inject({
        method: 'PUT',
        url,
        headers: h(),
        payload: { id: created.id, updatedAt: current.updatedAt },
      });
      expect(ok.statusCode).toBe(200);
      created = ok.json().data;
    });

    if (entity.status) {
      it('toggles the status, or sets it from { status }', async () => {
        const off = await t.app.inject({ method: 'PATCH', url: `${url}/status/${created.id}`, headers: h() });
        expect(off.statusCode).toBe(200);
        expect(off.json().data.status).toBe(false);
        expect(events(name, 'status', created.id).at(-1)?.message).toMatchObject({ data: { status: false } });
        const inactive = (
          await t.app.inject({ method: 'GET', url: `${url}?status=false&pageSize=100`, headers: h() })
        ).json().data;
        expect(inactive.items.map((r: Row) => r.id)).toContain(created.id);
        const kept = await t.app.inject({
          method: 'PATCH',
          url: `${url}/status/${created.id}`,
          headers: h(),
          payload: { status: false },
        });
        expect(kept.json().data.status).toBe(false);
        const on = await t.app.inject({
          method: 'PATCH',
          url: `${url}/status/${created.id}`,
          headers: h({ 'content-type': 'application/json' }),
          payload: '',
        });
        expect(on.statusCode).toBe(200);
        expect(on.json().data.status).toBe(true);
        expect(await audits(name, created.id, 'status')).toHaveLength(3);
        const wrong = await t.app.inject({
          method: 'PATCH',
          url: `${url}/status/${created.id}`,
          headers: h(),
          payload: { status: 'yes' },
        });
        expect(wrong.statusCode).toBe(422);
        expect(
          (await t.app.inject({ method: 'PATCH', url: `${url}/status/999999`, headers: h() })).statusCode,
        ).toBe(404);
        created = on.json().data;
      });
    } else if (!Object.values(entity.actions ?? {}).some((a) => a.path === '/status/:id')) {
      // An entity may take the seed's `/status/{id}` for an action of its own (a task's state move).
      it('has no status route', async () => {
        const res = await t.app.inject({ method: 'PATCH', url: `${url}/status/${created.id}`, headers: h() });
        expect(res.statusCode).toBe(404);
      });
    }

    if (entity.baned) {
      it('toggles the ban, or sets it from { baned }', async () => {
        const banned = await t.app.inject({
          method: 'PATCH',
          url: `${url}/baned/${created.id}`,
          headers: h(),
        });
        expect(banned.statusCode).toBe(200);
        expect(banned.json().data.baned).toBe(true);
        expect(await audits(name, created.id, 'baned')).toHaveLength(1);
        const unbanned = await t.app.inject({
          method: 'PATCH',
          url: `${url}/baned/${created.id}`,
          headers: h(),
          payload: { baned: false },
        });
        expect(unbanned.json().data.baned).toBe(false);
        created = unbanned.json().data;
      });
    }

    it('answers 422 with every field message, in Arabic and English, and writes nothing', async () => {
      const bad: Record<string, unknown> = { ...(await validInput(t.app, admin.headers, entity)) };
      const expected: string[] = [];
      for (const [key, field] of Object.entries(entity.fields)) {
        if (field.type === 'files') continue;
        expected.push(key);
        if (isText(field)) bad[key] = field.required ? '   ' : 'x'.repeat(maxOf(field) + 1);
        else if (field.type === 'enum') bad[key] = 'not-a-value';
        else if (field.type === 'refs') bad[key] = ['a'];
        else if (field.type === 'boolean') bad[key] = 'maybe';
        else bad[key] = 'abc';
      }
      await writesNothing(async () => {
        const ar = await t.app.inject({ method: 'POST', url, headers: h(), payload: bad });
        const en = await t.app.inject({
          method: 'POST',
          url,
          headers: h({ 'accept-language': 'en-GB,en;q=0.9' }),
          payload: bad,
        });
        expect(ar.statusCode).toBe(422);
        expect(en.statusCode).toBe(422);
        const arBody = ar.json();
        const enBody = en.json();
        expect(arBody.code).toBe('validation');
        expect(Object.keys(arBody.errors).sort()).toEqual([...expected].sort());
        for (const key of expected) {
          const [arMessage] = arBody.errors[key];
          const [enMessage] = enBody.errors[key];
          expect(arMessage).not.toMatch(/validation\.|\{\{/);
          expect(enMessage).not.toMatch(/validation\.|\{\{/);
          expect(arMessage).not.toEqual(enMessage);
          expect(arMessage).toMatch(/[\u0600-\u06FF]/);
        }
        // The top message is the first field's, as the client shows it.
        expect(enBody.message).toBe(Object.values(enBody.errors as Record<string, string[]>)[0]![0]);
      });

      const [textKey] = Object.entries(entity.fields).find(([, f]) => isText(f) && f.required) ?? [];
      if (textKey) {
        const en = await t.app.inject({
          method: 'POST',
          url,
          headers: h({ 'accept-language': 'en' }),
          payload: { ...bad, [textKey]: 12345 },
        });
        expect(en.json().errors[textKey]).toEqual([expect.stringContaining('must be text')]);
        const missing = { ...bad };
        delete missing[textKey];
        const required = await t.app.inject({
          method: 'POST',
          url,
          headers: h({ 'accept-language': 'en' }),
          payload: missing,
        });
        expect(required.json().errors[textKey]).toEqual([expect.stringContaining('is required')]);
      }
    });

    const uniqueFields = Object.entries(entity.fields).filter(([, f]) => f.unique);
    if (uniqueFields.length || entity.uniqueTogether?.length) {
      it('answers 409 with the field message when a unique value is taken, and writes nothing', async () => {
        for (const group of [
          ...uniqueFields.map(([key]) => [key]),
          ...(entity.uniqueTogether ?? []).map((g) => [...g]),
        ]) {
          // An empty value takes no unique slot (a client who is a person has no registration).
          if (group.some((key) => created[key] === null || created[key] === undefined)) continue;
          const fresh = await validInput(t.app, admin.headers, entity);
          for (const key of group) fresh[key] = created[key];
          await writesNothing(async () => {
            const res = await t.app.inject({
              method: 'POST',
              url,
              headers: h({ 'accept-language': 'en' }),
              payload: fresh,
            });
            expect(res.statusCode).toBe(409);
            expect(res.json()).toMatchObject({
              code: 'unique',
              errors: { [group[0]!]: [expect.any(String)] },
            });
            expect(res.json().message).toBe(res.json().errors[group[0]!][0]);
          });
        }
        // Updating a row to another row's value is refused as well.
        const other = await createRow(t.app, admin.headers, name);
        const [firstGroup] = [
          ...uniqueFields.map(([key]) => [key]),
          ...(entity.uniqueTogether ?? []).map((g) => [...g]),
        ];
        const body: Record<string, unknown> = { id: other.id };
        for (const [key, field] of Object.entries(entity.fields)) {
          if (!field.createOnly && !field.writeOnly && field.type !== 'files') body[key] = other[key];
        }
        for (const key of firstGroup!) body[key] = created[key];
        const res = await t.app.inject({ method: 'PUT', url, headers: h(), payload: body });
        expect(res.statusCode).toBe(409);
      });
    }

    const refFields = Object.entries(entity.fields).filter(
      ([, f]) => (f.type === 'ref' || f.type === 'refs') && !setByServer(f, 'create'),
    );
    if (refFields.length) {
      it('answers 422 on the field when a reference does not exist, and writes nothing', async () => {
        const body = await validInput(t.app, admin.headers, entity);
        for (const [key, field] of refFields) body[key] = field.type === 'refs' ? [999999] : 999999;
        await writesNothing(async () => {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: h({ 'accept-language': 'en' }),
            payload: body,
          });
          expect(res.statusCode).toBe(422);
          expect(Object.keys(res.json().errors).sort()).toEqual(refFields.map(([key]) => key).sort());
          for (const [key] of refFields)
            expect(res.json().errors[key]).toEqual([expect.stringContaining('does not exist')]);
        });
      });
    }

    /** The administrator as a module's code acts for them (what a request's guard would give). */
    const adminActor = () => ({
      user: {
        id: admin.user.id,
        name: String(admin.user.name ?? ''),
        email: String(admin.user.email ?? ''),
        username: String(admin.user.username ?? ''),
        permissions: new Set(admin.user.permissions),
        roleIds: [],
        sessionId: 0,
        passwordChangeRequired: false,
        gender: null,
      } satisfies AuthUser,
      ip: '127.0.0.1',
    });

    /** Checks a created row's audit entry and event: the form POST gives them, whatever the way in. */
    async function createdAsByPost(row: Row, auditAction: string, event: boolean) {
      const read = (await t.app.inject({ method: 'GET', url: `${url}/${row.id}`, headers: h() })).json().data;
      const [audit] = await audits(name, row.id, auditAction);
      expect(audit).toMatchObject({ employee_id: admin.user.id, before: null });
      expect(JSON.parse(String(audit!.after))).toEqual(stored(read));
      if (event)
        expect(events(name, 'create', row.id)).toEqual([
          { channel: name, message: { type: 'event', channel: name, action: 'create', data: stored(read) } },
        ]);
      return read as Row;
    }

    it('creates through createMany as through POST: the same values, audit entry and event', async () => {
      const body = await validInput(t.app, admin.headers, entity);
      const service = t.app.entities.get(name);
      const [row] = await service.createMany(adminActor(), [body]);
      const read = await createdAsByPost(row!, 'create', true);
      for (const [key, field] of Object.entries(entity.fields))
        if (!field.writeOnly && !setByServer(field, 'create') && field.type !== 'files')
          expect(read[key]).toEqual(body[key]);
      // And refuses what POST refuses, before writing anything: a value no field takes.
      const [firstKey, first] = Object.entries(entity.fields).find(([, f]) => f.type !== 'files')!;
      await writesNothing(async () => {
        const refused = await service
          .createMany(adminActor(), [body, { ...body, [firstKey]: first.type === 'boolean' ? 'x' : {} }])
          .then(
            () => null,
            (error: unknown) => error as { status?: number; options?: { rows?: { index: number }[] } },
          );
        expect(refused?.options?.rows?.map((r) => r.index)).toContain(1);
      });
      expect(
        (await t.app.inject({ method: 'DELETE', url: `${url}/${row!.id}`, headers: h() })).statusCode,
      ).toBe(200);
    });

    if (entity.importable)
      it('imports a row as POST creates it: the same values, an `import` audit entry, one summary event', async () => {
        const body = await validInput(t.app, admin.headers, entity);
        const keys = importableFields(entity)
          .map(([key]) => key)
          .filter((key) => body[key] !== undefined);
        const csv = [keys, keys.map((key) => importCell(entity.fields[key]!, body[key]))]
          .map((line) => line.map(csvQuote).join(','))
          .join('\n');
        const form = new FormData();
        form.append('file', Buffer.from(csv, 'utf8'), { filename: 'rows.csv', contentType: 'text/csv' });
        const sent = t.published.length;
        const res = await t.app.inject({
          method: 'POST',
          url: `${url}/import`,
          headers: { ...h({ 'accept-language': 'en' }), ...form.getHeaders() },
          payload: form.getBuffer(),
        });
        expect([res.statusCode, res.json().data?.created ?? res.body]).toEqual([201, 1]);
        const [entry] = await t.app.db
          .selectFrom('audit_log')
          .select('entity_id')
          .where('entity', '=', name)
          .where('action', '=', 'import')
          .orderBy('id', 'desc')
          .limit(1)
          .execute();
        const read = await createdAsByPost({ id: Number(entry!.entity_id) }, 'import', false);
        for (const key of keys) expect([key, read[key]]).toEqual([key, body[key]]);
        expect(t.published.slice(sent).filter((p) => p.channel === name)).toEqual([
          {
            channel: name,
            message: { type: 'event', channel: name, action: 'create', data: { imported: 1 } },
          },
        ]);
        expect(
          (await t.app.inject({ method: 'DELETE', url: `${url}/${read.id}`, headers: h() })).statusCode,
        ).toBe(200);
      });

    const serverFields = Object.entries(entity.fields).filter(([, f]) => f.setBy);
    if (serverFields.length)
      it('refuses a field only the server sets (setBy) on create, createMany, update and patch (one set on create: update and patch): 422 naming it, in Arabic and English; the value read is taken back', async () => {
        for (const [key, field] of serverFields) {
          const body = await validInput(t.app, admin.headers, entity);
          const forged = otherValue(field, created[key]);
          const onCreate = setByServer(field, 'create');
          await writesNothing(async () => {
            for (const [method, payload] of [
              ...(onCreate ? ([['POST', { ...body, [key]: forged }]] as const) : []),
              ['PUT', { id: created.id, [key]: forged }],
              ['PATCH', { [key]: forged }],
            ] as const) {
              const target = method === 'PATCH' ? `${url}/${created.id}` : url;
              const ar = await t.app.inject({ method, url: target, headers: h(), payload });
              const en = await t.app.inject({
                method,
                url: target,
                headers: h({ 'accept-language': 'en' }),
                payload,
              });
              expect([method, ar.statusCode, Object.keys(ar.json().errors ?? {})]).toEqual([
                method,
                422,
                [key],
              ]);
              expect(en.json().errors[key]).toEqual([expect.stringContaining('cannot be sent from a form')]);
              expect(ar.json().errors[key]).toEqual([expect.stringMatching(/[\u0600-\u06FF].*النموذج/)]);
            }
            if (!onCreate) return;
            const many = await t.app.entities
              .get(name)
              .createMany(adminActor(), [{ ...body, [key]: forged }])
              .catch((error: { options?: { rows?: unknown } }) => error.options?.rows);
            expect(many).toEqual([{ index: 0, errors: { [key]: [{ key: 'http.serverField.refused' }] } }]);
          });
        }
        // A form sending back the row it read changes nothing of them.
        const echo = Object.fromEntries(serverFields.map(([key]) => [key, created[key]]));
        const res = await t.app.inject({
          method: 'PATCH',
          url: `${url}/${created.id}`,
          headers: h(),
          payload: echo,
        });
        expect(res.statusCode).toBe(200);
        for (const [key] of serverFields) expect(res.json().data[key]).toEqual(created[key]);
        created = res.json().data;
      });

    it('answers 400 to malformed JSON and 415 to an unknown content type, writing nothing', async () => {
      await writesNothing(async () => {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: h({ 'content-type': 'application/json', 'accept-language': 'en' }),
          payload: '{"name": ',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'The JSON body is not valid', code: 'malformed' });
        const xml = await t.app.inject({
          method: 'POST',
          url,
          headers: h({ 'content-type': 'application/xml' }),
          payload: '<a/>',
        });
        expect(xml.statusCode).toBe(415);
        expect(xml.json().code).toBe('unsupportedMediaType');
        const array = await t.app.inject({ method: 'POST', url, headers: h(), payload: [1, 2] });
        expect(array.statusCode).toBe(400);
      });
    });

    it('deletes a row with its audit entry and event; 409 while another row references it', async () => {
      const refs = referencesTo(name);
      const holders: { url: string; id: number }[] = [];
      // Rows declared part of this one (`onDelete: 'cascade'`) are deleted with it, checked below.
      const parts: { other: Entity<Fields>; id: number }[] = [];
      for (const { entity: other, field: key, type } of refs) {
        if (HELD_FOR_GOOD[name]?.includes(`${other.name}.${key}`)) continue;
        const holder = await createHolder(t.app, admin.headers, other.name, key, type, created);
        const field = other.fields[key]!;
        if (field.type === 'ref' && field.onDelete === 'cascade') {
          parts.push({ other, id: holder.id });
          continue;
        }
        holders.push({ url: entityUrl(other), id: holder.id });
        await writesNothing(async () => {
          const refused = await t.app.inject({
            method: 'DELETE',
            url: `${url}/${created.id}`,
            headers: h({ 'accept-language': 'en' }),
          });
          expect(refused.statusCode).toBe(409);
          expect(refused.json()).toMatchObject({
            code: 'referenced',
            message: expect.stringContaining('cannot be deleted'),
          });
        });
        const removed = await t.app.inject({
          method: 'DELETE',
          url: `${holders.at(-1)!.url}/${holder.id}`,
          headers: h(),
        });
        expect(removed.statusCode).toBe(200);
      }
      const before = await count(entity.table);
      const res = await t.app.inject({ method: 'DELETE', url: `${url}/${created.id}`, headers: h() });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.id).toBe(created.id);
      expect(await count(entity.table)).toBe(before - 1);
      expect(
        (await t.app.inject({ method: 'GET', url: `${url}/${created.id}`, headers: h() })).statusCode,
      ).toBe(404);
      const [audit] = await audits(name, created.id, 'delete');
      expect(audit).toMatchObject({ after: null });
      expect(events(name, 'delete', created.id)).toHaveLength(1);
      for (const { other, id } of parts) {
        const part = await t.app.inject({ method: 'GET', url: `${entityUrl(other)}/${id}`, headers: h() });
        expect(part.statusCode).toBe(404);
        expect(await audits(other.name, id, 'delete')).toHaveLength(1);
        expect(events(other.name, 'delete', id)).toHaveLength(1);
      }
      // The maintained total follows deletes.
      const list = (await t.app.inject({ method: 'GET', url, headers: h() })).json().data;
      expect(list.total).toBe(before - 1);
      expect(
        (await t.app.inject({ method: 'DELETE', url: `${url}/${created.id}`, headers: h() })).statusCode,
      ).toBe(404);
    });
  });
});
