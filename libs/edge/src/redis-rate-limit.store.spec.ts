import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Redis from 'ioredis';
import { describeWithRedis, TEST_REDIS_URL } from '@gen/testing';
import { RedisRateLimitStore } from './redis-rate-limit.store';

const root = join(__dirname, '..', '..', '..');

describeWithRedis('RedisRateLimitStore against the real Redis', () => {
  let redis: Redis;
  let prefix: string;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
    prefix = `test:${randomBytes(6).toString('hex')}:`;
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('gives the burst, then refuses with Retry-After, counting down remaining tokens', async () => {
    const store = new RedisRateLimitStore(redis, prefix);
    const policy = { burst: 5, refillPerMinute: 1 };
    const decisions = [];
    for (let i = 0; i < 6; i += 1) decisions.push(await store.take('one', policy));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 4],
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[5]!.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(decisions[5]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(decisions.every((d) => d.limit === 5)).toBe(true);
    expect(await redis.pttl(`${prefix}one`)).toBeGreaterThan(0);
  });

  it('peek tells what take would answer without taking, and writes nothing for a bucket nobody took from', async () => {
    const store = new RedisRateLimitStore(redis, prefix);
    const policy = { burst: 2, refillPerMinute: 1 };
    expect(await store.peek('looked-at', policy)).toEqual({
      allowed: true,
      limit: 2,
      remaining: 2,
      retryAfterSeconds: 0,
    });
    expect(await redis.exists(`${prefix}looked-at`)).toBe(0);
    await store.take('peeked', policy);
    expect(await store.peek('peeked', policy)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await store.peek('peeked', policy)).toMatchObject({ allowed: true, remaining: 1 });
    await store.take('peeked', policy);
    const empty = await store.peek('peeked', policy);
    expect(empty).toMatchObject({ allowed: false, remaining: 0 });
    expect(empty.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect((await store.take('peeked', policy)).allowed).toBe(false);
  });

  it('refills exactly at the configured rate', async () => {
    const store = new RedisRateLimitStore(redis, prefix);
    const policy = { burst: 1, refillPerMinute: 600 }; // one token every 100 ms
    expect((await store.take('refill', policy)).allowed).toBe(true);
    expect((await store.take('refill', policy)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 120));
    expect((await store.take('refill', policy)).allowed).toBe(true);
  });

  it('is exact under concurrent calls from two processes: 50 tokens, 200 attempts, 50 admitted', async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    // Both workers connect first, then start at the same instant and take one token at a time, 5 ms apart:
    // the tokens last a quarter of a second at least, so both take some even when the machine is loaded and
    // one process is scheduled late. Far enough ahead that both processes are up.
    const startAt = Date.now() + 5000;
    const worker = `
      const Redis = require('ioredis');
      const { RedisRateLimitStore } = require(${JSON.stringify(join(root, 'dist', 'libs', 'edge', 'src', 'redis-rate-limit.store.js'))});
      const redis = new Redis(${JSON.stringify(TEST_REDIS_URL)});
      const store = new RedisRateLimitStore(redis, ${JSON.stringify(prefix)});
      redis.ping().then(() => new Promise((r) => setTimeout(r, ${startAt} - Date.now()))).then(async () => {
        let allowed = 0;
        for (let i = 0; i < 100; i += 1) {
          if ((await store.take('shared', { burst: 50, refillPerMinute: 1 })).allowed) allowed += 1;
          await new Promise((r) => setTimeout(r, 5));
        }
        process.stdout.write(String(allowed));
        redis.disconnect();
      });
    `;
    const run = () =>
      new Promise<number>((resolve, reject) =>
        execFile(process.execPath, ['-e', worker], { cwd: root }, (error, stdout) =>
          error ? reject(error) : resolve(Number(stdout)),
        ),
      );
    const [a, b] = await Promise.all([run(), run()]);
    expect(a + b).toBe(50);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
  }, 60_000);

  it('refuses with 50301 when Redis cannot be reached (fails closed)', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    const store = new RedisRateLimitStore(down, prefix);
    await expect(store.take('x', { burst: 1, refillPerMinute: 1 })).rejects.toMatchObject({
      code: 50301,
      messageId: 'server.unavailable',
    });
    down.disconnect();
  });
});
