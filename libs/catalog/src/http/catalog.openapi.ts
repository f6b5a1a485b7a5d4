import { envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import { Type } from '@sinclair/typebox';
import { ModelRecord, OpenAiModelList } from './model.dto';
import { ModelListQuery, OpenAiModelsQuery, PUBLIC_CATALOG_POLICY } from './models.controller';

const ModelList = Type.Object({ items: Type.Array(ModelRecord) });

/** Query parameters of an operation, from the TypeBox schema its QueryPipe checks. */
const queryParameters = (schema: { properties: Record<string, unknown> }) =>
  Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema: property,
  }));

const LIST_RULES =
  'Unknown, repeated or empty query parameters give 400. `includeSchema` and `includeExamples` take true, ' +
  'false, 1 or 0. `search` matches id, name, description and aliases, case-insensitively, at most 128 characters.';

const OpenAiError = Type.Object({
  error: Type.Object({
    message: Type.String(),
    type: Type.String(),
    param: Type.Union([Type.String(), Type.Null()]),
    code: Type.Union([Type.String(), Type.Null()]),
  }),
});

export const catalogOpenApi: OpenApiFragment = {
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
    '/console/v1/catalog/models': {
      get: {
        tags: ['models'],
        summary: 'The public evaluation catalog: no key, standard prices.',
        description:
          `The response shape is our choice (the specification does not show it): the same model records as ` +
          `\`/api/v1/models\`, at standard prices. ${LIST_RULES} Limited per source address: a bucket of ` +
          `${PUBLIC_CATALOG_POLICY.burst} requests refilling ${PUBLIC_CATALOG_POLICY.refillPerMinute} a minute; ` +
          'above it 429 with `Retry-After`. `Cache-Control: public, max-age=60`.',
        security: [],
        parameters: queryParameters(ModelListQuery),
        responses: {
          ...envelopeResponse('The model records.', ModelList, { rateLimited: true }),
          ...errorResponses([400, 429, 500]),
        },
      },
    },
    '/v1/models': {
      get: {
        tags: ['compatibility'],
        summary: 'OpenAI-style model list: every model id accepted by /v1 and /api/v1, no prices.',
        description:
          'Items carry `modality` and `task`; chat models also `context_length`, `max_output_tokens` and ' +
          '`supported_parameters`. `?modality=` filters. The key may also come as `x-api-key` or `x-gen-api-key`.',
        parameters: queryParameters(OpenAiModelsQuery),
        responses: {
          '200': {
            description: 'The list, in the OpenAI shape (no envelope).',
            content: { 'application/json': { schema: OpenAiModelList } },
          },
          ...Object.fromEntries(
            [400, 401, 429, 500].map((status) => [
              String(status),
              {
                description: 'An error in the OpenAI shape.',
                content: { 'application/json': { schema: OpenAiError } },
              },
            ]),
          ),
        },
      },
    },
  },
};
