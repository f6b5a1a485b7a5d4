// Where the e2e suite's services come from. One configuration (the settings every app reads), three sources,
// tried in this order:
//   1. the environment, when it already names every service (an operator's own services);
//   2. testcontainers, when a Docker engine is reachable (Docker, or Podman's Docker-compatible socket):
//      PostgreSQL, Redis, Kafka (KRaft) and an S3 server, from the images `npm run images:build -- --bases debian`
//      made where the engine holds them, else from the public images;
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

/** The public images (those docker/compose.yaml names). */
const IMAGES = {
  postgres: 'postgres:17-alpine',
  redis: 'redis:7-alpine',
  kafka: 'apache/kafka:4.1.0',
  minio: 'minio/minio:RELEASE.2025-04-22T22-12-26Z',
};
/**
 * The images `npm run images:build -- --bases debian` makes from Debian's packages where no registry answers:
 * each keeps its public counterpart's environment, command, ports and tools, so one set of wait strategies
 * below serves both.
 */
const LOCAL_IMAGES = {
  postgres: 'localhost/postgres:15-bookworm',
  redis: 'localhost/redis:7-bookworm',
  kafka: 'localhost/kafka:4.4-bookworm',
  minio: 'localhost/s3proxy:4.1-bookworm',
};
const POSTGRES_PASSWORD = 'e2e-postgres';

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

/** For each service, its local image where the engine holds one, else the public one. */
async function chooseImages(runtime) {
  const { ImageName } = require('testcontainers');
  const chosen = {};
  for (const [service, image] of Object.entries(LOCAL_IMAGES)) {
    const local = await runtime.image.exists(ImageName.fromString(image)).catch(() => false);
    chosen[service] = local ? image : IMAGES[service];
  }
  return chosen;
}

/**
 * Starts the four services in containers; returns their settings and a function that stops them. Each is
 * waited for by what its health check asks (a command run in it, or an answer on its port), never by a log
 * line only one image prints.
 */
async function startContainers(images) {
  const { GenericContainer, Wait } = require('testcontainers');
  const kafkaPort = await freePort();
  const starts = await Promise.allSettled([
    new GenericContainer(images.postgres)
      .withEnvironment({ POSTGRES_PASSWORD, POSTGRES_DB: 'test' })
      .withExposedPorts(5432)
      // Over TCP: the public image's first, initialising server listens on its socket only.
      .withWaitStrategy(Wait.forSuccessfulCommand('pg_isready -h 127.0.0.1 -U postgres -d test'))
      .start(),
    new GenericContainer(images.redis)
      .withExposedPorts(6379)
      .withWaitStrategy(Wait.forSuccessfulCommand('redis-cli ping'))
      .start(),
    // The broker advertises the host port clients reach it on, so that port is fixed before it starts; its
    // `Kafka Server started` line (both images log it) comes once it serves clients.
    new GenericContainer(images.kafka)
      .withEnvironment(kafkaEnvironment(kafkaPort))
      .withExposedPorts({ container: 9092, host: kafkaPort })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start(),
    new GenericContainer(images.minio)
      .withEnvironment({ MINIO_ROOT_USER: 'local-identity', MINIO_ROOT_PASSWORD: 'local-credential' })
      .withCommand(['server', '/data'])
      .withExposedPorts(9000)
      // Any S3 answer (MinIO and S3Proxy refuse an unsigned request): the server is up.
      .withWaitStrategy(Wait.forHttp('/', 9000).forStatusCodeMatching((status) => status > 0))
      .start(),
  ]);
  // One failed: stop the others (no Ryuk here to reap them) and say which.
  const failed = starts.find((start) => start.status === 'rejected');
  if (failed) {
    await Promise.all(starts.filter((s) => s.status === 'fulfilled').map((s) => s.value.stop()));
    throw failed.reason;
  }
  const [postgres, redis, kafka, minio] = starts.map((start) => start.value);
  const host = (c) => c.getHost();
  return {
    settings: {
      DATABASE_URL: `postgresql://postgres:${POSTGRES_PASSWORD}@${host(postgres)}:${postgres.getMappedPort(5432)}/test`,
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
          const images = await chooseImages(runtime);
          const engine = runtime.info.containerRuntime;
          const where = env.DOCKER_HOST ?? 'its default socket';
          path = `testcontainers (${engine.operatingSystem}, API ${engine.serverVersion}, at ${where}): ${Object.values(images).join(', ')}`;
          started = await startContainers(images);
        } catch (error) {
          containerFailure = error;
        }
      }
    }
    if (started) {
      settings = started.settings;
      stop = started.stop;
    } else if (env.E2E_SERVICES === 'containers') {
      // CI asks for this path: falling back would run the suite on other services than it says.
      throw containerFailure ?? new Error('E2E_SERVICES=containers but no container engine answers');
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

module.exports = {
  SETTINGS,
  REQUIRED,
  IMAGES,
  LOCAL_IMAGES,
  resolveServices,
  dockerHinted,
  pathFile,
  kafkaEnvironment,
};
