import {
  MONEY_SCALE,
  createSchema,
  listQuerySchema,
  updateSchema,
  type Entity,
  type FieldDefinition,
  type Fields,
} from '@mizan/contracts';
import { ERROR_BODY as errorBody, toOpenApi } from '../http/route';

// One zod-to-OpenAPI conversion for every route: `defineRoute`'s.
export { toOpenApi };
import { refDisplayName, refsDisplayName } from './serialize';

type JsonSchema = Record<string, unknown>;

const idName = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string', nullable: true } },
};
const storedFile = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    originalName: { type: 'string' },
    mimeType: { type: 'string' },
    size: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

function fieldJson(field: FieldDefinition): JsonSchema {
  switch (field.type) {
    case 'integer':
    case 'ref':
      return { type: 'integer', nullable: !field.required };
    case 'number':
      return { type: 'number', nullable: !field.required };
    case 'money':
      return {
        type: 'integer',
        description: `Minor units (1/${MONEY_SCALE} of the office currency)`,
        nullable: !field.required,
      };
    case 'duration':
      return { type: 'integer', description: 'Minutes', nullable: !field.required };
    case 'boolean':
      return { type: 'boolean', nullable: !field.required };
    case 'enum':
      return { type: 'string', enum: [...field.values], nullable: !field.required };
    case 'refs':
      return { type: 'array', items: { type: 'integer' } };
    case 'files':
      return { type: 'array', items: storedFile };
    case 'date':
      return { type: 'string', format: 'date', nullable: !field.required };
    case 'datetime':
      return { type: 'string', format: 'date-time', nullable: !field.required };
    default:
      return { type: 'string', nullable: !field.required };
  }
}

/** The row as the API returns it (documentation only: responses are not re-serialised by it). */
export function rowJsonSchema(entity: Entity<Fields>): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    id: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  };
  if (entity.status) properties.status = { type: 'boolean' };
  if (entity.baned) properties.baned = { type: 'boolean' };
  for (const [key, field] of Object.entries(entity.fields)) {
    if (field.writeOnly) continue;
    properties[key] = fieldJson(field);
    if (field.type === 'ref') properties[refDisplayName(key)] = { ...idName, nullable: true };
    if (field.type === 'refs') properties[refsDisplayName(key)] = { type: 'array', items: idName };
  }
  return { type: 'object', properties };
}

/** The documentation schemas of one definition's routes, by route. */
export type EntityRouteSchemas = ReturnType<typeof buildRouteSchemas>;

/** Each definition's route schemas, built once per definition (they depend on nothing else). */
const routeSchemas = new WeakMap<Entity<Fields>, ReturnType<typeof buildRouteSchemas>>();

/** Route schemas of one entity, derived from the same zod schemas the service validates with. */
export function entityRouteSchemas(entity: Entity<Fields>): ReturnType<typeof buildRouteSchemas> {
  let schemas = routeSchemas.get(entity);
  if (!schemas) routeSchemas.set(entity, (schemas = buildRouteSchemas(entity)));
  return schemas;
}

function buildRouteSchemas(entity: Entity<Fields>) {
  const row = rowJsonSchema(entity);
  const tags = [entity.name];
  const security = [{ bearerAuth: [] }];
  const one = { 200: { type: 'object', properties: { data: row } }, '4xx': errorBody };
  const idParams = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };
  const hasFiles = Object.values(entity.fields).some((f) => f.type === 'files');
  // The path parameters of `fileDeletePath`: `fileId`, and `ownerId` when the path names the owner.
  const fileParams = (entity.fileDeletePath?.match(/:[A-Za-z]+/g) ?? []).map((p) => p.slice(1));
  const bodyNote = hasFiles
    ? ' JSON, or multipart/form-data with file parts named after the files field.'
    : '';
  return {
    list: {
      tags,
      security,
      summary: `List ${entity.name}`,
      querystring: toOpenApi(listQuerySchema(entity)),
      response: {
        200: {
          type: 'object',
          properties: {
            data: {
              type: 'object',
              properties: {
                items: { type: 'array', items: row },
                total: { type: 'integer' },
                page: { type: 'integer' },
                pageSize: { type: 'integer' },
              },
            },
          },
        },
        '4xx': errorBody,
      },
    },
    get: { tags, security, summary: `Get one of ${entity.name}`, params: idParams, response: one },
    create: {
      tags,
      security,
      summary: `Create one of ${entity.name}.${bodyNote}`,
      body: toOpenApi(createSchema(entity)),
      response: one,
    },
    update: {
      tags,
      security,
      summary: `Update one of ${entity.name} (id in the body).${bodyNote}`,
      body: toOpenApi(updateSchema(entity)),
      response: one,
    },
    remove: {
      tags,
      security,
      summary: `Delete one of ${entity.name}; with \`updatedAt\` (the version read), 409 when it changed since`,
      params: idParams,
      querystring: { type: 'object', properties: { updatedAt: { type: 'string', format: 'date-time' } } },
      response: one,
    },
    status: {
      tags,
      security,
      summary: `Toggle the status of one of ${entity.name}, or set it with { status }`,
      params: idParams,
      body: { type: 'object', nullable: true, properties: { status: { type: 'boolean' } } },
      response: one,
    },
    baned: {
      tags,
      security,
      summary: `Toggle the ban of one of ${entity.name}, or set it with { baned }`,
      params: idParams,
      body: { type: 'object', nullable: true, properties: { baned: { type: 'boolean' } } },
      response: one,
    },
    fileDelete: {
      tags,
      security,
      summary: `Delete one file attached to one of ${entity.name}; answers the row without it${
        fileParams.includes('ownerId') ? '' : ' (the row the file belongs to)'
      }`,
      params: {
        type: 'object',
        properties: Object.fromEntries(fileParams.map((p) => [p, { type: 'integer' }])),
        required: fileParams,
      },
      response: one,
    },
  };
}
