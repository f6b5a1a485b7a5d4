import {
  Controller,
  Get,
  Header,
  Inject,
  Optional,
  Query,
  Req,
  Res,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  MemoryRateLimitStore,
  QueryBoolean,
  QueryPipe,
  RATE_LIMIT_STORE,
  SerializedJson,
  applyRateDecision,
  installDirectRoutes,
  queryFlag,
  type RateLimitStore,
} from '@gen/edge';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CatalogService } from '../catalog.service';
import { MODALITIES } from '../domain/model';

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

/**
 * Serialised answers kept for a second: the catalog is fixed at start, but `available` follows credentials
 * and circuit breakers, so an answer is never older than that. Serialising the list with every input schema
 * costs more than everything else a request does.
 */
class AnswerCache {
  private readonly entries = new Map<string, { body: SerializedJson; expiresMs: number }>();

  constructor(
    private readonly ttlMs = 1000,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, build: () => unknown): SerializedJson {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresMs > now) return hit.body;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const body = new SerializedJson(JSON.stringify(build()));
    this.entries.set(key, { body, expiresMs: now + this.ttlMs });
    return body;
  }
}

const keyOf = (...parts: unknown[]) => JSON.stringify(parts);

/** Cache-Control of the native model reads: priced for the caller, so private. */
const PRIVATE_CACHE = { 'cache-control': 'private, max-age=60' } as const;

/**
 * The public catalog and `/v1/models`, as Nest routes; the native list and record (priced for the caller),
 * the hottest of them, as direct Fastify routes (`DirectRoute`), installed when the module starts.
 */
@Controller()
export class ModelsController implements OnModuleInit {
  private readonly publicLimits: RateLimitStore;
  private readonly answers = new AnswerCache();
  private readonly listQuery = new QueryPipe(ModelListQuery);
  private readonly noQuery = new QueryPipe(NoQuery);

  constructor(
    private readonly catalog: CatalogService,
    @Optional() @Inject(RATE_LIMIT_STORE) rateLimits?: RateLimitStore,
    @Optional() private readonly http?: HttpAdapterHost,
  ) {
    this.publicLimits = rateLimits ?? new MemoryRateLimitStore();
  }

  onModuleInit(): void {
    installDirectRoutes(this.http, [
      { method: 'GET', url: '/api/v1/models', headers: PRIVATE_CACHE, handler: (r) => this.list(r) },
      { method: 'GET', url: '/api/v1/models/*', headers: PRIVATE_CACHE, handler: (r) => this.one(r) },
    ]);
  }

  /** GET /api/v1/models: enabled models with the calling account's prices. */
  list(request: FastifyRequest): SerializedJson {
    const query = this.listQuery.transform(request.query);
    const multiplier = request.edge!.principal!.priceMultiplier;
    const filters = filtersOf(query);
    return this.answers.get(keyOf('list', filters, multiplier), () => ({
      items: this.catalog.list(filters, { multiplier }),
    }));
  }

  /** GET /api/v1/models/{model}: the id may hold slashes, raw or encoded as %2F. */
  one(request: FastifyRequest): SerializedJson {
    this.noQuery.transform(request.query);
    // Fastify's wildcard: the rest of the path, slashes included, percent-decoded (so %2F is a slash).
    const id = (request.params as Record<string, string>)['*'] ?? '';
    const multiplier = request.edge!.principal!.priceMultiplier;
    // Unknown ids throw here, before anything is kept.
    const model = this.catalog.resolve(id);
    return this.answers.get(`one|${model.id}|${multiplier}`, () =>
      this.catalog.get(model.id, { multiplier }),
    );
  }

  /** GET /console/v1/catalog/models: no key, standard prices, a request limit per source address. */
  @Get('console/v1/catalog/models')
  @Header('cache-control', 'public, max-age=60')
  async publicCatalog(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query(new QueryPipe(ModelListQuery)) query: ModelListQuery,
  ) {
    const decision = await this.publicLimits.take(
      `catalog-ip:${request.ip}`,
      PUBLIC_CATALOG_POLICY,
      Date.now(),
    );
    applyRateDecision(decision, reply);
    const filters = filtersOf(query);
    return this.answers.get(keyOf('public', filters), () => ({ items: this.catalog.list(filters) }));
  }

  /** GET /v1/models: the OpenAI list shape, no prices; `?modality=` filters. */
  @Get('v1/models')
  openAi(@Query(new QueryPipe(OpenAiModelsQuery)) query: Static<typeof OpenAiModelsQuery>) {
    return this.answers.get(keyOf('openai', query.modality), () =>
      this.catalog.openAiList({ modality: query.modality }),
    );
  }
}
