import { Inject, Injectable, Optional, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, type Logger } from '@gen/core';
import {
  CACHE,
  CACHE_KEY_PREFIX,
  MemoryCache,
  MemoryRateLimitStore,
  RATE_LIMIT_KEY_PREFIX,
  RATE_LIMIT_STORE,
  RedisCache,
  RedisRateLimitStore,
  type Cache,
} from '@gen/edge';
import { CIRCUIT_STATE, type CircuitStatePort } from '@gen/contracts';
import { EVENT_BUS, InProcessEventBus, KafkaEventBus, type EventBus } from '@gen/messaging';
import { MemoryCircuitState, RedisCircuitState } from '@gen/providers';
import Redis from 'ioredis';

/** The process's one Redis connection in distributed mode; null in embedded mode. */
export const REDIS_CLIENT = Symbol('RedisClient');

const distributed = (config: AppConfig): boolean => config.MODE === 'distributed';

/** Closes what the infrastructure providers opened, after the app stopped taking work. */
@Injectable()
class InfrastructureShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
    @Optional() @Inject(CIRCUIT_STATE) private readonly circuits: CircuitStatePort | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.circuits instanceof RedisCircuitState) this.circuits.stop();
    await this.bus.close();
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}

/**
 * The adapters behind the infrastructure ports, chosen by MODE: in memory and in-process in embedded mode;
 * Kafka and Redis in distributed mode. Connections open lazily: an app that never publishes never connects
 * to Kafka (start-up still checks the dependencies the app declares; see waitForDependencies).
 */
export function infrastructureProviders(appName: string, logger: Logger): Provider[] {
  return [
    {
      provide: REDIS_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        distributed(config) && config.REDIS_URL
          ? new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 3 })
          : null,
    },
    {
      provide: EVENT_BUS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): EventBus =>
        distributed(config) && config.KAFKA_BROKERS
          ? new KafkaEventBus({
              brokers: config.KAFKA_BROKERS.split(','),
              clientId: appName,
              logger,
              prefix: config.KAFKA_TOPIC_PREFIX,
            })
          : // Held until the app has started: see createHttpApp.
            new InProcessEventBus({ held: true }),
    },
    {
      provide: RATE_LIMIT_STORE,
      inject: [REDIS_CLIENT, APP_CONFIG],
      useFactory: (redis: Redis | null, config: AppConfig) =>
        redis
          ? new RedisRateLimitStore(redis, `${config.REDIS_KEY_PREFIX}${RATE_LIMIT_KEY_PREFIX}`)
          : new MemoryRateLimitStore(),
    },
    {
      provide: CACHE,
      inject: [REDIS_CLIENT, APP_CONFIG],
      useFactory: (redis: Redis | null, config: AppConfig): Cache =>
        redis ? new RedisCache(redis, `${config.REDIS_KEY_PREFIX}${CACHE_KEY_PREFIX}`) : new MemoryCache(),
    },
    {
      // Which upstream circuits are open: shared through Redis by the fleet (the runners' breakers write it,
      // the gateway's model list reads it), in memory in embedded mode.
      provide: CIRCUIT_STATE,
      inject: [REDIS_CLIENT, APP_CONFIG],
      useFactory: (redis: Redis | null, config: AppConfig): CircuitStatePort =>
        // Redis is read from the first question on (see RedisCircuitState.isOpen).
        redis ? new RedisCircuitState(redis, config.REDIS_KEY_PREFIX, { logger }) : new MemoryCircuitState(),
    },
    InfrastructureShutdown,
  ];
}

export const INFRASTRUCTURE_EXPORTS = [
  REDIS_CLIENT,
  EVENT_BUS,
  RATE_LIMIT_STORE,
  CACHE,
  CIRCUIT_STATE,
] as const;
