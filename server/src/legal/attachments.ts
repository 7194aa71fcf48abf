import { ATTACHMENT_GROUP_SEEDS, attachmentGroups, attachments, sessions } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { HookContext } from '../engine/hooks';
import { readRow, selectFields } from '../engine/rows';
import { seedListOnce } from '../engine/seeding';
import type { EntityServices } from '../engine/service';
import { AppError } from '../http/errors';

/**
 * A hearing named by an attachment must be one of the attachment's lawsuit (422 on `sessionId`
 * otherwise). A hearing that does not exist is left to the engine's reference check.
 */
async function checkSession(ctx: HookContext, lawsuitId: unknown, sessionId: unknown): Promise<void> {
  if (typeof sessionId !== 'number') return;
  const hearing = await selectFields(ctx.trx, sessions, ['lawsuitId'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (!hearing || readRow(sessions, hearing).lawsuitId === lawsuitId) return;
  throw new AppError('validation', {
    entity: attachments.name,
    errors: { sessionId: [{ key: 'legal.attachments.sessionOfAnotherLawsuit' }] },
  });
}

/**
 * A lawsuit's attachments beyond the generic pattern (call once per app, from the legal plugin):
 * the hearing rule. Files (several per row, type and size checked, stored under DATA_DIR, removed
 * after commit when a file or the row is deleted) are the engine's, from the definition.
 */
export function installAttachmentHooks(entities: EntityServices): void {
  entities.hooks(attachments.name, {
    async beforeCreate(ctx, values) {
      await checkSession(ctx, values.lawsuitId, values.sessionId);
    },
    async beforeUpdate(ctx, values, before) {
      if ('sessionId' in values) await checkSession(ctx, before.lawsuitId, values.sessionId);
    },
  });
}

/**
 * Files the default attachment groups (`ATTACHMENT_GROUP_SEEDS`) into a list nobody has written
 * to yet (`seedListOnce`). Run at start.
 */
export async function seedAttachmentGroups(app: FastifyInstance): Promise<void> {
  await seedListOnce(
    app,
    attachmentGroups.name,
    ATTACHMENT_GROUP_SEEDS.map(({ name, nameEn, order }) => ({ name, nameEn, order })),
  );
}
