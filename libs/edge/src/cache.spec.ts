import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { REDIS_MISSING, TEST_REDIS_URL } from '@gen/testing';
import { MemoryCache, RedisCache, type Cache } from './cache';

const KINDS: readonly ('memory' | 'redis')[] = REDIS_MISSING ? ['memory'] : ['memory', 'redis'];

describe.each(KINDS)('%s cache', (kind) => {
  let redis: Redis | undefined;
  let cache: Cache;
  let other: Cache;
  beforeAll(() => {
    if (kind === 'redis') {
      redis = new Redis(TEST_REDIS_URL);
      const prefix = `test:${randomBytes(6).toString('hex')}:`;
      cache = new RedisCache(redis, prefix);
      other = new RedisCache(redis, prefix);
    } else {
      cache = new MemoryCache();
      other = cache;
    }
  });
  afterAll(() => redis?.disconnect());

  it('returns what was set until the TTL passes, then nothing', async () => {
    await cache.set('k', { models: ['local/sketch'], n: 1 }, 150);
    expect(await other.get('k')).toEqual({ models: ['local/sketch'], n: 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(await other.get('k')).toBeUndefined();
  });

  it('forgets a deleted key and never hands out a shared mutable object', async () => {
    const value = { list: [1] };
    await cache.set('d', value, 10_000);
    value.list.push(2);
    const read = await cache.get<{ list: number[] }>('d');
    expect(read).toEqual({ list: [1] });
    read!.list.push(3);
    expect(await cache.get('d')).toEqual({ list: [1] });
    await cache.delete('d');
    expect(await other.get('d')).toBeUndefined();
    expect(await cache.get('never-set')).toBeUndefined();
  });
});
