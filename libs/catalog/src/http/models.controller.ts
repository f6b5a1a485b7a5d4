import { Controller, Get, Header, Optional, Query, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  QueryBoolean,
  QueryPipe,
  RateLimited,
  type SerializedJson,
  installDirectRoutes,
  queryFlag,
} from '@gen/edge';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { MODALITIES } from '../domain/model';
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
  @Header('cache-control', 'public, max-age=60')
  @RateLimited({ policy: PUBLIC_CATALOG_POLICY, bucketOf: (request) => `catalog-ip:${request.ip}` })
  publicCatalog(@Query(new QueryPipe(ModelListQuery)) query: ModelListQuery) {
    return this.listModels.execute(filtersOf(query));
  }

  /** GET /v1/models: the OpenAI list shape, no prices; `?modality=` filters. */
  @Get('v1/models')
  openAi(@Query(new QueryPipe(OpenAiModelsQuery)) query: Static<typeof OpenAiModelsQuery>) {
    return this.listOpenAiModels.execute(query.modality);
  }
}
