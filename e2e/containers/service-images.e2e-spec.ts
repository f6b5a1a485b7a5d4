import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { freePort } from '../support/app-process';
import { fileIn, runEmbeddedImage, withImage } from '../support/containers';
import { checkMoney } from '../support/money';

type Json = Record<string, unknown>;

const root = join(__dirname, '..', '..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
/** The images `npm run images:build -- --bases debian` makes for the fleet's PostgreSQL and Redis. */
const POSTGRES_IMAGE = 'localhost/postgres:15-bookworm';
const REDIS_IMAGE = 'localhost/redis:7-bookworm';
const APP_IMAGE = `localhost/generation-service:${version}`;

const postgres = withImage(POSTGRES_IMAGE);
const redis = withImage(REDIS_IMAGE);
const app = withImage(APP_IMAGE);
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
