import type { FastifyInstance, FastifyPluginAsync, FastifyRequest, FastifySchema } from 'fastify';
import {
  actionPath,
  patchSchema,
  permissionKey,
  versionSchema,
  type Entity,
  type Fields,
  type FilesField,
} from '@mizan/contracts';
import { z } from 'zod';
import { requirePermission } from '../auth/guard';
import { readMultipart } from '../files/multipart';
import { AppError } from '../http/errors';
import { pathId } from '../http/params';
import { pluginNamed } from '../http/pluginName';
import { lazySchema } from '../http/route';
import { parseOrThrow } from '../http/validation';
import { actorOf } from './context';
import { coerceFormFields } from './form';
import { entityRouteSchemas, toOpenApi, type EntityRouteSchemas } from './openapi';
import type { EntityService } from './service';

export interface EntityPluginOptions {
  service: EntityService;
}

/**
 * The version a delete was asked at: `?updatedAt=` (or `updatedAt` in a JSON body), the row's
 * `updatedAt` as the client read it; undefined deletes whatever version is stored.
 */
function deleteVersion(query: unknown, body: unknown, entityName: string): string | undefined {
  const given = query ?? (body as { updatedAt?: unknown } | undefined)?.updatedAt;
  if (given === undefined) return undefined;
  return parseOrThrow(z.object({ updatedAt: versionSchema }), { updatedAt: given }, entityName).updatedAt;
}

/**
 * JSON, or multipart when the entity has a files field (plain fields coerced by type, files
 * written to disk with size and type checked). Any other body type is 415.
 */
async function readBody(
  app: FastifyInstance,
  request: FastifyRequest,
  entity: Entity<Fields>,
  withId: boolean,
) {
  const filesFields = Object.entries(entity.fields).filter(
    (e): e is [string, FilesField] => e[1].type === 'files',
  );
  if (!request.isMultipart()) return { input: request.body, uploads: [] };
  if (!filesFields.length) throw new AppError('unsupportedMediaType');
  const { fields, uploads } = await readMultipart(request, app.fileStore, {
    files: Object.fromEntries(filesFields),
  });
  return { input: coerceFormFields(entity, fields, withId), uploads };
}

/**
 * The routes of one definition, registered with `{ prefix: '/api' + entity.path }`. Handlers only
 * translate HTTP to service calls; every route checks `<entity>.<action>`.
 */
export const entityPlugin: FastifyPluginAsync<EntityPluginOptions> = pluginNamed(
  'entity',
  async (app, { service }) => {
    const entity = service.entity;
    const can = (action: Parameters<typeof permissionKey>[1]) =>
      requirePermission(permissionKey(entity, action));
    // Each route's documentation, built when the OpenAPI document is first asked for.
    const doc = (pick: (schemas: EntityRouteSchemas) => FastifySchema) =>
      lazySchema(() => pick(entityRouteSchemas(entity)) as FastifySchema & Record<string, unknown>);

    // `/api/x` only (the app ignores a trailing slash), so the docs list each path once.
    // Validation is the service's (zod, translated field messages); route schemas only document.
    app.setValidatorCompiler(() => (data) => ({ value: data }));
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));

    app.get(
      '/',
      { onRequest: can('view'), schema: doc((s) => s.list), prefixTrailingSlash: 'no-slash' },
      async (request, reply) =>
        reply.type('application/json; charset=utf-8').send(
          await service.listJson(request.query, actorOf(request), (page) =>
            // The route's serializer (its response schema) makes text.
            String(reply.serialize({ data: page })),
          ),
        ),
    );

    app.get<{ Params: { id: string } }>(
      '/:id',
      { onRequest: can('view'), schema: doc((s) => s.get) },
      async (request) => ({
        data: await service.get(pathId(request.params.id), actorOf(request)),
      }),
    );

    app.post(
      '/',
      { onRequest: can('create'), schema: doc((s) => s.create), prefixTrailingSlash: 'no-slash' },
      async (request, reply) => {
        const { input, uploads } = await readBody(app, request, entity, false);
        const row = await service.create(actorOf(request), input, uploads);
        return reply.status(201).send({ data: row });
      },
    );

    app.put(
      '/',
      { onRequest: can('update'), schema: doc((s) => s.update), prefixTrailingSlash: 'no-slash' },
      async (request) => {
        const { input, uploads } = await readBody(app, request, entity, true);
        return { data: await service.update(actorOf(request), input, uploads) };
      },
    );

    app.patch<{ Params: { id: string } }>(
      '/:id',
      {
        onRequest: can('update'),
        schema: doc((s) => ({
          ...s.get,
          summary: `Change some fields of one of ${entity.name} (the others keep their values)`,
          body: toOpenApi(patchSchema(entity)),
        })),
      },
      async (request) => {
        const { input, uploads } = await readBody(app, request, entity, false);
        return { data: await service.patch(actorOf(request), pathId(request.params.id), input, uploads) };
      },
    );

    for (const [action, definition] of Object.entries(entity.actions ?? {})) {
      const path = actionPath(action, definition);
      if (!path.includes(':id'))
        throw new Error(`${entity.name}: the path of the action "${action}" must hold ":id"`);
      app.route<{ Params: { id: string } }>({
        method: definition.method ?? 'PATCH',
        url: path,
        onRequest: can(action),
        schema: doc((s) => ({
          ...s.get,
          summary: `${action} one of ${entity.name} (permission ${permissionKey(entity, action)})`,
          body: toOpenApi(
            (definition.body instanceof z.ZodObject ? definition.body : z.object({})).extend({
              updatedAt: versionSchema,
            }),
          ),
        })),
        handler: async (request) => ({
          data: await service.runAction(actorOf(request), action, pathId(request.params.id), request.body),
        }),
      });
    }

    app.delete<{ Params: { id: string }; Querystring: { updatedAt?: unknown } }>(
      '/:id',
      { onRequest: can('delete'), schema: doc((s) => s.remove) },
      async (request) => ({
        data: await service.remove(
          actorOf(request),
          pathId(request.params.id),
          deleteVersion(request.query.updatedAt, request.body, entity.name),
        ),
      }),
    );

    if (entity.status) {
      app.patch<{ Params: { id: string } }>(
        '/status/:id',
        { onRequest: can('status'), schema: doc((s) => s.status) },
        async (request) => ({
          data: await service.setStatus(actorOf(request), pathId(request.params.id), request.body),
        }),
      );
    }

    if (entity.baned) {
      app.patch<{ Params: { id: string } }>(
        '/baned/:id',
        { onRequest: can('baned'), schema: doc((s) => s.baned) },
        async (request) => ({
          data: await service.setBaned(actorOf(request), pathId(request.params.id), request.body),
        }),
      );
    }

    if (entity.fileDeletePath) {
      // `/delete/file/:ownerId/:fileId` names the owner; `/files/:fileId` leaves it to the file row.
      const withOwner = /:ownerId\b/.test(entity.fileDeletePath);
      app.delete<{ Params: { ownerId?: string; fileId: string } }>(
        entity.fileDeletePath,
        { onRequest: can('update'), schema: doc((s) => s.fileDelete) },
        async (request) => ({
          data: await service.removeFile(
            actorOf(request),
            withOwner ? pathId(request.params.ownerId) : null,
            pathId(request.params.fileId),
          ),
        }),
      );
    }
  },
);
