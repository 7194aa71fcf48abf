import { genderOf, SYSTEM_SETTINGS_CHANNEL } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../../audit/audit';
import { inTransaction, type ActorContext, type WriteContext } from '../../engine/context';
import { AppError } from '../../http/errors';
import type { ImageKind } from './images';
import { defaultSettings, toPublic, type GeneralSettings, type SystemSettings } from '../../settings/model';
import { generalOf, readSettings, readSettingsToChange, writeSettings } from '../../settings/repository';

/** An image accepted by the appearance form, still in memory. */
export interface ImageUpload {
  kind: ImageKind;
  buffer: Buffer;
  filename: string;
  mimeType: string;
}

export interface AppearanceChange {
  primaryColor?: string;
  images: ImageUpload[];
  remove: ImageKind[];
}

/** The base name without control characters, at most 255 characters. */
function cleanName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  return [...base]
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 255);
}

const FILE_COLUMN: Record<ImageKind, 'logoFileId' | 'faviconFileId'> = {
  logo: 'logoFileId',
  favicon: 'faviconFileId',
};

/**
 * Reads and writes the one settings row. Every change runs in one transaction with its audit
 * entry; once committed, the public part is published on `systemSettings` so every open page
 * (and the login page, after its next load) applies it.
 */
export class SettingsService {
  constructor(private readonly app: FastifyInstance) {}

  get(): Promise<SystemSettings> {
    return readSettings(this.app.db);
  }

  /**
   * Saves the fields given. With `updatedAt` (the version the form read; null before the first
   * save), a version that is no longer the stored one is refused with 409 `stale`, the current
   * settings and who saved them, and nothing is written.
   */
  updateGeneral(
    actor: ActorContext,
    input: Partial<GeneralSettings> & { updatedAt?: string | null },
  ): Promise<SystemSettings> {
    const { updatedAt: version, ...values } = input;
    return this.change(actor, 'update', async (ctx, before) => {
      const stored = before.updatedAt;
      const stale =
        version !== undefined &&
        (version === null || stored === null
          ? version !== stored
          : Date.parse(version) !== Date.parse(stored));
      if (stale) throw await this.stale(ctx, before);
      return { ...before, ...values };
    });
  }

  /** The 409 of a stale save: the current settings, who saved them and when. */
  private async stale(ctx: WriteContext, current: SystemSettings): Promise<AppError> {
    const by =
      current.updatedBy === null
        ? undefined
        : await ctx.trx
            .selectFrom('employees')
            .select(['id', 'name', 'gender'])
            .where('id', '=', current.updatedBy)
            .executeTakeFirst();
    return new AppError('stale', {
      messageKey: 'http.stale',
      extra: {
        current,
        changedBy: by ? { id: Number(by.id), name: String(by.name), gender: genderOf(by.gender) } : null,
        changedAt: current.updatedAt,
      },
    });
  }

  /** Back to the defaults, images included (their files are removed after commit). */
  reset(actor: ActorContext): Promise<SystemSettings> {
    return this.change(actor, 'reset', async (ctx, before) => {
      for (const kind of ['logo', 'favicon'] as const) await this.detach(ctx, before[FILE_COLUMN[kind]]);
      return defaultSettings();
    });
  }

  updateAppearance(actor: ActorContext, change: AppearanceChange): Promise<SystemSettings> {
    return this.change(actor, 'appearance', async (ctx, before) => {
      const next = { ...before };
      if (change.primaryColor) next.primaryColor = change.primaryColor;
      for (const kind of change.remove) {
        await this.detach(ctx, before[FILE_COLUMN[kind]]);
        next[FILE_COLUMN[kind]] = null;
      }
      for (const image of change.images) {
        await this.detach(ctx, before[FILE_COLUMN[image.kind]]);
        next[FILE_COLUMN[image.kind]] = await this.store(ctx, image);
      }
      return next;
    });
  }

  /** The stored file behind the logo or favicon, or null. */
  async image(kind: ImageKind): Promise<{ storedName: string; mimeType: string; size: number } | null> {
    const settings = await this.get();
    const id = settings[FILE_COLUMN[kind]];
    if (id === null) return null;
    const row = await this.app.db
      .selectFrom('files')
      .select(['stored_name', 'mime_type', 'size'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return {
      storedName: String(row.stored_name),
      mimeType: String(row.mime_type),
      size: Number(row.size),
    };
  }

  private async change(
    actor: ActorContext,
    action: string,
    fn: (ctx: WriteContext, before: SystemSettings) => Promise<SystemSettings>,
  ): Promise<SystemSettings> {
    const { db, bus, fileStore } = this.app;
    return inTransaction({ db, bus, files: fileStore }, actor, async (ctx) => {
      const before = await readSettingsToChange(ctx.trx);
      const next = await fn(ctx, before);
      // A save that changes nothing is not a change: no write, no audit entry, no event.
      if (action !== 'reset' && JSON.stringify(generalOf(next)) === JSON.stringify(generalOf(before)))
        return before;
      const after = await writeSettings(ctx.trx, next, ctx.user?.id ?? null);
      await writeAudit(ctx.trx, {
        employeeId: ctx.user?.id ?? null,
        entity: 'systemSettings',
        entityId: after.id,
        action,
        before: generalOf(before),
        after: generalOf(after),
        ip: ctx.ip ?? null,
      });
      ctx.work.events.push({
        channel: SYSTEM_SETTINGS_CHANNEL,
        message: { type: 'event', channel: SYSTEM_SETTINGS_CHANNEL, action: 'update', data: toPublic(after) },
      });
      return after;
    });
  }

  /** Writes an image under a random name and records it; the disk file goes if the transaction fails. */
  private async store(ctx: WriteContext, image: ImageUpload): Promise<number> {
    const storedName = await this.app.fileStore.writeNew(image.buffer);
    ctx.work.newFiles.push(storedName);
    const row = await ctx.trx
      .insertInto('files')
      .values({
        entity: 'systemSettings',
        owner_id: 1,
        field: image.kind,
        stored_name: storedName,
        original_name: cleanName(image.filename) || image.kind,
        mime_type: image.mimeType,
        size: image.buffer.length,
        created_by: ctx.user?.id ?? null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** Removes a file row; its disk file is removed once the transaction commits. */
  private async detach(ctx: WriteContext, fileId: number | null): Promise<void> {
    if (fileId === null) return;
    const row = await ctx.trx
      .selectFrom('files')
      .select('stored_name')
      .where('id', '=', fileId)
      .executeTakeFirst();
    if (!row) return;
    // The settings row points at the file: clear the pointer before the row goes.
    await ctx.trx
      .updateTable('system_settings')
      .set({ logo_file_id: null })
      .where('logo_file_id', '=', fileId)
      .execute();
    await ctx.trx
      .updateTable('system_settings')
      .set({ favicon_file_id: null })
      .where('favicon_file_id', '=', fileId)
      .execute();
    await ctx.trx.deleteFrom('files').where('id', '=', fileId).execute();
    ctx.work.staleFiles.push(String(row.stored_name));
  }
}
