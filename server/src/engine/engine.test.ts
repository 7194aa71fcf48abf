// The engine's own behaviour beyond one definition's CRUD routes: the write path (PUT and PATCH,
// createMany), declared actions, scope and expand on a test-only definition, access control on
// every route of every entity, column names. The registry-wide CRUD tests are in
// engine.entities.test.ts and its shards.
import { registry, type Entity, type Fields } from '@mizan/contracts';
import { columnName } from '../db/migrations';
import { countRows, createRow, createUserWith, entityUrl, nextSeq } from '../test/fixtures';
import { createTestApp, type Session, type TestApp, splitDialects } from '../test/harness';
import { AppError } from '../http/errors';
import { appErrorBody } from '../http/errorHandler';
import { EntityServices } from './service';
import { engineChecks } from './testChecks';
import { engineWidgets, serveTestEntities, TEST_ENTITIES, type WidgetProbe } from './testEntities';

type Row = Record<string, unknown> & { id: number };
const entities = registry as readonly Entity<Fields>[];

describe.each(splitDialects())('entity engine on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let probe: WidgetProbe;
  const h = (extra: Record<string, string> = {}) => ({ ...admin.headers, ...extra });
  const { count, audits, events, statesAround } = engineChecks(() => t);
  /** Runs `fn` and checks that it changed neither row `id` of `table` nor any other (`writeState`). */
  const writesNothingTo = async (table: string, id: number, fn: () => Promise<void>) => {
    const [before, after] = await statesAround(table, id, fn);
    expect(after).toEqual(before);
  };

  const auditCount = (id: number) =>
    countRows(t.app, 'audit_log', { entity: 'engineWidgets', entity_id: id });

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { entities: TEST_ENTITIES } });
    probe = await serveTestEntities(t);
    admin = await t.login();
  });
  afterAll(() => t.close());

  describe('the write path', () => {
    const courts = entityUrl('courts');

    it('PUT keeps the stored value of a field left out; PATCH changes only the fields given', async () => {
      const court = await createRow(t.app, admin.headers, 'courts', { address: 'شارع النيل' });
      const put = await t.app.inject({
        method: 'PUT',
        url: courts,
        headers: h(),
        payload: { id: court.id, phone: '+20 100 1234' },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json().data).toMatchObject({
        name: court.name,
        address: 'شارع النيل',
        phone: '+20 100 1234',
      });
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `${courts}/${court.id}`,
        headers: h(),
        payload: { address: null },
      });
      expect(patch.statusCode).toBe(200);
      expect(patch.json().data).toMatchObject({ name: court.name, address: null, phone: '+20 100 1234' });
      expect(await audits('courts', court.id, 'update')).toHaveLength(2);
      expect(events('courts', 'update', court.id)).toHaveLength(2);
      // A required field may be left out, not cleared.
      const cleared = await t.app.inject({
        method: 'PATCH',
        url: `${courts}/${court.id}`,
        headers: h({ 'accept-language': 'en' }),
        payload: { name: null },
      });
      expect(cleared.statusCode).toBe(422);
      expect(Object.keys(cleared.json().errors)).toEqual(['name']);
      const missing = await t.app.inject({
        method: 'PATCH',
        url: `${courts}/999999`,
        headers: h(),
        payload: {},
      });
      expect(missing.statusCode).toBe(404);
      const badVersion = await t.app.inject({
        method: 'PATCH',
        url: `${courts}/${court.id}`,
        headers: h(),
        payload: { updatedAt: 'yesterday' },
      });
      expect(badVersion.statusCode).toBe(422);
      expect(Object.keys(badVersion.json().errors)).toEqual(['updatedAt']);
    });

    it('createMany writes every row in one transaction with audit, count and events, or none with per-row errors', async () => {
      const service = t.app.entities.get('courts');
      const before = {
        rows: await count('courts'),
        audit: await count('audit_log'),
        events: t.published.length,
      };
      const seq = nextSeq();
      const rows = await service.createMany({ user: null }, [
        { name: `batch a ${seq}` },
        { name: `batch b ${seq}` },
      ]);
      expect(rows.map((r) => [r.name, r.courtType, r.status])).toEqual([
        [`batch a ${seq}`, 'general', true],
        [`batch b ${seq}`, 'general', true],
      ]);
      expect(await count('courts')).toBe(before.rows + 2);
      expect(await count('audit_log')).toBe(before.audit + 2);
      expect(JSON.parse(String((await audits('courts', rows[0]!.id, 'create'))[0]!.after))).toEqual(rows[0]);
      expect(t.published.length).toBe(before.events + 2);
      const list = (await t.app.inject({ method: 'GET', url: courts, headers: h() })).json().data;
      expect(list.total).toBe(before.rows + 2);

      const circuit = { name: 'دائرة', number: 1, courtId: rows[0]!.id };
      const bad = [
        { name: `batch c ${seq}` },
        { name: '   ' },
        { name: `batch a ${seq}` },
        { name: `batch d ${seq}` },
        { name: `batch d ${seq}` },
      ];
      const after = {
        rows: await count('courts'),
        audit: await count('audit_log'),
        events: t.published.length,
      };
      const error = await service.createMany({ user: null }, bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      const body = appErrorBody(error as AppError, 'en');
      expect(body).toMatchObject({
        code: 'validation',
        message: 'Some rows are not valid, and none was saved',
      });
      expect(
        (body as unknown as { rows: { index: number; errors: Record<string, string[]> }[] }).rows,
      ).toEqual([
        { index: 1, errors: { name: [expect.any(String)] } },
        { index: 2, errors: { name: [expect.stringContaining('already in use')] } },
        { index: 4, errors: { name: [expect.stringContaining('already in use')] } },
      ]);
      const refs = await t.app.entities
        .get('circuits')
        .createMany({ user: null }, [circuit, { ...circuit, number: 2, courtId: 999999 }])
        .catch((e: unknown) => appErrorBody(e as AppError, 'en'));
      expect((refs as unknown as { rows: unknown[] }).rows).toEqual([
        { index: 1, errors: { courtId: [expect.stringContaining('does not exist')] } },
      ]);
      expect({
        rows: await count('courts'),
        audit: await count('audit_log'),
        events: t.published.length,
      }).toEqual(after);
    });
  });

  describe('declared actions, scope and expand (a test-only definition)', () => {
    const url = entityUrl(engineWidgets);
    let owner: Session;
    let ownerId: number;
    let mine: Row;
    let theirs: Row;

    beforeAll(async () => {
      const creds = await createUserWith(t.app, admin.headers, [
        'engineWidgets.view',
        'engineWidgets.update',
        'engineWidgets.archive',
        'engineWidgets.reopen',
      ]);
      owner = await t.login(creds.email, creds.password);
      ownerId = creds.employeeId;
      const create = async (name: string, by: number) =>
        (await t.app.inject({ method: 'POST', url, headers: h(), payload: { name, ownerId: by } })).json()
          .data as Row;
      mine = await create(`w mine ${nextSeq()}`, ownerId);
      theirs = await create(`w theirs ${nextSeq()}`, admin.user.id);
    });

    it('derives the action permissions and seeds them', async () => {
      const keys = (
        await t.app.db.selectFrom('permissions').select('key').where('group', '=', 'engineWidgets').execute()
      )
        .map((r) => r.key)
        .sort();
      expect(keys).toEqual(
        ['archive', 'create', 'delete', 'export', 'reopen', 'status', 'update', 'view'].map(
          (a) => `engineWidgets.${a}`,
        ),
      );
    });

    it('lists and gets only the rows in the reader’s scope; out of scope is 404 for reads and writes', async () => {
      const list = await t.app.inject({ method: 'GET', url: `${url}?pageSize=100`, headers: owner.headers });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.items.map((r: Row) => r.id)).toEqual([mine.id]);
      expect(list.json().data.total).toBe(1);
      const all = (await t.app.inject({ method: 'GET', url: `${url}?pageSize=100`, headers: h() })).json()
        .data;
      expect(all.items.map((r: Row) => r.id).sort()).toEqual([mine.id, theirs.id].sort());
      for (const [method, path, payload] of [
        ['GET', `${url}/${theirs.id}`, undefined],
        ['PATCH', `${url}/${theirs.id}`, { note: 'x' }],
        ['PUT', url, { id: theirs.id, note: 'x' }],
        ['PATCH', `${url}/${theirs.id}/archive`, { reason: 'x' }],
      ] as const) {
        const res = await t.app.inject({ method, url: path, headers: owner.headers, payload });
        expect([method, path, res.statusCode]).toEqual([method, path, 404]);
      }
      expect(
        (await t.app.inject({ method: 'GET', url: `${url}/${mine.id}`, headers: owner.headers })).statusCode,
      ).toBe(200);
    });

    it('adds computed fields with one expand call per page', async () => {
      await t.app.inject({ method: 'POST', url, headers: h(), payload: { name: `w extra ${nextSeq()}` } });
      const calls = probe.expandCalls;
      const page = (await t.app.inject({ method: 'GET', url: `${url}?pageSize=100`, headers: h() })).json()
        .data;
      expect(probe.expandCalls).toBe(calls + 1);
      expect(probe.expandSizes.at(-1)).toBe(page.items.length);
      expect(page.items.length).toBeGreaterThanOrEqual(3);
      for (const item of page.items as Row[]) {
        expect(item.changes).toBe(await auditCount(item.id));
      }
      const one = (await t.app.inject({ method: 'GET', url: `${url}/${mine.id}`, headers: h() })).json().data;
      expect(one.changes).toBe(1);
    });

    it('runs a declared action: its route, permission, body schema, handler, audit verb and event', async () => {
      await writesNothingTo(engineWidgets.table, mine.id, async () => {
        const empty = await t.app.inject({
          method: 'PATCH',
          url: `${url}/${mine.id}/archive`,
          headers: { ...owner.headers, 'accept-language': 'en' },
          payload: { reason: '  ' },
        });
        expect(empty.statusCode).toBe(422);
        expect(Object.keys(empty.json().errors)).toEqual(['reason']);
      });
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${url}/${mine.id}/archive`,
        headers: owner.headers,
        payload: { reason: 'انتهى', updatedAt: mine.updatedAt },
      });
      expect(res.statusCode).toBe(200);
      const archived = res.json().data as Row;
      expect(archived).toMatchObject({ id: mine.id, archived: true, archiveReason: 'انتهى', changes: 2 });
      const [audit] = await audits('engineWidgets', mine.id, 'archive');
      expect(audit).toMatchObject({ employee_id: ownerId });
      expect(JSON.parse(String(audit!.after))).toMatchObject({ archived: true });
      const { changes, ...stored } = archived;
      void changes;
      expect(events('engineWidgets', 'archive', mine.id).map((e) => e.message)).toEqual([
        { type: 'event', channel: 'engineWidgets', action: 'archive', data: stored },
      ]);

      await writesNothingTo(engineWidgets.table, mine.id, async () => {
        // The handler refuses a second archive; a stale version is refused before it runs.
        const again = await t.app.inject({
          method: 'PATCH',
          url: `${url}/${mine.id}/archive`,
          headers: owner.headers,
          payload: { reason: 'مرة أخرى' },
        });
        expect(again.statusCode).toBe(409);
        expect(again.json().code).toBe('conflict');
        // Who saved it comes with their gender: "حفظته فاطمة" agrees with her.
        await t.app.db.updateTable('employees').set({ gender: 'female' }).where('id', '=', ownerId).execute();
        const stale = await t.app.inject({
          method: 'PATCH',
          url: `${url}/${mine.id}/archive`,
          headers: owner.headers,
          payload: { reason: 'x', updatedAt: mine.updatedAt },
        });
        expect(stale.statusCode).toBe(409);
        expect(stale.json()).toMatchObject({
          code: 'stale',
          current: { id: mine.id, archived: true, changes: 2 },
          changedBy: { id: ownerId, gender: 'female' },
          changedAt: archived.updatedAt,
        });
      });

      const reopened = await t.app.inject({
        method: 'POST',
        url: `${url}/reopen/${mine.id}`,
        headers: owner.headers,
      });
      expect(reopened.statusCode).toBe(200);
      expect(reopened.json()).toEqual({ data: { reopened: mine.id } });
      expect(
        (await t.app.inject({ method: 'GET', url: `${url}/${mine.id}`, headers: h() })).json().data,
      ).toMatchObject({
        archived: false,
        archiveReason: null,
      });
      expect(await audits('engineWidgets', mine.id, 'reopen')).toHaveLength(1);
      expect(events('engineWidgets', 'reopen', mine.id)).toHaveLength(1);
    });

    it('refuses an action to a user without its permission (403) and to anyone signed out (401)', async () => {
      const creds = await createUserWith(t.app, admin.headers, ['engineWidgets.view']);
      const viewer = await t.login(creds.email, creds.password);
      for (const headers of [viewer.headers, {}]) {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `${url}/${theirs.id}/archive`,
          headers,
          payload: { reason: 'x' },
        });
        expect(res.statusCode).toBe(headers === viewer.headers ? 403 : 401);
      }
    });

    it('keeps hooks per app instance: another EntityServices has none of this app’s handlers', async () => {
      const other = new EntityServices(TEST_ENTITIES, {
        db: t.app.db,
        dialect: t.app.dialect,
        bus: t.app.bus,
        files: t.app.fileStore,
      });
      await expect(
        other.get('engineWidgets').runAction({ user: null }, 'archive', mine.id, { reason: 'x' }),
      ).rejects.toThrow(/No handler for the action "archive"/);
      expect(() => t.app.entities.hooks('engineWidgets', { actions: { explode: () => undefined } })).toThrow(
        /declares no action "explode"/,
      );
    });
  });

  describe('access control', () => {
    it('refuses every route of every entity (403) to a user without its permission, and 401 without a token', async () => {
      const creds = await createUserWith(t.app, admin.headers, ['dashboard.view']);
      const user = await t.login(creds.email, creds.password);
      for (const entity of entities) {
        const url = entityUrl(entity);
        const routes: [string, string, unknown?][] = [
          ['GET', url],
          ['GET', `${url}/1`],
          ['POST', url, {}],
          ['PUT', url, { id: 1 }],
          ['DELETE', `${url}/1`],
        ];
        if (entity.status) routes.push(['PATCH', `${url}/status/1`]);
        if (entity.baned) routes.push(['PATCH', `${url}/baned/1`]);
        if (entity.fileDeletePath)
          routes.push([
            'DELETE',
            url + entity.fileDeletePath.replace(':ownerId', '1').replace(':fileId', '1'),
          ]);
        for (const [method, path, payload] of routes) {
          const res = await t.app.inject({
            method: method as 'GET',
            url: path,
            headers: user.headers,
            payload: payload as object,
          });
          expect([method, path, res.statusCode]).toEqual([method, path, 403]);
          expect(res.json().message).toEqual(expect.any(String));
          const anonymous = await t.app.inject({
            method: method as 'GET',
            url: path,
            payload: payload as object,
          });
          expect([method, path, anonymous.statusCode]).toEqual([method, path, 401]);
        }
      }
    });

    it('lets a user do exactly what their permissions allow', async () => {
      const creds = await createUserWith(t.app, admin.headers, ['courts.view', 'courts.status']);
      const user = await t.login(creds.email, creds.password);
      const url = entityUrl('courts');
      const court = await createRow(t.app, admin.headers, 'courts');
      expect((await t.app.inject({ method: 'GET', url, headers: user.headers })).statusCode).toBe(200);
      expect(
        (await t.app.inject({ method: 'GET', url: `${url}/${court.id}`, headers: user.headers })).statusCode,
      ).toBe(200);
      expect(
        (await t.app.inject({ method: 'PATCH', url: `${url}/status/${court.id}`, headers: user.headers }))
          .statusCode,
      ).toBe(200);
      const refused = await t.app.inject({
        method: 'POST',
        url,
        headers: user.headers,
        payload: { name: `c ${nextSeq()}` },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('forbidden');
      const [audit] = await audits('courts', court.id, 'status');
      expect(audit!.employee_id).toBe(creds.employeeId);
    });
  });

  describe('column names', () => {
    it('stores every field in its snake_case column', async () => {
      const tables = await t.app.db.introspection.getTables();
      for (const entity of entities) {
        const columns = tables.find((tb) => tb.name === entity.table)?.columns.map((c) => c.name) ?? [];
        for (const [key, field] of Object.entries(entity.fields)) {
          if (field.type !== 'refs' && field.type !== 'files') expect(columns).toContain(columnName(key));
        }
      }
    });
  });
});
