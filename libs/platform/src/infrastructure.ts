import {
  Inject,
  Injectable,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig, type Logger } from '@gen/core';
import {
  CONCURRENCY_KEY_PREFIX,
  CONCURRENCY_SLOTS,
  MemoryConcurrencySlots,
  MemoryRateLimitStore,
  RATE_LIMIT_KEY_PREFIX,
  RATE_LIMIT_STORE,
  RedisConcurrencySlots,
  RedisRateLimitStore,
  type ConcurrencySlots,
} from '@gen/edge';
import { CIRCUIT_STATE, type CircuitStatePort } from '@gen/contracts';
import { EVENT_BUS, InProcessEventBus, KafkaEventBus, type EventBus } from '@gen/messaging';
import { MemoryCircuitState, RedisCircuitState } from '@gen/providers';
import { METRICS, cached, type Metrics } from '@gen/observability';
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

/** How long one reading of the consumer lag serves scrapes (it costs the broker two requests per topic). */
export const KAFKA_LAG_CACHE_MS = 2000;

/**
 * `kafka_consumer_lag{topic,group}` on scrape, in an app whose bus is Kafka: per topic this process consumes,
 * how many messages its group has not committed yet (see KafkaEventBus.consumerLag). An app that consumes
 * nothing reports nothing.
 */
@Injectable()
class KafkaLagMetrics implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics | null,
  ) {}

  onApplicationBootstrap(): void {
    const bus = this.bus;
    if (!(bus instanceof KafkaEventBus) || !this.metrics) return;
    const read = cached(KAFKA_LAG_CACHE_MS, () => bus.consumerLag());
    this.metrics
      .gauge(
        'kafka_consumer_lag',
        'Messages of a topic not yet committed by the consumer group of this process that reads it (Kafka names).',
        ['topic', 'group'],
      )
      .source(async () =>
        (await read()).map(({ topic, group, lag }) => ({ labels: { topic, group }, value: lag })),
      );
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
      // Per-key bounds of work in progress (the imports of an API key): shared by the fleet through Redis.
      provide: CONCURRENCY_SLOTS,
      inject: [REDIS_CLIENT, APP_CONFIG],
      useFactory: (redis: Redis | null, config: AppConfig): ConcurrencySlots =>
        redis
          ? new RedisConcurrencySlots(redis, `${config.REDIS_KEY_PREFIX}${CONCURRENCY_KEY_PREFIX}`)
          : new MemoryConcurrencySlots(),
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
    KafkaLagMetrics,
  ];
}

export const INFRASTRUCTURE_EXPORTS = [
  REDIS_CLIENT,
  EVENT_BUS,
  RATE_LIMIT_STORE,
  CONCURRENCY_SLOTS,
  CIRCUIT_STATE,
] as const;
