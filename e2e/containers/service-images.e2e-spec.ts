import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { freePort } from '../support/app-process';
import { fileIn, runEmbeddedImage, withImage } from '../support/containers';
// The testcontainers path's broker settings (e2e/services.js, CommonJS for Jest's global setup).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { kafkaEnvironment } = require('../services') as {
  kafkaEnvironment: (port: number) => Record<string, string>;
};
import { checkMoney } from '../support/money';

type Json = Record<string, unknown>;

const root = join(__dirname, '..', '..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
/** The images `npm run images:build -- --bases debian` makes for the fleet's services. */
const POSTGRES_IMAGE = 'localhost/postgres:15-bookworm';
const REDIS_IMAGE = 'localhost/redis:7-bookworm';
const KAFKA_IMAGE = 'localhost/kafka:4.4-bookworm';
const S3_IMAGE = 'localhost/s3proxy:4.1-bookworm';
const APP_IMAGE = `localhost/generation-service:${version}`;

const postgres = withImage(POSTGRES_IMAGE);
const redis = withImage(REDIS_IMAGE);
const app = withImage(APP_IMAGE);
const kafka = withImage(KAFKA_IMAGE);
const s3 = withImage(S3_IMAGE);
const engine = postgres.engine ?? redis.engine;
const describeAll = postgres.engine && redis.engine && app.engine ? describe : describe.skip;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The service images made from Debian's packages, as docker/compose.yaml runs them (POSTGRES_IMAGE, REDIS_IMAGE):
 * each keeps the public image's conventions compose relies on (environment, data path, health-check command),
 * and the app image runs on them.
 */
describeAll('the PostgreSQL and Redis images under a container engine', () => {
  const suffix = randomBytes(4).toString('hex');
  const names = {
    postgres: `gts-e2e-pg-${suffix}`,
    redis: `gts-e2e-redis-${suffix}`,
    app: `gts-e2e-app-${suffix}`,
  };
  const password = `pw-${suffix}`;
  let pgPort: number;
  let redisPort: number;
  const exec = (...args: string[]) => execFileSync(engine!, args, { encoding: 'utf8' }).trim();
  const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 60_000) => {
    const started = Date.now();
    while (!(await ok())) {
      if (Date.now() - started > ms) throw new Error(`${what}: not ready in ${ms} ms`);
      await sleep(200);
    }
    return Date.now() - started;
  };

  beforeAll(async () => {
    pgPort = await freePort();
    redisPort = await freePort();
    exec(
      'run',
      '-d',
      '--name',
      names.postgres,
      '-p',
      `127.0.0.1:${pgPort}:5432`,
      '-e',
      `POSTGRES_PASSWORD=${password}`,
      '-e',
      'POSTGRES_DB=generation',
      POSTGRES_IMAGE,
    );
    exec('run', '-d', '--name', names.redis, '-p', `127.0.0.1:${redisPort}:6379`, REDIS_IMAGE);
    // The health checks docker/compose.yaml runs in them.
    const pgReady = await until(
      'postgres',
      () =>
        spawnSync(engine!, ['exec', names.postgres, 'pg_isready', '-U', 'postgres', '-d', 'generation'])
          .status === 0,
    );
    const redisReady = await until(
      'redis',
      () =>
        spawnSync(engine!, ['exec', names.redis, 'redis-cli', 'ping'], { encoding: 'utf8' }).stdout.trim() ===
        'PONG',
    );
    console.log(`service images: postgres ready in ${pgReady} ms, redis in ${redisReady} ms`);
  }, 120_000);

  afterAll(() => {
    for (const name of Object.values(names)) spawnSync(engine!, ['rm', '-f', name], { stdio: 'ignore' });
  });

  it('PostgreSQL: the database and the superuser password of the environment, nothing else let in', async () => {
    const url = (pw: string) => `postgresql://postgres:${pw}@127.0.0.1:${pgPort}/generation`;
    const client = new Client({ connectionString: url(password) });
    await client.connect();
    try {
      const { rows } = await client.query<{ db: string; version: string }>(
        `SELECT current_database() AS db, current_setting('server_version') AS version`,
      );
      expect(rows[0]!.db).toBe('generation');
      expect(rows[0]!.version).toMatch(/^15\./);
    } finally {
      await client.end();
    }
    const wrong = new Client({ connectionString: url('wrong') });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
    await wrong.end().catch(() => undefined);
    expect(exec('exec', names.postgres, 'id', '-un')).toBe('postgres');
    expect(exec('exec', names.postgres, 'sh', '-c', 'echo $PGDATA')).toBe('/var/lib/postgresql/data');
  });

  it('Redis: answers on every address, keeps nothing on disk, runs scripts', async () => {
    const client = new Redis(`redis://127.0.0.1:${redisPort}`, { maxRetriesPerRequest: 1 });
    try {
      expect(await client.ping()).toBe('PONG');
      // A token-bucket step as the fleet's rate limits take it: a script, atomically.
      const taken = await client.eval(
        `local n = redis.call('INCR', KEYS[1]); redis.call('PEXPIRE', KEYS[1], 1000); return n`,
        1,
        `bucket:${suffix}`,
      );
      expect(taken).toBe(1);
      expect(await client.config('GET', 'save')).toEqual(['save', '']);
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    } finally {
      client.disconnect();
    }
    expect(exec('exec', names.redis, 'id', '-un')).toBe('redis');
  });

  it('the app image runs on the PostgreSQL image: healthy, a task settled, the books balanced', async () => {
    const databaseUrl = `postgresql://postgres:${password}@127.0.0.1:${pgPort}/generation`;
    const { base, healthyMs: healthy } = await runEmbeddedImage(engine!, APP_IMAGE, names.app, databaseUrl);
    console.log(`service images: the app healthy on them ${healthy} ms after its start`);
    const boot = JSON.parse(await fileIn(engine!, names.app, '/data/bootstrap.json')) as { apiKey: string };
    const auth = { authorization: `Bearer ${boot.apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v1/jobs/createTask`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        model: 'local/sketch',
        input: { prompt: 'a lighthouse', width: 64, height: 64 },
      }),
    });
    expect(created.status).toBe(202);
    const taskId = ((await created.json()) as { data: Json }).data['taskId'] as string;
    let task: Json = {};
    await until('settlement', async () => {
      const reply = await fetch(`${base}/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth });
      task = ((await reply.json()) as { data: Json }).data;
      return task['settled'] === true;
    });
    expect(task).toMatchObject({ state: 'succeeded', settled: true });
    exec('stop', '-t', '30', names.app);
    const money = await checkMoney(databaseUrl);
    expect(money.violations).toEqual([]);
    expect(money.holds.open).toBe(0);
    expect(money.holds.settled).toBeGreaterThan(0);
    for (const image of [POSTGRES_IMAGE, REDIS_IMAGE])
      console.log(
        `service images: ${image} ${(Number(exec('image', 'inspect', image, '--format', '{{.Size}}')) / 1e6).toFixed(0)} MB`,
      );
  }, 180_000);
});

/** Runs `args` with the engine; its trimmed output. */
const run = (...args: string[]) =>
  execFileSync(kafka.engine ?? s3.engine!, args, { encoding: 'utf8' }).trim();
/** Whether `args` run in a container exit 0. */
const passes = (...args: string[]) => spawnSync(kafka.engine ?? s3.engine!, args).status === 0;

/**
 * The Kafka and S3 images made from Maven Central's jars on Debian's JRE, as docker/compose.yaml runs them
 * (KAFKA_IMAGE with its KAFKA_* settings; S3_IMAGE with MinIO's environment and command): the health checks
 * compose runs pass, and real clients use them.
 */
(kafka.engine && s3.engine ? describe : describe.skip)(
  'the Kafka and S3 images under a container engine',
  () => {
    const suffix = randomBytes(4).toString('hex');
    const names = { kafka: `gts-e2e-kafka-${suffix}`, s3: `gts-e2e-s3-${suffix}` };
    let kafkaPort: number;
    let s3Port: number;
    const secret = `secret-${suffix}`;

    beforeAll(async () => {
      kafkaPort = await freePort();
      s3Port = await freePort();
      // compose's settings, but advertised on the published port of the host rather than as `kafka:9092`.
      const settings = kafkaEnvironment(kafkaPort);
      run(
        'run',
        '-d',
        '--name',
        names.kafka,
        '-p',
        `127.0.0.1:${kafkaPort}:9092`,
        ...Object.entries(settings).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
        KAFKA_IMAGE,
      );
      run(
        'run',
        '-d',
        '--name',
        names.s3,
        '-p',
        `127.0.0.1:${s3Port}:9000`,
        '-e',
        'MINIO_ROOT_USER=identity',
        '-e',
        `MINIO_ROOT_PASSWORD=${secret}`,
        S3_IMAGE,
        'server',
        '/data',
      );
      const started = Date.now();
      // The health checks docker/compose.yaml runs in them.
      while (!passes('exec', names.s3, 'mc', 'ready', 'local')) {
        if (Date.now() - started > 60_000) throw new Error(`s3: not ready:\n${run('logs', names.s3)}`);
        await sleep(200);
      }
      const s3Ready = Date.now() - started;
      const kafkaCheck = [
        'exec',
        names.kafka,
        '/opt/kafka/bin/kafka-broker-api-versions.sh',
        '--bootstrap-server',
        'localhost:9092',
      ];
      while (!passes(...kafkaCheck)) {
        if (Date.now() - started > 90_000) throw new Error(`kafka: not ready:\n${run('logs', names.kafka)}`);
        await sleep(500);
      }
      console.log(`service images: s3 ready in ${s3Ready} ms, kafka in ${Date.now() - started} ms`);
    }, 150_000);

    afterAll(() => {
      for (const name of Object.values(names))
        spawnSync(kafka.engine ?? s3.engine!, ['rm', '-f', name], { stdio: 'ignore' });
    });

    it('Kafka: a topic of 3 partitions by default, a keyed message produced and consumed, as a non-root user', async () => {
      const client = new Kafka({ brokers: [`127.0.0.1:${kafkaPort}`], logLevel: logLevel.NOTHING });
      const admin = client.admin();
      const producer = client.producer();
      const consumer = client.consumer({ groupId: `g-${suffix}` });
      await Promise.all([admin.connect(), producer.connect(), consumer.connect()]);
      try {
        await producer.send({ topic: `t-${suffix}`, messages: [{ key: 'task_1', value: 'hello' }] });
        const [metadata] = (await admin.fetchTopicMetadata({ topics: [`t-${suffix}`] })).topics;
        expect(metadata!.partitions).toHaveLength(3);
        await consumer.subscribe({ topic: `t-${suffix}`, fromBeginning: true });
        const got = await new Promise<string>((resolve) => {
          void consumer.run({
            eachMessage: async ({ message }) => resolve(`${String(message.key)}=${String(message.value)}`),
          });
        });
        expect(got).toBe('task_1=hello');
      } finally {
        await Promise.all([admin.disconnect(), producer.disconnect(), consumer.disconnect()]);
      }
      expect(run('exec', names.kafka, 'id', '-un')).toBe('kafka');
    }, 60_000);

    it("S3: objects kept under the environment's key and secret, SigV4 checked, as a non-root user", async () => {
      const client = (key: string) =>
        new S3Client({
          endpoint: `http://127.0.0.1:${s3Port}`,
          region: 'us-east-1',
          forcePathStyle: true,
          credentials: { accessKeyId: 'identity', secretAccessKey: key },
        });
      const good = client(secret);
      await good.send(new CreateBucketCommand({ Bucket: 'generation-media' }));
      await good.send(
        new PutObjectCommand({
          Bucket: 'generation-media',
          Key: 'a/b.txt',
          Body: 'bytes',
          ContentType: 'text/plain',
        }),
      );
      const read = await good.send(new GetObjectCommand({ Bucket: 'generation-media', Key: 'a/b.txt' }));
      expect(await read.Body!.transformToString()).toBe('bytes');
      await expect(
        client('wrong').send(new GetObjectCommand({ Bucket: 'generation-media', Key: 'a/b.txt' })),
      ).rejects.toMatchObject({
        $metadata: { httpStatusCode: 403 },
      });
      expect(run('exec', names.s3, 'id', '-un')).toBe('s3');
      for (const image of [KAFKA_IMAGE, S3_IMAGE])
        console.log(
          `service images: ${image} ${(Number(run('image', 'inspect', image, '--format', '{{.Size}}')) / 1e6).toFixed(0)} MB`,
        );
    });
  },
);
