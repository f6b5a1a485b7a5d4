import { ConfigError, describeConfig, loadConfig } from './config';

const DEFAULTS = {
  MODE: 'embedded',
  HOST: '127.0.0.1',
  PORT: 8080,
  DATA_DIR: './data',
  LOG_LEVEL: 'info',
  BODY_LIMIT_BYTES: 1048576,
  DEFAULT_KEY_DAILY_CAP: '10',
  KEY_CACHE_TTL_MS: 1000,
  RATE_LIMIT_PER_MINUTE: 600,
  RATE_LIMIT_BURST: 120,
  ADMIN_RATE_BURST: 120,
  ADMIN_RATE_PER_MINUTE: 300,
  ADMIN_AUTH_FAIL_BURST: 10,
  ADMIN_AUTH_FAIL_PER_MINUTE: 10,
  CONSOLE_RATE_BURST: 120,
  CONSOLE_RATE_PER_MINUTE: 300,
  CONSOLE_WRITE_BURST: 30,
  CONSOLE_WRITE_PER_MINUTE: 30,
  SHUTDOWN_GRACE_MS: 10000,
  S3_REGION: 'us-east-1',
  S3_BUCKET: 'generation-media',
  S3_FORCE_PATH_STYLE: false,
  DEPENDENCY_TIMEOUT_MS: 15000,
  TASK_DEADLINE_SECONDS: 1800,
  FETCH_DEADLINE_SECONDS: 120,
  IMPORT_CONCURRENCY_PER_KEY: 4,
  TEXT_KEEPALIVE_MS: 30000,
  TEXT_STREAM_KEEPALIVE_MS: 10000,
  WEBHOOK_RETRY_SCHEDULE: '10,30,120,600,1800,7200,21600',
  WEBHOOK_PAYLOAD_VERSION: '2',
  RUNNER_CONCURRENCY: 8,
  RUNNER_LEASE_MS: 10000,
  TEXT_STREAM_LEASE_MS: 10000,
  KAFKA_TOPIC_PREFIX: '',
  REDIS_KEY_PREFIX: '',
  S3_KEY_PREFIX: '',
  OTEL_BSP_SCHEDULE_DELAY: 5000,
  SERVICE_CALL_PORT: 4000,
};

const DB_PASSWORD = 'hunter2-Sup3rSecret';
const ADMIN_SECRET = 'adm-secret-0123456789abcdefXYZ';

/** Runs loadConfig and returns the ConfigError it throws (fails the test when it does not throw one). */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(Object.keys(env))}`);
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    expect(loadConfig({})).toEqual(DEFAULTS);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ PORT: '', MODE: '', DATABASE_URL: '', ADMIN_TOKEN: '' })).toEqual(DEFAULTS);
  });

  it('ignores variables that are not settings', () => {
    const config = loadConfig({ PATH: '/usr/bin', HOME: '/root' }) as Record<string, unknown>;
    expect(config).toEqual(DEFAULTS);
  });

  it('does not change the environment it reads', () => {
    const env = { PORT: '9000' };
    loadConfig(env);
    expect(env).toEqual({ PORT: '9000' });
  });

  it('coerces integer settings from their decimal text', () => {
    const config = loadConfig({
      PORT: '0',
      BODY_LIMIT_BYTES: '2048',
      KEY_CACHE_TTL_MS: '0',
      RATE_LIMIT_PER_MINUTE: '30',
      RATE_LIMIT_BURST: '5',
      SHUTDOWN_GRACE_MS: '250',
    });
    expect(config.PORT).toBe(0);
    expect(config.BODY_LIMIT_BYTES).toBe(2048);
    expect(config.KEY_CACHE_TTL_MS).toBe(0);
    expect(config.RATE_LIMIT_PER_MINUTE).toBe(30);
    expect(config.RATE_LIMIT_BURST).toBe(5);
    expect(config.SHUTDOWN_GRACE_MS).toBe(250);
  });

  it('reads the distributed-mode dependencies', () => {
    const config = loadConfig({
      MODE: 'distributed',
      KAFKA_BROKERS: '10.0.0.1:9092,kafka-2.internal:19092',
      REDIS_URL: 'redis://:pw@cache:6379/0',
      S3_ENDPOINT: 'http://127.0.0.1:19000',
      S3_BUCKET: 'media.example',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      DEPENDENCY_TIMEOUT_MS: '2000',
    });
    expect(config).toMatchObject({
      KAFKA_BROKERS: '10.0.0.1:9092,kafka-2.internal:19092',
      REDIS_URL: 'redis://:pw@cache:6379/0',
      S3_ENDPOINT: 'http://127.0.0.1:19000',
      S3_BUCKET: 'media.example',
      S3_FORCE_PATH_STYLE: true,
      DEPENDENCY_TIMEOUT_MS: 2000,
    });
    expect(describeConfig(config)).toMatchObject({ REDIS_URL: '***', S3_SECRET_ACCESS_KEY: '***' });
  });

  it('accepts the bounds of PORT, KEY_CACHE_TTL_MS and TEXT_STREAM_KEEPALIVE_MS', () => {
    expect(loadConfig({ PORT: '65535' }).PORT).toBe(65535);
    expect(loadConfig({ KEY_CACHE_TTL_MS: '1000' }).KEY_CACHE_TTL_MS).toBe(1000);
    expect(loadConfig({ TEXT_STREAM_KEEPALIVE_MS: '50' }).TEXT_STREAM_KEEPALIVE_MS).toBe(50);
    expect(loadConfig({ TEXT_STREAM_KEEPALIVE_MS: '600000' }).TEXT_STREAM_KEEPALIVE_MS).toBe(600000);
  });

  it('keeps string settings and accepts every valid value', () => {
    const config = loadConfig({
      MODE: 'distributed',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/gen',
      DATABASE_URL: `postgresql://app:${DB_PASSWORD}@db:5432/gen`,
      PUBLIC_BASE_URL: 'https://api.example.com',
      ADMIN_TOKEN: ADMIN_SECRET,
      LOG_LEVEL: 'debug',
      DEFAULT_KEY_DAILY_CAP: '2.5',
    });
    expect(config).toEqual({
      ...DEFAULTS,
      MODE: 'distributed',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/gen',
      DATABASE_URL: `postgresql://app:${DB_PASSWORD}@db:5432/gen`,
      PUBLIC_BASE_URL: 'https://api.example.com',
      ADMIN_TOKEN: ADMIN_SECRET,
      LOG_LEVEL: 'debug',
      DEFAULT_KEY_DAILY_CAP: '2.5',
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/gen' }).DATABASE_URL).toBe(
      'postgres://localhost/gen',
    );
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['PORT', 'true'],
    ['MODE', 'cluster'],
    ['MODE', 'Embedded'],
    ['LOG_LEVEL', 'loud'],
    ['BODY_LIMIT_BYTES', '1023'],
    ['DEFAULT_KEY_DAILY_CAP', '01'],
    ['DEFAULT_KEY_DAILY_CAP', '-1'],
    ['KEY_CACHE_TTL_MS', '1001'],
    ['KEY_CACHE_TTL_MS', '60000'],
    ['KEY_CACHE_TTL_MS', '-1'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['RATE_LIMIT_BURST', '0'],
    ['ADMIN_RATE_BURST', '0'],
    ['ADMIN_AUTH_FAIL_PER_MINUTE', '0'],
    ['CONSOLE_RATE_PER_MINUTE', '1.5'],
    ['CONSOLE_WRITE_BURST', '-1'],
    ['SHUTDOWN_GRACE_MS', 'soon'],
    ['FETCH_DEADLINE_SECONDS', '0'],
    ['FETCH_DEADLINE_SECONDS', '3601'],
    ['IMPORT_CONCURRENCY_PER_KEY', '0'],
    ['IMPORT_CONCURRENCY_PER_KEY', '101'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['KAFKA_BROKERS', 'localhost'],
    ['KAFKA_BROKERS', 'a:9092,'],
    ['KAFKA_BROKERS', 'a:9092, b:9092'],
    ['S3_ENDPOINT', 'not a url'],
    ['S3_PUBLIC_ENDPOINT', 'minio:9000'],
    ['S3_BUCKET', 'Upper_Case'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
    ['S3_KEY_PREFIX', '/fleet-a/'],
    ['S3_KEY_PREFIX', 'fleet a/'],
    ['S3_KEY_PREFIX', 'x'.repeat(201)],
    ['REDIS_KEY_PREFIX', 'fleet a:'],
    ['REDIS_KEY_PREFIX', 'fleet*'],
    ['DEPENDENCY_TIMEOUT_MS', '50'],
    ['TEXT_STREAM_KEEPALIVE_MS', '49'],
    ['TEXT_STREAM_KEEPALIVE_MS', '600001'],
    ['TEXT_STREAM_KEEPALIVE_MS', '1.5'],
    ['METRICS_PORT', '65536'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'http/protobuf'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
  ])('refuses %s=%j with a ConfigError naming the setting and the value', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.setting).toBe(name);
    expect(error.name).toBe('ConfigError');
    expect(error).toBeInstanceOf(Error);
    expect(error.message.startsWith(`Invalid configuration: ${name} `)).toBe(true);
    expect(error.message).toContain(JSON.stringify(value));
  });

  it('takes the S3 and Redis key prefixes as given', () => {
    const config = loadConfig({ S3_KEY_PREFIX: 'fleets/a-1/', REDIS_KEY_PREFIX: 'fleet-a:1.' });
    expect([config.S3_KEY_PREFIX, config.REDIS_KEY_PREFIX]).toEqual(['fleets/a-1/', 'fleet-a:1.']);
  });

  it('reads the service-call settings: listener port and host, and the peers of each app', () => {
    const config = loadConfig({
      SERVICE_CALL_PORT: '0',
      SERVICE_CALL_HOST: '0.0.0.0',
      SERVICE_ADDRESSES: 'gateway=10.0.0.1:4000,gateway=gw-2.internal:4001,billing=[::1]:4100',
    });
    expect(config).toMatchObject({
      SERVICE_CALL_PORT: 0,
      SERVICE_CALL_HOST: '0.0.0.0',
      SERVICE_ADDRESSES: 'gateway=10.0.0.1:4000,gateway=gw-2.internal:4001,billing=[::1]:4100',
    });
  });

  it.each([
    'gateway',
    'gateway=10.0.0.1',
    'gateway=10.0.0.1:4000,',
    'gateway=10.0.0.1:4000;billing=10.0.0.2:4000',
    'gateway = 10.0.0.1:4000',
    'Gateway=10.0.0.1:4000',
  ])('refuses a malformed SERVICE_ADDRESSES (%j)', (value) => {
    expect(configError({ SERVICE_ADDRESSES: value }).setting).toBe('SERVICE_ADDRESSES');
  });

  it('names the bad setting, not another one, when the others are valid', () => {
    const error = configError({
      PORT: '8081',
      MODE: 'distributed',
      KEY_CACHE_TTL_MS: '1500',
      HOST: 'localhost',
    });
    expect(error.setting).toBe('KEY_CACHE_TTL_MS');
    expect(error.message).toContain('KEY_CACHE_TTL_MS');
    expect(error.message).toContain('1000');
  });

  it.each([
    `mysql://app:${DB_PASSWORD}@db/gen`,
    `http://app:${DB_PASSWORD}@db/gen`,
    `app:${DB_PASSWORD}@db/gen`,
    ` postgres://app:${DB_PASSWORD}@db/gen`,
  ])('refuses a bad DATABASE_URL without showing it (%#)', (value) => {
    const error = configError({ DATABASE_URL: value });
    expect(error.setting).toBe('DATABASE_URL');
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).not.toContain(DB_PASSWORD);
    expect(error.message).not.toContain(value.trim());
    expect(error.message).toContain('(secret)');
  });

  it('refuses a too-short ADMIN_TOKEN without showing it', () => {
    const short = 'hunter2-short-tok';
    const error = configError({ ADMIN_TOKEN: short });
    expect(error.setting).toBe('ADMIN_TOKEN');
    expect(error.message).toContain('ADMIN_TOKEN');
    expect(error.message).not.toContain(short);
    expect(error.message).not.toContain('hunter2');
  });

  it('does not show valid secrets when another setting is bad', () => {
    const error = configError({
      DATABASE_URL: `postgres://app:${DB_PASSWORD}@db/gen`,
      ADMIN_TOKEN: ADMIN_SECRET,
      PORT: 'http',
    });
    expect(error.setting).toBe('PORT');
    expect(error.message).not.toContain(DB_PASSWORD);
    expect(error.message).not.toContain(ADMIN_SECRET);
  });
});

describe('describeConfig', () => {
  it('masks secrets and shows every other setting as loaded', () => {
    const config = loadConfig({
      DATABASE_URL: `postgres://app:${DB_PASSWORD}@db/gen`,
      ADMIN_TOKEN: ADMIN_SECRET,
      PORT: '9000',
      PUBLIC_BASE_URL: 'https://api.example.com',
    });
    const described = describeConfig(config);
    expect(described).toEqual({
      ...DEFAULTS,
      PORT: 9000,
      PUBLIC_BASE_URL: 'https://api.example.com',
      DATABASE_URL: '***',
      ADMIN_TOKEN: '***',
    });
    expect(JSON.stringify(described)).not.toContain(DB_PASSWORD);
    expect(JSON.stringify(described)).not.toContain(ADMIN_SECRET);
  });

  it('leaves unset optional settings out', () => {
    const described = describeConfig(loadConfig({}));
    expect(described).toEqual(DEFAULTS);
    expect(described).not.toHaveProperty('DATABASE_URL');
    expect(described).not.toHaveProperty('ADMIN_TOKEN');
    expect(described).not.toHaveProperty('PUBLIC_BASE_URL');
  });

  it('shows only known settings, even when the config object carries more', () => {
    const config = { ...loadConfig({}), EXTRA: 'x' } as ReturnType<typeof loadConfig>;
    expect(describeConfig(config)).toEqual(DEFAULTS);
  });
});

describe('integer settings are plain digits (regression)', () => {
  it.each(['0x50', '1e3', ' 80 ', '80.0', '+80'])('refuses PORT=%j', (value) => {
    let thrown: unknown;
    try {
      loadConfig({ PORT: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).setting).toBe('PORT');
  });
});
