import { SYSTEM_IMAGE_KINDS, SYSTEM_IMAGE_ROUTES, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../../engine/context';
import { AppError } from '../../http/errors';
import { requestLanguage, translate } from '../../http/messages';
import { defineRoute } from '../../http/route';
import { parseInput } from '../../http/validation';
import { readParts, partBuffer } from '../../files/multipart';
import { imageType } from '../../files/sniff';
import { svgProblem } from '../../files/svg';
import { IMAGE_RULES, type ImageKind } from './images';
import { primaryColorSchema } from '../../settings/model';
import type { AppearanceChange, ImageUpload, SettingsService } from './service';
import { z } from 'zod';

const KB = (bytes: number) => Math.round(bytes / 1024);
const isImageKind = (name: string): name is ImageKind =>
  (SYSTEM_IMAGE_KINDS as readonly string[]).includes(name);
const truthy = (value: string | undefined) => value === '1' || value === 'true';

/**
 * Reads the appearance form: `logo` and `favicon` image parts (size 413, content type 415 and SVG
 * safety checked as they arrive), `primaryColor` (#rrggbb), and `removeLogo` / `removeFavicon`
 * flags. The first problem is answered after the whole body is read, so the client receives it
 * rather than a reset connection.
 */
async function readAppearance(request: FastifyRequest): Promise<AppearanceChange> {
  const lang = requestLanguage(request);
  const fields: Record<string, string> = {};
  const images: ImageUpload[] = [];
  let failure: AppError | null = null;
  await readParts(request, async (part) => {
    if (part.type !== 'file') {
      fields[part.fieldname] = String(part.value);
      return;
    }
    const kind = part.fieldname;
    if (failure || !part.filename) return void part.file.resume();
    if (!isImageKind(kind)) {
      part.file.resume();
      failure = new AppError('validation', {
        errors: { [kind]: [{ key: 'http.unknownFilePart', params: { field: kind } }] },
      });
      return;
    }
    const rule = IMAGE_RULES[kind];
    const { buffer, tooLarge } = await partBuffer(part, rule.maxSize);
    const label = translate(lang, `system.fields.${kind}`);
    if (tooLarge) {
      failure = new AppError('payloadTooLarge', {
        messageKey: 'system.imageTooLarge',
        params: { label, max: KB(rule.maxSize) },
      });
      return;
    }
    const type = imageType(buffer);
    if (!type || !rule.accept.includes(type)) {
      const values = rule.accept
        .map((t) => t.replace('image/', '').replace('+xml', '').replace('x-icon', 'ico'))
        .join(', ');
      failure = new AppError('unsupportedMediaType', {
        messageKey: 'system.imageType',
        params: { label, values },
      });
      return;
    }
    if (type === 'image/svg+xml' && svgProblem(buffer) !== null) {
      failure = new AppError('unsupportedMediaType', { messageKey: 'system.svgUnsafe' });
      return;
    }
    images.push({ kind, buffer, filename: part.filename, mimeType: type });
  });
  if (failure) throw failure;
  const form = parseInput(
    z.object({ primaryColor: primaryColorSchema.optional() }).strip(),
    { primaryColor: fields.primaryColor === '' ? undefined : fields.primaryColor },
    lang,
    'system.fields',
  );
  const remove = (['logo', 'favicon'] as const).filter(
    (kind) =>
      truthy(fields[kind === 'logo' ? 'removeLogo' : 'removeFavicon']) &&
      !images.some((i) => i.kind === kind),
  );
  return { primaryColor: form.primaryColor, images, remove };
}

/** `/api/admin/settings/system/general` (GET, PUT, DELETE /:id), its appearance form, and the public images. */
export function settingsRoutes(app: FastifyInstance, service: SettingsService): void {
  const common = { tags: ['system'], labels: 'system.fields' };

  defineRoute(app, SYSTEM_SETTINGS_ROUTES.get, {
    ...common,
    handler: async () => ({ data: await service.get() }),
  });

  defineRoute(app, SYSTEM_SETTINGS_ROUTES.update, {
    ...common,
    handler: async (request, { body }) => ({ data: await service.updateGeneral(actorOf(request), body) }),
  });

  defineRoute(app, SYSTEM_SETTINGS_ROUTES.reset, {
    ...common,
    handler: async (request, { params }) => {
      // There is one settings row, id 1.
      if (params.id !== 1) throw new AppError('notFound', { messageKey: 'system.settingsNotFound' });
      return { data: await service.reset(actorOf(request)) };
    },
  });

  defineRoute(app, SYSTEM_SETTINGS_ROUTES.appearance, {
    ...common,
    handler: async (request) => ({
      data: await service.updateAppearance(actorOf(request), await readAppearance(request)),
    }),
  });

  // The login page shows the logo before anyone signs in: these two are public.
  for (const kind of SYSTEM_IMAGE_KINDS) {
    defineRoute(app, SYSTEM_IMAGE_ROUTES[kind], {
      tags: ['system'],
      handler: async (request, _input, reply) => {
        const image = await service.image(kind);
        const found = image && (await app.fileStore.stat(image.storedName));
        if (!image || !found) {
          return reply
            .status(404)
            .send({ message: translate(requestLanguage(request), 'http.notFound'), code: 'notFound' });
        }
        // The URL carries the file id (`?v=`), so a long cache never shows a replaced image.
        void reply
          .header('content-type', image.mimeType)
          .header('content-length', found.size)
          .header('cache-control', 'public, max-age=86400')
          .header('x-content-type-options', 'nosniff')
          // An SVG opened directly must not run anything in this origin.
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
        return reply.send(await app.fileStore.read(image.storedName, found));
      },
    });
  }
}
