import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  AREA_PERMISSIONS,
  BACKUP_ROUTES,
  type BackupItem,
  type BackupList,
  type BackupState,
  type BackupTrigger,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { writeAudit } from '../audit/audit';
import { EMPLOYEE_ROLES, ROLE_PERMISSIONS } from '../auth/joins';
import type { Migration } from '../db/migrations';
import { idColumn, instantType } from '../db/migrations/entityTables';
import { createBackupStore } from '../files/store';
import type { FileStore } from '../files/storage';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { notify } from '../notifications/send';
import { dailyAt } from '../scheduler/schedule';
import { readSettings } from '../system';
import { createBackup } from './backup';

/** The list of backups (group `backups` in app.ts). Append only. */
export const backupsMigrations: Migration[] = [
  {
    name: 'backups_001_list',
    async up(db, dialect) {
      await idColumn(db.schema.createTable('backups'), dialect)
        .addColumn('trigger', 'varchar(10)', (c) => c.notNull())
        .addColumn('state', 'varchar(10)', (c) => c.notNull())
        // The archive's name in the backups' store: set before it is written, so a sweep keeps it.
        .addColumn('stored_name', 'varchar(32)')
        .addColumn('started_at', instantType(dialect), (c) => c.notNull())
        .addColumn('finished_at', instantType(dialect))
        .addColumn('created_by', 'integer', (c) => c.references('employees.id').onDelete('set null'))
        .addColumn('size', 'bigint')
        .addColumn('tables_count', 'integer')
        .addColumn('rows_count', 'bigint')
        .addColumn('files_count', 'integer')
        .addColumn('error', 'text')
        .execute();
    },
  },
];

interface BackupRow {
  id: number;
  trigger: string;
  state: string;
  stored_name: string | null;
  started_at: string | Date;
  finished_at: string | Date | null;
  created_by: number | null;
  creator_name: string | null;
  size: number | string | null;
  tables_count: number | null;
  rows_count: number | string | null;
  files_count: number | null;
  error: string | null;
}

/** The job's name in `scheduled_jobs`: never rename it. */
const JOB = 'backups.daily';
/** A backup still "running" after this long was cut short (its instance died): marked failed. */
const STALE_MS = 6 * 60 * 60 * 1000;

const instant = (value: string | Date | null) =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();
const count = (value: number | string | null) => (value === null ? null : Number(value));

function toItem(row: BackupRow): BackupItem {
  return {
    id: Number(row.id),
    trigger: row.trigger as BackupTrigger,
    state: row.state as BackupState,
    startedAt: instant(row.started_at)!,
    finishedAt: instant(row.finished_at),
    createdBy: row.created_by === null ? null : { id: Number(row.created_by), name: row.creator_name ?? '' },
    size: count(row.size),
    tables: count(row.tables_count),
    rows: count(row.rows_count),
    files: count(row.files_count),
    error: row.error,
  };
}

/**
 * The office's backups, taken every day at the time of the system settings (once across
 * instances, through the scheduler) and whenever someone with `backups.create` asks. Each archive
 * (`createBackup`: every table from one snapshot and every file) goes to the backups' store, on
 * disk or in the bucket, so that any instance lists and serves it; the `backups` table says what
 * there is. After a scheduled backup the oldest scheduled ones beyond the number to keep go;
 * backups taken by hand stay until someone deletes them. A failed backup stays listed with its
 * reason, and those who may read the backups are notified.
 */
export class Backups {
  readonly store: FileStore;
  /** The backup this instance is taking, if any (a second request waits for none: 409). */
  private running: Promise<BackupItem> | null = null;

  constructor(private readonly app: FastifyInstance) {
    this.store = createBackupStore(app.config);
  }

  private query() {
    return this.app.db
      .selectFrom('backups as b')
      .leftJoin('employees as e', 'e.id', 'b.created_by')
      .select([
        'b.id',
        'b.trigger',
        'b.state',
        'b.stored_name',
        'b.started_at',
        'b.finished_at',
        'b.created_by',
        'e.name as creator_name',
        'b.size',
        'b.tables_count',
        'b.rows_count',
        'b.files_count',
        'b.error',
      ]);
  }

  async list(): Promise<BackupItem[]> {
    const rows = (await this.query().orderBy('b.id', 'desc').execute()) as BackupRow[];
    return rows.map(toItem);
  }

  async get(id: number): Promise<BackupRow | null> {
    return ((await this.query().where('b.id', '=', id).executeTakeFirst()) as BackupRow | undefined) ?? null;
  }

  /** When the daily backup runs next, as the scheduler has it (null: none planned yet, or turned off). */
  async nextAt(keep: number): Promise<string | null> {
    if (keep === 0) return null;
    const row = await this.app.db
      .selectFrom('scheduled_jobs')
      .select('next_run_at')
      .where('name', '=', JOB)
      .executeTakeFirst();
    return row ? instant(row.next_run_at as string | Date) : null;
  }

  /**
   * Takes one backup now and waits for it. Refused with 409 while another is being taken, on any
   * instance: two snapshots at once would only double the load.
   */
  async take(trigger: BackupTrigger, employeeId: number | null): Promise<BackupItem> {
    const started = await this.start(trigger, employeeId);
    return this.finish(started);
  }

  /** Records a running backup and answers it; `finish` takes it. */
  async start(
    trigger: BackupTrigger,
    employeeId: number | null,
  ): Promise<{ id: number; storedName: string }> {
    await this.forgetInterrupted();
    const storedName = crypto.randomBytes(16).toString('hex');
    const id = await this.app.db.transaction().execute(async (trx) => {
      const busy = await trx
        .selectFrom('backups')
        .select('id')
        .where('state', '=', 'running')
        .executeTakeFirst();
      if (busy) throw new AppError('conflict', { messageKey: 'system.backupRunning' });
      const row = await trx
        .insertInto('backups')
        .values({
          trigger,
          state: 'running',
          stored_name: storedName,
          started_at: this.app.clock().toISOString(),
          created_by: employeeId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    });
    return { id, storedName };
  }

  /** Takes the backup `start` recorded: the archive into the store, then its row says done (or failed). */
  async finish({ id, storedName }: { id: number; storedName: string }): Promise<BackupItem> {
    const run = this.write(id, storedName);
    this.running = run;
    try {
      return await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }

  /** Waits for the backup this instance is taking (tests, and a server closing). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async write(id: number, storedName: string): Promise<BackupItem> {
    const { app } = this;
    // Beside DATA_DIR's files, so the snapshot links them instead of copying.
    const work = path.join(app.config.dataDir, 'backups');
    const target = path.join(work, `.backup-${id}-${storedName}.tar.gz`);
    try {
      const manifest = await createBackup({ db: app.db, dialect: app.dialect, files: app.fileStore }, target);
      const { size } = await fs.promises.stat(target);
      await this.store.put(storedName, fs.createReadStream(target), size);
      await app.db
        .updateTable('backups')
        .set({
          state: 'done',
          finished_at: app.clock().toISOString(),
          size,
          tables_count: manifest.tables.length,
          rows_count: manifest.tables.reduce((sum, t) => sum + t.rows, 0),
          files_count: manifest.files.length,
        })
        .where('id', '=', id)
        .execute();
      app.log.info({ backupId: id, size }, 'backup taken');
    } catch (error) {
      app.log.error({ err: error, backupId: id }, 'backup failed');
      await this.store.remove(storedName);
      await app.db
        .updateTable('backups')
        .set({
          state: 'failed',
          stored_name: null,
          finished_at: app.clock().toISOString(),
          error: error instanceof Error ? error.message.slice(0, 2000) : String(error),
        })
        .where('id', '=', id)
        .execute();
      await this.notifyFailure(id).catch((e: unknown) =>
        app.log.error({ err: e }, 'backup failure not notified'),
      );
    } finally {
      await fs.promises.rm(target, { force: true });
    }
    return toItem((await this.get(id))!);
  }

  /** Tells everyone who may read the backups that one failed. */
  private async notifyFailure(id: number): Promise<void> {
    const readers = await sql<{ id: number }>`
      select distinct e.id from employees e
      join ${sql.table(EMPLOYEE_ROLES.table)} er on er.${sql.ref(EMPLOYEE_ROLES.owner)} = e.id
      join roles r on r.id = er.${sql.ref(EMPLOYEE_ROLES.ref)}
      join ${sql.table(ROLE_PERMISSIONS.table)} rp on rp.${sql.ref(ROLE_PERMISSIONS.owner)} = r.id
      join permissions p on p.id = rp.${sql.ref(ROLE_PERMISSIONS.ref)}
      where p.key = ${AREA_PERMISSIONS.backupsView} and e.status = ${sql.lit(true)} and e.baned = ${sql.lit(false)}
        and r.status = ${sql.lit(true)}`.execute(this.app.db);
    await notify(
      this.app,
      this.app.db,
      readers.rows.map((r) => ({
        employeeId: Number(r.id),
        kind: 'backupFailed' as const,
        params: { number: id },
        link: BACKUP_ROUTES.list.path,
        key: `backupFailed:${id}`,
      })),
    );
  }

  /** Backups left "running" by an instance that died mid-way: failed, their partial archive removed. */
  private async forgetInterrupted(): Promise<void> {
    const before = new Date(this.app.clock().getTime() - STALE_MS).toISOString();
    const stale = await this.app.db
      .selectFrom('backups')
      .select(['id', 'stored_name'])
      .where('state', '=', 'running')
      .where('started_at', '<', before)
      .execute();
    for (const row of stale) {
      if (row.stored_name) await this.store.remove(String(row.stored_name));
      await this.app.db
        .updateTable('backups')
        .set({ state: 'failed', stored_name: null, error: 'interrupted' })
        .where('id', '=', row.id)
        .execute();
    }
  }

  /** Scheduled backups beyond the newest `keep`, removed with their archives. */
  async prune(keep: number): Promise<number> {
    const old = await this.app.db
      .selectFrom('backups')
      .select(['id', 'stored_name'])
      .where('trigger', '=', 'scheduled')
      .where('state', '=', 'done')
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1_000_000)
      .execute();
    for (const row of old) await this.remove(Number(row.id), row.stored_name);
    return old.length;
  }

  /** Removes a backup's row, then its archive (an archive no row names goes at the store's sweep). */
  async remove(id: number, storedName: string | null): Promise<void> {
    await this.app.db.deleteFrom('backups').where('id', '=', id).execute();
    if (storedName) await this.store.remove(storedName);
  }

  /** Archives in the store that no row names (a process killed between the two steps), removed. */
  async sweep(): Promise<void> {
    await this.store.sweep(async (names) => {
      const rows = await this.app.db
        .selectFrom('backups')
        .select('stored_name')
        .where('stored_name', 'in', names)
        .execute();
      return new Set(rows.map((r) => String(r.stored_name)));
    }, STALE_MS);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    backups: Backups;
  }
}

const NAME_TIME = /[:.]/g;

export const backupsPlugin: FastifyPluginAsync = async (app) => {
  const backups = new Backups(app);
  app.decorate('backups', backups);
  app.addHook('onClose', async () => {
    await backups.idle();
    backups.store.close();
  });

  app.scheduler.define({
    name: JOB,
    schedule: dailyAt(async () => (await readSettings(app.db)).backupTime),
    run: async () => {
      const { backupKeep } = await readSettings(app.db);
      if (backupKeep === 0) return;
      const taken = await backups.take('scheduled', null);
      if (taken.state === 'done') await backups.prune(backupKeep);
      await backups.sweep();
    },
  });

  const common = { tags: ['system'], labels: 'system.fields' } as const;

  defineRoute(app, BACKUP_ROUTES.list, {
    ...common,
    handler: async () => {
      const settings = await readSettings(app.db);
      const data: BackupList = {
        items: await backups.list(),
        schedule: {
          time: settings.backupTime,
          keep: settings.backupKeep,
          nextAt: await backups.nextAt(settings.backupKeep),
        },
      };
      return { data };
    },
  });

  defineRoute(app, BACKUP_ROUTES.create, {
    ...common,
    handler: async (request, _input, reply) => {
      const started = await backups.start('manual', request.user.id);
      await writeAudit(app.db, {
        employeeId: request.user.id,
        entity: 'backups',
        entityId: started.id,
        action: 'create',
        ip: request.ip,
      });
      // Off the request: a large office's backup takes minutes; the screen follows the list.
      void backups.finish(started).catch((error: unknown) => app.log.error({ err: error }, 'backup failed'));
      void reply.code(202);
      return { data: toItem((await backups.get(started.id))!) };
    },
  });

  defineRoute(app, BACKUP_ROUTES.download, {
    ...common,
    handler: async (request, { params: { id } }, reply) => {
      const row = await backups.get(id);
      const found =
        row?.state === 'done' && row.stored_name ? await backups.store.stat(row.stored_name) : null;
      if (!row || !found) throw new AppError('notFound', { messageKey: 'system.backupNotFound' });
      // Every record of the office leaves with it: who took a copy, and when, is kept.
      await writeAudit(app.db, {
        employeeId: request.user.id,
        entity: 'backups',
        entityId: id,
        action: 'download',
        ip: request.ip,
      });
      const name = `mizan-${instant(row.started_at)!.replace(NAME_TIME, '-')}.tar.gz`;
      void reply
        .header('content-type', 'application/gzip')
        .header('content-length', found.size)
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('x-content-type-options', 'nosniff');
      return reply.send(await backups.store.read(row.stored_name!, found));
    },
  });

  defineRoute(app, BACKUP_ROUTES.remove, {
    ...common,
    handler: async (request, { params: { id } }) => {
      const row = await backups.get(id);
      if (!row) throw new AppError('notFound', { messageKey: 'system.backupNotFound' });
      if (row.state === 'running') throw new AppError('conflict', { messageKey: 'system.backupRunning' });
      await backups.remove(id, row.stored_name);
      await writeAudit(app.db, {
        employeeId: request.user.id,
        entity: 'backups',
        entityId: id,
        action: 'delete',
        before: toItem(row),
        ip: request.ip,
      });
      return { data: { id } };
    },
  });
};
// `app.backups` belongs to the app, not an encapsulated child context.
(backupsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
