import { envelopeResponse, errorResponses, openApiOf, type OpenApiFragment } from '@gen/edge';
import { ModelRecord } from './model.dto';
import { LIST_RULES, ModelList, ModelListQuery, ModelsController } from './models.controller';

/** Query parameters of a direct route, from the TypeBox schema its QueryPipe checks. */
const queryParameters = (schema: { properties: Record<string, unknown> }) =>
  Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema: property,
  }));

/**
 * The model routes' part of the document: the Nest routes generated from ModelsController; the native list and
 * record are direct Fastify routes (`installDirectRoutes`, outside Nest's router, so without route metadata to
 * read), described here by hand, their query parameters still from the schema their handler's QueryPipe checks.
 */
export const catalogOpenApi: OpenApiFragment = openApiOf([ModelsController], {
  paths: {
    '/api/v1/models': {
      get: {
        tags: ['models'],
        summary: 'Enabled models with the calling account’s prices (group multiplier applied).',
        description:
          `${LIST_RULES} No pagination. Prices are exact decimal strings in \`pricing\` (our field names: the ` +
          'specification does not show them); `inputSchema` and `examples` only on request. ' +
          '`Cache-Control: private, max-age=60`.',
        parameters: queryParameters(ModelListQuery),
        responses: {
          ...envelopeResponse('The model records.', ModelList, { rateLimited: true }),
          ...errorResponses([400, 401, 403, 429, 500]),
        },
      },
    },
    '/api/v1/models/{model}': {
      parameters: [
        {
          name: 'model',
          in: 'path',
          required: true,
          description: 'The exact id; it may contain slashes, raw or encoded as %2F.',
          schema: { type: 'string' },
        },
      ],
      get: {
        tags: ['models'],
        summary: 'One model with its input JSON Schema, examples and the calling account’s prices.',
        description: 'No query parameters. `Cache-Control: private, max-age=60`.',
        responses: {
          ...envelopeResponse('The complete model record.', ModelRecord, { rateLimited: true }),
          ...errorResponses([400, 401, 403, 404, 429, 500]),
        },
      },
    },
  },
});
