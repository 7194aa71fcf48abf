import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { AREA_PERMISSIONS, type BackupItem, type BackupList } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import tar from 'tar-stream';
import { buildApp } from '../app';
import { signInWith } from '../system/testing/users';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

jest.setTimeout(120_000);

const BACKUPS = '/api/admin/settings/system/backups';
const GENERAL = '/api/admin/settings/system/general';
const JOB = 'backups.daily';

/** The names of a .tar.gz's entries. */
async function entries(archive: Buffer): Promise<string[]> {
  const names: string[] = [];
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      names.push(header.name);
      stream.on('end', next);
      stream.resume();
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.end(zlib.gunzipSync(archive));
  await done;
  return names;
}

describe.each(dialects())('scheduled backups, on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const clock = { now: new Date('2026-03-10T08:00:00Z') };
  const others: FastifyInstance[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => clock.now } });
    admin = await t.login();
  });
  afterAll(async () => {
    for (const app of others) await app.close();
    await t?.close();
  });

  const list = async (session: Session = admin) => {
    const response = await t.app.inject({ method: 'GET', url: BACKUPS, headers: session.headers });
    expect(response.statusCode).toBe(200);
    return response.json().data as BackupList;
  };
  const settle = async (patch: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: GENERAL,
      headers: admin.headers,
      payload: patch,
    });
    return response;
  };
  /** The archives the backups' store holds on disk (32 hex digits each). */
  const stored = () =>
    fs
      .readdirSync(path.join(t.config.dataDir, 'backups'))
      .filter((name) => /^[a-f0-9]{32}$/.test(name))
      .sort();
  /** Runs the scheduler at `iso`, on this instance and `more`; the names of the jobs that ran. */
  const tickAt = async (iso: string, more: FastifyInstance[] = []) => {
    clock.now = new Date(iso);
    const ran = await Promise.all([t.app, ...more].map((app) => app.scheduler.tick()));
    return ran.flat();
  };

  it('takes the daily backup at the settings time, once across two instances, and serves its archive', async () => {
    const second = await buildApp(t.config, { clock: () => clock.now });
    others.push(second);
    // The first poll plans the first run: 02:00 on the office's clock (Cairo, UTC+2) is 00:00Z.
    await tickAt('2026-03-10T08:00:00Z', [second]);
    const before = await list();
    expect(before.items).toEqual([]);
    expect(before.schedule).toEqual({ time: '02:00', keep: 7, nextAt: '2026-03-11T00:00:00.000Z' });

    const ran = await tickAt('2026-03-11T00:00:30Z', [second]);
    expect(ran.filter((name) => name === JOB)).toHaveLength(1);
    const { items } = await list();
    expect(items).toHaveLength(1);
    const [backup] = items as [BackupItem];
    expect(backup).toMatchObject({ trigger: 'scheduled', state: 'done', createdBy: null, error: null });
    expect(backup.tables).toBeGreaterThan(20);
    expect(backup.rows).toBeGreaterThan(0);
    expect(stored()).toHaveLength(1);

    // Downloaded through the other instance: the store, not one instance's disk, holds it.
    const download = await second.inject({
      method: 'GET',
      url: `${BACKUPS}/${backup.id}/download`,
      headers: admin.headers,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="mizan-2026-03-11T00-00-30-000Z\.tar\.gz"$/,
    );
    expect(download.rawPayload.length).toBe(backup.size);
    const names = await entries(download.rawPayload);
    expect(names).toContain('manifest.json');
    expect(names.some((n) => n.startsWith('tables/'))).toBe(true);
    // Who took a copy of the whole office is in the audit trail.
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('entity', '=', 'backups')
      .execute();
    expect(audit.map((a) => [a.action, Number(a.entity_id)])).toEqual([['download', backup.id]]);
  });

  it('keeps the newest scheduled backups the settings say, and leaves backups taken by hand', async () => {
    expect((await settle({ backupKeep: 2, backupTime: '03:15' })).statusCode).toBe(200);
    const manual = await t.app.inject({ method: 'POST', url: BACKUPS, headers: admin.headers });
    expect(manual.statusCode).toBe(202);
    expect(manual.json().data).toMatchObject({ trigger: 'manual', state: 'running' });
    expect(manual.json().data.createdBy.id).toBe(admin.user.id);
    await t.app.backups.idle();

    // The changed time applies to the run still to come: 03:15 Cairo is 01:15Z.
    for (const day of ['12', '13', '14']) {
      const ran = await tickAt(`2026-03-${day}T01:15:00Z`);
      expect(ran).toContain(JOB);
    }
    const { items, schedule } = await list();
    expect(schedule).toMatchObject({ time: '03:15', keep: 2, nextAt: '2026-03-15T01:15:00.000Z' });
    expect(items.map((b) => [b.trigger, b.state, b.startedAt.slice(0, 10)])).toEqual([
      ['scheduled', 'done', '2026-03-14'],
      ['scheduled', 'done', '2026-03-13'],
      ['manual', 'done', '2026-03-11'],
    ]);
    expect(stored()).toHaveLength(3);

    // None are taken while the number to keep is 0; the list says so.
    expect((await settle({ backupKeep: 0 })).statusCode).toBe(200);
    expect(await tickAt('2026-03-15T01:15:00Z')).toContain(JOB);
    const off = await list();
    expect(off.items).toHaveLength(3);
    expect(off.schedule.nextAt).toBeNull();
    expect((await settle({ backupKeep: 7, backupTime: '02:00' })).statusCode).toBe(200);
  });

  it('refuses bad schedule settings with field messages and changes nothing', async () => {
    const response = await settle({ backupKeep: 91, backupTime: '25:00' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['backupKeep', 'backupTime']);
    expect((await list()).schedule).toMatchObject({ time: '02:00', keep: 7 });
  });

  it('lists and downloads by permission only, and takes one backup at a time', async () => {
    const nobody = await signInWith(t, [AREA_PERMISSIONS.dashboardView]);
    const reader = await signInWith(t, [AREA_PERMISSIONS.backupsView]);
    const [latest] = (await list()).items as [BackupItem];
    for (const [method, url] of [
      ['GET', BACKUPS],
      ['GET', `${BACKUPS}/${latest.id}/download`],
      ['POST', BACKUPS],
      ['DELETE', `${BACKUPS}/${latest.id}`],
    ] as const)
      expect((await t.app.inject({ method, url, headers: nobody.headers })).statusCode).toBe(403);
    expect((await list(reader)).items.length).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'POST', url: BACKUPS, headers: reader.headers })).statusCode).toBe(
      403,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `${BACKUPS}/999999/download`, headers: reader.headers }))
        .statusCode,
    ).toBe(404);

    const first = await t.app.inject({ method: 'POST', url: BACKUPS, headers: admin.headers });
    const second = await t.app.inject({ method: 'POST', url: BACKUPS, headers: admin.headers });
    expect([first.statusCode, second.statusCode]).toEqual([202, 409]);
    expect(second.json().message).toBe('نسخة احتياطية قيد الإنشاء الآن؛ انتظر حتى تكتمل');
    await t.app.backups.idle();

    const count = stored().length;
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `${BACKUPS}/${first.json().data.id}`,
      headers: admin.headers,
    });
    expect(gone.statusCode).toBe(200);
    expect(stored()).toHaveLength(count - 1);
  });

  it('keeps a failed backup listed with its reason and tells those who read backups', async () => {
    // A stored file the database lists but the storage lost: the snapshot cannot copy it.
    const [file] = await t.app.db
      .insertInto('files')
      .values({
        entity: 'customers',
        owner_id: 1,
        field: 'files',
        stored_name: 'f'.repeat(32),
        original_name: 'lost.pdf',
        mime_type: 'application/pdf',
        size: 10,
        created_at: clock.now.toISOString(),
      } as never)
      .returning('id')
      .execute();
    const count = stored().length;
    const taken = await t.app.backups.take('manual', null);
    expect(taken.state).toBe('failed');
    expect(taken.error).toMatch(/missing/);
    expect(stored()).toHaveLength(count);
    expect((await list()).items[0]).toMatchObject({ id: taken.id, state: 'failed' });
    const told = await t.app.db
      .selectFrom('notifications')
      .select(['employee_id', 'kind'])
      .where('key', '=', `backupFailed:${taken.id}`)
      .execute();
    expect(told.map((n) => Number(n.employee_id))).toContain(admin.user.id);
    await t.app.db.deleteFrom('files').where('id', '=', Number(file!.id)).execute();
  });
});
