import { Global, Module, type DynamicModule, type Type } from '@nestjs/common';
import {
  APP_CONFIG,
  CLOCK,
  LOGGER,
  SHUTDOWN_DRAIN,
  ShutdownDrain,
  systemClock,
  type AppConfig,
  type Logger,
} from '@gen/core';
import {
  HealthController,
  OPENAPI_DOCUMENT,
  READINESS_PROBE,
  buildOpenApiDocument,
  systemOpenApi,
  type OpenApiFragment,
} from '@gen/edge';
import { DATABASE, openDatabase, pgliteDirIn } from '@gen/persistence';
import { EdgeCredentials } from './edge-credentials';
import { INFRASTRUCTURE_EXPORTS, infrastructureProviders } from './infrastructure';
import { Lifecycle } from './lifecycle';
import { routeLimitsOf } from './route-limits';
import { PublicBaseUrl, objectStorageProviders } from './object-storage.providers';
import { OBJECT_STORAGE } from '@gen/storage';
import { METRICS, Metrics } from '@gen/observability';

export interface PlatformOptions {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** OpenAPI fragments of the libraries this app composes. */
  readonly openApi: readonly OpenApiFragment[];
  /** The app's name: Kafka client id, logs. */
  readonly appName?: string;
}

/** Process-wide providers every app needs: configuration, logger, clock, the database, health and the OpenAPI document. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: PlatformModule,
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: LOGGER, useValue: options.logger },
        { provide: CLOCK, useValue: systemClock },
        // What SIGTERM finishes before the modules close (the open text answers): see drainOnSignals.
        { provide: SHUTDOWN_DRAIN, useValue: new ShutdownDrain() },
        {
          provide: DATABASE,
          useFactory: () =>
            openDatabase({
              databaseUrl: options.config.DATABASE_URL,
              pgliteDir: pgliteDirIn(options.config.DATA_DIR),
            }),
        },
        Lifecycle,
        EdgeCredentials,
        // The app's registry: what every lib's gauges and the edge's request histogram report to (/metrics).
        { provide: METRICS, useFactory: () => new Metrics() },
        { provide: READINESS_PROBE, useExisting: Lifecycle },
        {
          provide: OPENAPI_DOCUMENT,
          useValue: buildOpenApiDocument([systemOpenApi, ...options.openApi], {
            routeLimits: routeLimitsOf(options.config),
          }),
        },
        ...infrastructureProviders(options.appName ?? 'generation-task-service', options.logger),
        ...objectStorageProviders(),
      ],
      exports: [
        APP_CONFIG,
        LOGGER,
        CLOCK,
        SHUTDOWN_DRAIN,
        DATABASE,
        Lifecycle,
        EdgeCredentials,
        OPENAPI_DOCUMENT,
        METRICS,
        ...INFRASTRUCTURE_EXPORTS,
        OBJECT_STORAGE,
        PublicBaseUrl,
      ],
    };
  }
}

@Module({})
class SharedPortsModule {}

/**
 * Composes domain modules so that the ports each exports (FUNDS_PORT, ACCOUNT_DIRECTORY, the credential
 * verifiers) reach the others without one domain library importing another.
 */
export function composeDomains(...modules: (Type<unknown> | DynamicModule)[]): DynamicModule {
  return { module: SharedPortsModule, global: true, imports: modules, exports: modules };
}
