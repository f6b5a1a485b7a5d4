export { installEdge, SerializedJson, type EdgeRouteLimits, type RequestObserver } from './install-edge';
export { isForwarded, markForwarded } from './forwarded-request';
export { installDirectRoutes } from './direct-routes';
export { routeFamily, type RouteFamily } from './route-family';
export { cookieValue, isSecureRequest, requestBaseUrl } from './request-origin';
export { renderError } from './error-responder';
export { EnvelopeExceptionFilter } from './envelope-exception.filter';
export { envelopeClientErrors, envelopeFrameworkErrors } from './client-errors';
export { refuseIllFormedInput } from './well-formed-request';
export { SchemaPipe } from './schema.pipe';
export { NoQuery, QueryPipe, QueryBoolean, queryFlag } from './query.pipe';
export { CachedApiKeyAuthenticator } from './cached-authenticator';
export {
  HealthController,
  OPENAPI_DOCUMENT,
  READINESS_PROBE,
  type ReadinessProbe,
} from './health.controller';
export {
  CONSOLE_SECURITY,
  buildOpenApiDocument,
  envelopeResponse,
  errorResponses,
  systemOpenApi,
  type OpenApiFragment,
  type OpenApiOptions,
} from './openapi';
export { ApiOperation, openApiOf, type ApiOperationDoc } from './openapi-routes';
export {
  MemoryRateLimitStore,
  RATE_LIMIT_STORE,
  type RateDecision,
  type RateLimitStore,
  type TokenBucketPolicy,
} from './rate-limit';
export { RATE_LIMIT_KEY_PREFIX, RedisRateLimitStore } from './redis-rate-limit.store';
export { RateLimited } from './rate-limit.interceptor';
export {
  CONCURRENCY_KEY_PREFIX,
  CONCURRENCY_SLOTS,
  MemoryConcurrencySlots,
  RedisConcurrencySlots,
  type ConcurrencySlots,
  type SlotLease,
} from './concurrency-slots';
export { AnswerCache } from './answer-cache';
export * from './event-stream';
