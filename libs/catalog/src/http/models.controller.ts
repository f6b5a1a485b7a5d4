import { Controller, Get, Header, Optional, Query, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  ApiOperation,
  QueryBoolean,
  envelopeResponse,
  errorResponses,
  QueryPipe,
  RateLimited,
  type SerializedJson,
  installDirectRoutes,
  queryFlag,
} from '@gen/edge';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { MODALITIES } from '../domain/model';
import { ModelRecord, OpenAiModelList } from './model.dto';
import { GetModelUseCase } from '../use-cases/get-model.use-case';
import { ListModelsUseCase } from '../use-cases/list-models.use-case';
import { ListOpenAiModelsUseCase } from '../use-cases/list-open-ai-models.use-case';

const Modality = Type.Union(
  MODALITIES.map((m) => Type.Literal(m)),
  { description: 'image, video, audio or text.' },
);

export const ModelListQuery = Type.Object(
  {
    modality: Type.Optional(Modality),
    provider: Type.Optional(Type.String({ maxLength: 128, description: 'Exact creator id, e.g. `local`.' })),
    task: Type.Optional(Type.String({ maxLength: 128, description: 'Exact task, e.g. `text-to-image`.' })),
    search: Type.Optional(Type.String({ description: 'Case-insensitive text, at most 128 characters.' })),
    includeSchema: Type.Optional(QueryBoolean),
    includeExamples: Type.Optional(QueryBoolean),
  },
  { additionalProperties: false },
);
type ModelListQuery = Static<typeof ModelListQuery>;

export const OpenAiModelsQuery = Type.Object(
  { modality: Type.Optional(Modality) },
  { additionalProperties: false },
);
export const NoQuery = Type.Object({}, { additionalProperties: false });

/** Requests per minute (and burst) of the public catalog, per source address. */
export const PUBLIC_CATALOG_POLICY = { burst: 30, refillPerMinute: 60 } as const;

/** The answer of the model lists. */
export const ModelList = Type.Object({ items: Type.Array(ModelRecord) });

/** The query rules of the model lists (native and public). */
export const LIST_RULES =
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

const filtersOf = (query: ModelListQuery) => ({
  modality: query.modality,
  provider: query.provider,
  task: query.task,
  search: query.search,
  includeSchema: queryFlag(query.includeSchema),
  includeExamples: queryFlag(query.includeExamples),
});

/** Cache-Control of the native model reads: priced for the caller, so private. */
const PRIVATE_CACHE = { 'cache-control': 'private, max-age=60' } as const;

/**
 * The public catalog and `/v1/models`, as Nest routes; the native list and record (priced for the caller),
 * the hottest of them, as direct Fastify routes (`DirectRoute`), installed when the module starts.
 */
@Controller()
export class ModelsController implements OnModuleInit {
  private readonly listQuery = new QueryPipe(ModelListQuery);
  private readonly noQuery = new QueryPipe(NoQuery);

  constructor(
    private readonly listModels: ListModelsUseCase,
    private readonly getModel: GetModelUseCase,
    private readonly listOpenAiModels: ListOpenAiModelsUseCase,
    @Optional() private readonly http?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    installDirectRoutes(this.http, [
      { method: 'GET', url: '/api/v1/models', headers: PRIVATE_CACHE, handler: (r) => this.list(r) },
      { method: 'GET', url: '/api/v1/models/*', headers: PRIVATE_CACHE, handler: (r) => this.one(r) },
    ]);
  }

  /** GET /api/v1/models: enabled models with the calling account's prices. */
  list(request: FastifyRequest): SerializedJson {
    const query = this.listQuery.transform(request.query);
    return this.listModels.execute(filtersOf(query), request.edge!.principal!.priceMultiplier);
  }

  /** GET /api/v1/models/{model}: the id may hold slashes, raw or encoded as %2F. */
  one(request: FastifyRequest): SerializedJson {
    this.noQuery.transform(request.query);
    // Fastify's wildcard: the rest of the path, slashes included, percent-decoded (so %2F is a slash).
    const id = (request.params as Record<string, string>)['*'] ?? '';
    return this.getModel.execute(id, request.edge!.principal!.priceMultiplier);
  }

  /** GET /console/v1/catalog/models: no key, standard prices, a request limit per source address. */
  @Get('console/v1/catalog/models')
  @ApiOperation({
    tags: ['models'],
    summary: 'The public evaluation catalog: no key, standard prices.',
    description:
      `The response shape is our choice (the specification does not show it): the same model records as ` +
      `\`/api/v1/models\`, at standard prices. ${LIST_RULES} Limited per source address: a bucket of ` +
      `${PUBLIC_CATALOG_POLICY.burst} requests refilling ${PUBLIC_CATALOG_POLICY.refillPerMinute} a minute; ` +
      'above it 429 with `Retry-After`. `Cache-Control: public, max-age=60`.',
    security: [],
    responses: {
      ...envelopeResponse('The model records.', ModelList, { rateLimited: true }),
      ...errorResponses([400, 429, 500]),
    },
  })
  @Header('cache-control', 'public, max-age=60')
  @RateLimited({ policy: PUBLIC_CATALOG_POLICY, bucketOf: (request) => `catalog-ip:${request.ip}` })
  publicCatalog(@Query(new QueryPipe(ModelListQuery)) query: ModelListQuery) {
    return this.listModels.execute(filtersOf(query));
  }

  /** GET /v1/models: the OpenAI list shape, no prices; `?modality=` filters. */
  @Get('v1/models')
  @ApiOperation({
    tags: ['compatibility'],
    summary: 'OpenAI-style model list: every model id accepted by /v1 and /api/v1, no prices.',
    description:
      'Items carry `modality` and `task`; chat models also `context_length`, `max_output_tokens` and ' +
      '`supported_parameters`. `?modality=` filters. The key may also come as `x-api-key` or `x-gen-api-key`.',
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
  })
  openAi(@Query(new QueryPipe(OpenAiModelsQuery)) query: Static<typeof OpenAiModelsQuery>) {
    return this.listOpenAiModels.execute(query.modality);
  }
}
