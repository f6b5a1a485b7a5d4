import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { LogController, type FastifyInstance } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IdPrefix } from '@gen/contracts';
import {
  SHUTDOWN_DRAIN,
  describeConfig,
  drainSchedule,
  newId,
  type AppConfig,
  type Logger,
  type ShutdownDrain,
} from '@gen/core';
import {
  CachedApiKeyAuthenticator,
  EnvelopeExceptionFilter,
  MemoryRateLimitStore,
  envelopeClientErrors,
  envelopeFrameworkErrors,
  RATE_LIMIT_STORE,
  installEdge,
  type RateLimitStore,
} from '@gen/edge';
import type { DynamicModule, Type } from '@nestjs/common';
import { EdgeCredentials, recordRoutes, requireVerifiersFor } from './edge-credentials';
import { Lifecycle } from './lifecycle';
import { PublicBaseUrl } from './object-storage.providers';
import { routeLimitsOf } from './route-limits';
import { LocalObjectStorage, OBJECT_STORAGE, installLocalObjectRoutes } from '@gen/storage';
import { parseAllowPrivateCidrs } from '@gen/ssrf';
import { NestPinoLogger } from './nest-logger';
import { EVENT_BUS, InProcessEventBus } from '@gen/messaging';
import {
  METRICS,
  Metrics,
  installHttpTracing,
  installMetricsRoute,
  portOf,
  serveMetrics,
  stopTracing,
} from '@gen/observability';

function optional<T>(
  app: NestFastifyApplication,
  token: symbol | (abstract new (...args: never[]) => T),
): T | undefined {
  try {
    return app.get<T>(token, { strict: false });
  } catch {
    return undefined;
  }
}

/** Builds a Nest application on Fastify with the edge pipeline installed, initialised but not yet listening. */
export async function createHttpApp(
  rootModule: Type<unknown> | DynamicModule,
  config: AppConfig,
  logger: Logger,
): Promise<NestFastifyApplication> {
  const genReqId = (): string => newId(IdPrefix.request);
  const proxies = parseAllowPrivateCidrs(config.TRUSTED_PROXIES, 'TRUSTED_PROXIES');
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // `request.ip`: the peer, or behind a listed proxy the address it forwarded (X-Forwarded-For, right to left
    // through the listed proxies). Anyone else's X-Forwarded-For is ignored: it would choose its rate limit bucket.
    trustProxy: proxies.cidrs.length > 0 ? (address: string) => proxies.allows(address) : false,
    genReqId,
    // Every request-scoped log line carries `request_id`; the edge writes one access line per request.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    forceCloseConnections: 'idle',
    // Refusals before a request reaches the exception filter (router, HTTP parser) still get the envelope.
    frameworkErrors: envelopeFrameworkErrors(config.BODY_LIMIT_BYTES),
    clientErrorHandler: envelopeClientErrors({ bodyLimit: config.BODY_LIMIT_BYTES, genReqId }),
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    // Only Fastify's own JSON parser: no form bodies, no Nest body parsers.
    bodyParser: false,
  });
  app.useGlobalFilters(new EnvelopeExceptionFilter(config.BODY_LIMIT_BYTES));
  const lifecycle = app.get(Lifecycle);
  const routes = recordRoutes(app.getHttpAdapter().getInstance());
  // An app composed without the PlatformModule (a bench) still measures its requests.
  const metrics = optional<Metrics>(app, METRICS) ?? new Metrics();
  // An app without an accounts module has null verifiers: it mounts no authenticated route (checked below).
  const credentials = app.get(EdgeCredentials).verifiers();
  // A server span per request when tracing is on; first, so that requests the edge refuses have theirs.
  installHttpTracing(app.getHttpAdapter().getInstance(), (request) => request.edge?.family);
  installEdge(app.getHttpAdapter().getInstance(), {
    apiKeys:
      credentials.apiKeys && new CachedApiKeyAuthenticator(credentials.apiKeys, config.KEY_CACHE_TTL_MS),
    consoleSessions: credentials.consoleSessions,
    adminTokens: credentials.adminTokens,
    rateLimits: optional<RateLimitStore>(app, RATE_LIMIT_STORE) ?? new MemoryRateLimitStore(),
    perKeyPolicy: { burst: config.RATE_LIMIT_BURST, refillPerMinute: config.RATE_LIMIT_PER_MINUTE },
    routeLimits: routeLimitsOf(config),
    logger,
    isDraining: () => lifecycle.isDraining(),
    requests: metrics.requests,
  });
  const fastify = app.getHttpAdapter().getInstance();
  serveMetricsOf(fastify, metrics, config, logger);
  // Embedded mode serves its own signed object URLs; S3 serves them in distributed mode.
  const storage = optional<unknown>(app, OBJECT_STORAGE);
  if (storage instanceof LocalObjectStorage) installLocalObjectRoutes(fastify, storage);
  const publicBaseUrl = optional<PublicBaseUrl>(app, PublicBaseUrl);
  fastify.addHook('onListen', (done) => {
    publicBaseUrl?.listening(baseUrlOf(app, config));
    done();
  });
  await app.init();
  requireVerifiersFor(routes, credentials);
  // Every module has subscribed: the in-process bus may deliver now (work left in an outbox by a crash
  // included). Kafka needs no such gate: it keeps events for groups that subscribe later.
  const bus = optional<unknown>(app, EVENT_BUS);
  if (bus instanceof InProcessEventBus) bus.open();
  logger.info({ config: describeConfig(config) }, 'configuration loaded');
  return app;
}

/**
 * `GET /metrics` on the app's port, or alone on METRICS_PORT (opened when the app listens, closed with it): see
 * docs/operations.md for why a fleet behind an ingress sets it.
 */
function serveMetricsOf(fastify: FastifyInstance, metrics: Metrics, config: AppConfig, logger: Logger): void {
  const port = config.METRICS_PORT;
  if (port === undefined) {
    installMetricsRoute(fastify, metrics);
    return;
  }
  let server: Server | undefined;
  fastify.addHook('onListen', async () => {
    server = await serveMetrics(metrics, config.HOST, port);
    logger.info({ port: portOf(server), path: '/metrics' }, 'metrics listening');
  });
  fastify.addHook('onClose', async () => {
    if (server) await new Promise((resolve) => server?.close(resolve));
  });
}

/** The base URL clients use: PUBLIC_BASE_URL, or the address actually bound. */
export function baseUrlOf(app: NestFastifyApplication, config: AppConfig): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/$/, '');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** A signal this soon after the first is the same stop request arriving twice (terminal and npm). */
const REPEATED_SIGNAL_MS = 1000;

/**
 * SIGTERM and SIGINT drain: new requests get 503 at once; the work registered with SHUTDOWN_DRAIN (the open
 * text answers: they run on, and are reported, while the bus, the consumers and the database still work; those
 * still running near the end of the grace are cut and reported as they are) finishes; in-flight requests
 * finish; then modules shut down (database last). A second signal (a second or more after the first), or the
 * grace period running out, ends the process.
 */
export function drainOnSignals(app: NestFastifyApplication, config: AppConfig, logger: Logger): void {
  let stoppingSince: number | undefined;
  const stop = (signal: string): void => {
    if (stoppingSince !== undefined) {
      // Ctrl-C reaches this process twice: from the terminal and forwarded by npm. Only a later signal forces.
      if (Date.now() - stoppingSince < REPEATED_SIGNAL_MS) return;
      logger.warn({ signal }, 'second signal: exiting without draining');
      process.exit(1);
    }
    stoppingSince = Date.now();
    logger.info({ signal }, 'draining');
    app.get(Lifecycle).startDraining();
    const timer = setTimeout(() => {
      logger.error(
        { graceMs: config.SHUTDOWN_GRACE_MS },
        'grace period over, exiting with requests in flight',
      );
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    timer.unref();
    const { cutAt, endAt } = drainSchedule(stoppingSince, config.SHUTDOWN_GRACE_MS);
    const drains = optional<ShutdownDrain>(app, SHUTDOWN_DRAIN);
    (drains ? drains.drain(cutAt, endAt) : Promise.resolve())
      .then(() => app.close())
      // The spans of the last requests and of the shutdown itself go out before the process ends.
      .then(() => stopTracing())
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
