// Where the e2e suite's services come from. One configuration (the settings every app reads), three sources,
// tried in this order:
//   1. the environment, when it already names every service (an operator's own services);
//   2. testcontainers, when a Docker engine is reachable: PostgreSQL, Redis, Kafka (KRaft) and MinIO;
//   3. `.env.services`, written by `npm run services:up` (the scripts under scripts/services/).
// The path taken is printed at the start of the run and written to e2e/.services-path.
const { existsSync, readFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');

/**
 * A single KRaft node's settings as the public apache/kafka image (and the local one of images:build) reads them,
 * advertised on 127.0.0.1:`port` of the host that publishes the container's 9092 there.
 */
function kafkaEnvironment(port) {
  return {
    KAFKA_NODE_ID: '1',
    KAFKA_PROCESS_ROLES: 'broker,controller',
    KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
    KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
    KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
    KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
    KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
    KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
    KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
    KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
  };
}

/** The settings the apps and the e2e tests read. */
const SETTINGS = [
  'DATABASE_URL',
  'REDIS_URL',
  'KAFKA_BROKERS',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
];
const REQUIRED = ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS', 'S3_ENDPOINT'];

const IMAGES = {
  postgres: 'postgres:17-alpine',
  redis: 'redis:7-alpine',
  kafka: 'apache/kafka:4.1.0',
  minio: 'minio/minio:RELEASE.2025-04-22T22-12-26Z',
};

const root = join(__dirname, '..');
const envFile = join(root, '.env.services');
const pathFile = join(__dirname, '.services-path');

function readEnvFile(file) {
  const settings = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) settings[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return settings;
}

/** True when a Docker engine may be reachable; testcontainers then decides for sure. */
function dockerHinted(env) {
  return (
    Boolean(env.DOCKER_HOST) ||
    existsSync('/var/run/docker.sock') ||
    existsSync(`${env.HOME}/.docker/run/docker.sock`)
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts the four services in containers; returns their settings and a function that stops them. */
async function startContainers() {
  const { GenericContainer, Wait } = require('testcontainers');
  const kafkaPort = await freePort();
  const [postgres, redis, kafka, minio] = await Promise.all([
    new GenericContainer(IMAGES.postgres)
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_DB: 'test' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer(IMAGES.redis)
      .withExposedPorts(6379)
      .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
      .start(),
    // The broker advertises the host port clients reach it on, so that port is fixed before it starts.
    new GenericContainer(IMAGES.kafka)
      .withEnvironment(kafkaEnvironment(kafkaPort))
      .withExposedPorts({ container: 9092, host: kafkaPort })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start(),
    new GenericContainer(IMAGES.minio)
      .withEnvironment({ MINIO_ROOT_USER: 'local-identity', MINIO_ROOT_PASSWORD: 'local-credential' })
      .withCommand(['server', '/data'])
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .start(),
  ]);
  const host = (c) => c.getHost();
  return {
    settings: {
      DATABASE_URL: `postgresql://postgres@${host(postgres)}:${postgres.getMappedPort(5432)}/test`,
      REDIS_URL: `redis://${host(redis)}:${redis.getMappedPort(6379)}`,
      KAFKA_BROKERS: `127.0.0.1:${kafkaPort}`,
      S3_ENDPOINT: `http://${host(minio)}:${minio.getMappedPort(9000)}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'local-identity',
      S3_SECRET_ACCESS_KEY: 'local-credential',
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop: () => Promise.all([postgres, redis, kafka, minio].map((c) => c.stop())),
  };
}

/**
 * Decides where the services come from and puts their settings in `env` (also as the TEST_* names the
 * unit-level helpers read). Returns the path taken and a function that stops what it started.
 */
async function resolveServices(env = process.env, file = envFile) {
  let path;
  let settings = {};
  let stop = async () => undefined;
  if (REQUIRED.every((name) => env[name])) {
    path = 'environment (services named by DATABASE_URL, REDIS_URL, KAFKA_BROKERS, S3_ENDPOINT)';
  } else {
    let started;
    let containerFailure;
    if (dockerHinted(env)) {
      const { getContainerRuntimeClient } = require('testcontainers');
      const runtime = await getContainerRuntimeClient().catch(() => undefined);
      if (runtime) {
        try {
          started = await startContainers();
          path = `testcontainers (Docker engine ${runtime.info.engine.serverVersion}): ${Object.values(IMAGES).join(', ')}`;
        } catch (error) {
          containerFailure = error;
        }
      }
    }
    if (started) {
      settings = started.settings;
      stop = started.stop;
    } else if (existsSync(file)) {
      settings = readEnvFile(file);
      path = containerFailure
        ? `scripts/services (containers did not start: ${containerFailure.message}; settings from .env.services)`
        : 'scripts/services (no Docker engine reachable; settings from .env.services of `npm run services:up`)';
    } else if (containerFailure) {
      throw containerFailure;
    } else {
      throw new Error(
        'e2e: no services. Start them with `npm run services:up` (or make a Docker engine reachable).',
      );
    }
    for (const name of SETTINGS)
      if (env[name] === undefined && settings[name] !== undefined) env[name] = settings[name];
  }
  env.TEST_DATABASE_URL = env.DATABASE_URL;
  env.TEST_REDIS_URL = env.REDIS_URL;
  return { path, stop };
}

module.exports = { SETTINGS, REQUIRED, IMAGES, resolveServices, dockerHinted, pathFile, kafkaEnvironment };
