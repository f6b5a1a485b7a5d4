import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { describeWithRedis, TEST_REDIS_URL } from '@gen/testing';
import { MemoryConcurrencySlots, RedisConcurrencySlots, type ConcurrencySlots } from './concurrency-slots';

/** The behaviour both stores share. */
function behaves(make: () => ConcurrencySlots): void {
  it('gives `limit` slots per key, refuses one more, and gives a released slot again', async () => {
    const slots = make();
    const taken = await Promise.all([1, 2, 3].map(() => slots.acquire('key-a', 3, 60_000)));
    expect(taken.every((lease) => lease !== null)).toBe(true);
    expect(await slots.acquire('key-a', 3, 60_000)).toBeNull();
    // Another key has slots of its own.
    expect(await slots.acquire('key-b', 3, 60_000)).not.toBeNull();
    await taken[0]!.release();
    const again = await slots.acquire('key-a', 3, 60_000);
    expect(again).not.toBeNull();
    expect(await slots.acquire('key-a', 3, 60_000)).toBeNull();
    // Releasing twice frees one slot only.
    await again!.release();
    await again!.release();
    expect(await slots.acquire('key-a', 3, 60_000)).not.toBeNull();
    expect(await slots.acquire('key-a', 3, 60_000)).toBeNull();
  });

  it('lets a slot lapse at the end of its lease (the work of a process that died)', async () => {
    const slots = make();
    expect(await slots.acquire('lapse', 1, 150)).not.toBeNull();
    expect(await slots.acquire('lapse', 1, 150)).toBeNull();
    await new Promise((r) => setTimeout(r, 250));
    expect(await slots.acquire('lapse', 1, 150)).not.toBeNull();
  });

  it('admits exactly `limit` of many concurrent acquisitions', async () => {
    const slots = make();
    const leases = await Promise.all(Array.from({ length: 40 }, () => slots.acquire('race', 4, 60_000)));
    expect(leases.filter((lease) => lease !== null)).toHaveLength(4);
  });
}

describe('MemoryConcurrencySlots', () => behaves(() => new MemoryConcurrencySlots()));

describeWithRedis('RedisConcurrencySlots against the real Redis', () => {
  let redis: Redis;
  let other: Redis;
  let prefix: string;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
    other = new Redis(TEST_REDIS_URL);
    prefix = `test:${randomBytes(6).toString('hex')}:`;
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    other.disconnect();
  });

  behaves(() => new RedisConcurrencySlots(redis, prefix));

  it('shares the bound between processes (two connections), and expires the key with its last lease', async () => {
    const one = new RedisConcurrencySlots(redis, prefix);
    const two = new RedisConcurrencySlots(other, prefix);
    const leases = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).acquire('shared', 3, 5_000)),
    );
    expect(leases.filter((lease) => lease !== null)).toHaveLength(3);
    const ttl = await redis.pttl(`${prefix}shared`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  it('refuses (503, fail closed) when Redis cannot be reached', async () => {
    // A client whose every command fails, as ioredis's does once its retries are spent.
    const down = {
      defineCommand: () => undefined,
      acquireSlot: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
    } as unknown as Redis;
    const slots = new RedisConcurrencySlots(down, prefix);
    await expect(slots.acquire('down', 1, 1000)).rejects.toMatchObject({ messageId: 'server.unavailable' });
  });
});
