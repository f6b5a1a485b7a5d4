import 'reflect-metadata';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { APP_CONFIG, createLogger, loadConfig } from '@gen/core';
import { RATE_LIMIT_STORE, type RateLimitStore } from '@gen/edge';
import { infrastructureProviders } from '@gen/platform';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';

/** The Redis adapters exactly as an app wires them (infrastructureProviders), from these settings. */
async function infrastructureOf(env: Record<string, string>): Promise<INestApplicationContext> {
  const config = loadConfig({ MODE: 'distributed', REDIS_URL: process.env['REDIS_URL']!, ...env });
  @Module({
    providers: [
      { provide: APP_CONFIG, useValue: config },
      ...infrastructureProviders('e2e', createLogger('silent')),
    ],
  })
  class Infrastructure {}
  return NestFactory.createApplicationContext(Infrastructure, { logger: false });
}

describe('REDIS_KEY_PREFIX: two fleets sharing one Redis do not see each other’s keys', () => {
  const run = randomBytes(4).toString('hex');
  const prefixA = `e2e-fleet-a-${run}:`;
  const prefixB = `e2e-fleet-b-${run}:`;
  let fleetA: INestApplicationContext;
  let fleetB: INestApplicationContext;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(process.env['REDIS_URL']!);
    [fleetA, fleetB] = await Promise.all([
      infrastructureOf({ REDIS_KEY_PREFIX: prefixA }),
      infrastructureOf({ REDIS_KEY_PREFIX: prefixB }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([fleetA?.close(), fleetB?.close()]);
    const keys = [...(await redis.keys(`${prefixA}*`)), ...(await redis.keys(`${prefixB}*`))];
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('keeps a rate-limit bucket per fleet: draining A’s leaves B’s full', async () => {
    const policy = { burst: 2, refillPerMinute: 1 };
    const a = fleetA.get<RateLimitStore>(RATE_LIMIT_STORE);
    const b = fleetB.get<RateLimitStore>(RATE_LIMIT_STORE);
    const now = Date.now();
    expect((await a.take('key:k1', policy, now)).allowed).toBe(true);
    expect((await a.take('key:k1', policy, now)).allowed).toBe(true);
    expect(await a.take('key:k1', policy, now)).toMatchObject({ allowed: false, remaining: 0 });
    // The same bucket name in fleet B: still full.
    expect(await b.take('key:k1', policy, now)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await redis.exists(`${prefixA}ratelimit:key:k1`, `${prefixB}ratelimit:key:k1`)).toBe(2);
    // Nothing was written outside the prefixes.
    expect(await redis.exists('ratelimit:key:k1')).toBe(0);
  });

  it('is empty by default: the keys are the ones of before', async () => {
    const plain = await infrastructureOf({});
    try {
      const key = `e2e-plain-${run}`;
      const taken = await plain
        .get<RateLimitStore>(RATE_LIMIT_STORE)
        .take(key, { burst: 2, refillPerMinute: 1 }, Date.now());
      expect(taken).toMatchObject({ allowed: true, remaining: 1 });
      expect(await redis.exists(`ratelimit:${key}`)).toBe(1);
      await redis.del(`ratelimit:${key}`);
    } finally {
      await plain.close();
    }
  });
});
