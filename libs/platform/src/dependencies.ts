import { ConfigError, type AppConfig, type Logger } from '@gen/core';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { S3ObjectStorage } from '@gen/storage';
import { ignoreKafkajsNegativeTimeouts } from '@gen/messaging';
import { s3OptionsOf } from './object-storage.providers';

/** What an app needs outside itself in distributed mode. */
export type Dependency = 'database' | 'kafka' | 'redis' | 's3';

/** The setting that names each dependency; required in distributed mode by the apps that need it. */
const SETTING: Readonly<Record<Dependency, keyof AppConfig>> = {
  database: 'DATABASE_URL',
  kafka: 'KAFKA_BROKERS',
  redis: 'REDIS_URL',
  s3: 'S3_BUCKET',
};

const NAME: Readonly<Record<Dependency, string>> = {
  database: 'PostgreSQL',
  kafka: 'Kafka',
  redis: 'Redis',
  s3: 'S3',
};

/** A dependency that did not answer in time: start-up stops with this message (exit 1). */
export class DependencyUnreachableError extends Error {
  constructor(
    readonly dependency: Dependency,
    target: string,
    timeoutMs: number,
    cause: string,
  ) {
    super(`cannot reach ${NAME[dependency]} at ${target} within ${timeoutMs} ms: ${cause}`);
    this.name = 'DependencyUnreachableError';
  }
}

/** Refuses a distributed start without the settings of the app's dependencies (exit 2, like any bad setting). */
export function requireDistributedSettings(config: AppConfig, needs: readonly Dependency[]): void {
  if (config.MODE !== 'distributed') return;
  for (const need of needs) {
    if (config[SETTING[need]] === undefined)
      throw new ConfigError(
        SETTING[need],
        `is required when MODE=distributed (this app needs ${NAME[need]})`,
      );
  }
  if (
    needs.includes('s3') &&
    (config.S3_ACCESS_KEY_ID === undefined) !== (config.S3_SECRET_ACCESS_KEY === undefined)
  )
    throw new ConfigError(
      config.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY',
      'must be set together with its pair (or neither, for the default AWS credential chain)',
    );
}

/** Host and port (or endpoint) of a dependency, for messages: never credentials. */
export function targetOf(dependency: Dependency, config: AppConfig): string {
  switch (dependency) {
    case 'database':
    case 'redis': {
      const raw = dependency === 'database' ? config.DATABASE_URL : config.REDIS_URL;
      try {
        const url = new URL(raw ?? '');
        return `${url.hostname}:${url.port || (dependency === 'database' ? '5432' : '6379')}`;
      } catch {
        return '(unparsable URL)';
      }
    }
    case 'kafka':
      return config.KAFKA_BROKERS ?? '';
    case 's3':
      return `${config.S3_ENDPOINT ?? `s3.${config.S3_REGION}.amazonaws.com`} bucket ${config.S3_BUCKET}`;
  }
}

const messageOf = (error: unknown): string => {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  const message = error instanceof Error ? error.message || error.name : String(error);
  // Never echo a URL with its password back.
  return message.replace(/\/\/[^@\s/]*@/g, '//***@');
};

/**
 * One attempt to reach a dependency; resolves when it answered. `closing` is given what ends the attempt's
 * client, so an attempt that outlives its time (`attempt`) can be ended from outside.
 */
async function probe(
  dependency: Dependency,
  config: AppConfig,
  timeoutMs: number,
  closing: (close: () => void) => void,
): Promise<void> {
  switch (dependency) {
    case 'database': {
      const client = new Client({
        connectionString: config.DATABASE_URL,
        connectionTimeoutMillis: timeoutMs,
        query_timeout: timeoutMs,
      });
      client.on('error', () => undefined);
      closing(() => void client.end().catch(() => undefined));
      try {
        await client.connect();
        await client.query('SELECT 1');
      } finally {
        await client.end().catch(() => undefined);
      }
      return;
    }
    case 'redis': {
      const redis = new Redis(config.REDIS_URL!, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: timeoutMs,
        commandTimeout: timeoutMs,
        retryStrategy: () => null,
      });
      closing(() => redis.disconnect());
      // ioredis rejects with "Connection is closed."; the socket's own error says why.
      let socketError: unknown;
      redis.on('error', (error) => (socketError = error));
      try {
        await redis.connect();
        await redis.ping();
      } catch (error) {
        throw socketError ?? error;
      } finally {
        redis.disconnect();
      }
      return;
    }
    case 'kafka': {
      ignoreKafkajsNegativeTimeouts();
      const admin = new Kafka({
        clientId: 'dependency-probe',
        brokers: config.KAFKA_BROKERS!.split(','),
        connectionTimeout: timeoutMs,
        requestTimeout: timeoutMs,
        retry: { retries: 0 },
        logLevel: logLevel.NOTHING,
      }).admin();
      closing(() => void admin.disconnect().catch(() => undefined));
      try {
        await admin.connect();
        await admin.describeCluster();
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
      return;
    }
    case 's3': {
      // The adapter itself, so the check sees the same client settings; it also makes a missing bucket. One
      // attempt per probe: the loop below retries, and a refused connection is reported as such rather than
      // as the abort of the SDK's own backoff.
      const storage = new S3ObjectStorage({ ...s3OptionsOf(config), maxAttempts: 1 });
      closing(() => storage.close());
      try {
        await storage.ensureBucket({ abortSignal: AbortSignal.timeout(timeoutMs) });
      } finally {
        storage.close();
      }
      return;
    }
  }
}

/**
 * A probe with a deadline of its own: a server that accepts the connection and never answers (a port still
 * owned by a dying process, a proxy whose backend is not up) would otherwise hold start-up forever, as each
 * client's own timeouts cover some of the exchange only. At the deadline the attempt's client is ended and the
 * attempt fails, so the loop tries again or gives up with DependencyUnreachableError.
 */
async function attempt(dependency: Dependency, config: AppConfig, timeoutMs: number): Promise<void> {
  const closers: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      for (const close of closers) close();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const probed = probe(dependency, config, timeoutMs, (close) => closers.push(close));
  probed.catch(() => undefined);
  try {
    await Promise.race([probed, expired]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until every dependency answers, retrying each for at most DEPENDENCY_TIMEOUT_MS (a dependency that
 * starts a moment later is fine), then throws DependencyUnreachableError naming the first that did not.
 */
export async function waitForDependencies(
  config: AppConfig,
  needs: readonly Dependency[],
  logger: Logger,
): Promise<void> {
  if (config.MODE !== 'distributed') return;
  const timeoutMs = config.DEPENDENCY_TIMEOUT_MS;
  await Promise.all(
    needs.map(async (dependency) => {
      const deadline = Date.now() + timeoutMs;
      let delay = 100;
      for (;;) {
        const left = deadline - Date.now();
        try {
          await attempt(dependency, config, Math.max(100, Math.min(left, 5000)));
          logger.info({ dependency, target: targetOf(dependency, config) }, 'dependency reachable');
          return;
        } catch (error) {
          if (Date.now() + delay >= deadline)
            throw new DependencyUnreachableError(
              dependency,
              targetOf(dependency, config),
              timeoutMs,
              messageOf(error),
            );
          await sleep(delay);
          delay = Math.min(delay * 2, 1000);
        }
      }
    }),
  );
}
