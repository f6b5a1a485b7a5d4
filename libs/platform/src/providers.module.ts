import { Global, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  CIRCUIT_STATE,
  MODEL_ROUTES,
  PROVIDER_PORT,
  type CircuitStatePort,
  type ModelRoutesPort,
} from '@gen/contracts';
import { APP_CONFIG, LOGGER, type AppConfig, type Logger } from '@gen/core';
import { DEFAULT_ADAPTERS, ProviderRegistry, ProviderRouter, circuitMetrics } from '@gen/providers';
import { METRICS, type Metrics } from '@gen/observability';
import { parseAllowPrivateCidrs } from '@gen/ssrf';

/** Reports the router's breakers on scrape (`provider_circuit_state`); ends them (their timers) when the app stops. */
class ProviderRouterLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly router: ProviderRouter,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    circuitMetrics(this.metrics, this.router.breakers);
  }

  onApplicationShutdown(): void {
    this.router.close();
  }
}

/**
 * The provider port (PROVIDER_PORT) of an app that calls models (the runner; the compatibility layer): the
 * registry of every adapter, with credentials from the environment, behind the router's breakers, retries,
 * limits and fallbacks. Needs MODEL_ROUTES (CatalogModule) and CIRCUIT_STATE (PlatformModule).
 */
@Global()
@Module({
  providers: [
    {
      provide: ProviderRouter,
      inject: [MODEL_ROUTES, CIRCUIT_STATE, APP_CONFIG, LOGGER],
      useFactory: (routes: ModelRoutesPort, circuits: CircuitStatePort, config: AppConfig, logger: Logger) =>
        new ProviderRouter({
          routes,
          circuits,
          logger,
          registry: new ProviderRegistry(DEFAULT_ADAPTERS, {
            credential: (name) => process.env[name],
            allowPrivateCidrs: parseAllowPrivateCidrs(
              config.PROVIDER_ALLOW_PRIVATE_CIDRS,
              'PROVIDER_ALLOW_PRIVATE_CIDRS',
            ),
          }),
        }),
    },
    { provide: PROVIDER_PORT, useExisting: ProviderRouter },
    {
      provide: ProviderRouterLifecycle,
      inject: [ProviderRouter, METRICS],
      useFactory: (r: ProviderRouter, metrics: Metrics) => new ProviderRouterLifecycle(r, metrics),
    },
  ],
  exports: [PROVIDER_PORT],
})
export class ProvidersModule {}
