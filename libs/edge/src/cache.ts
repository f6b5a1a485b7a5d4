import type { Redis } from 'ioredis';

/**
 * The cache port: values with a time to live, in process memory (embedded) or Redis (distributed), so that
 * what one process caches another sees. Values are JSON. A cache miss is `undefined`, never an error.
 */
export interface Cache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}
export const CACHE = Symbol('Cache');

export class MemoryCache implements Cache {
  private readonly entries = new Map<string, { value: string; expiresMs: number }>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresMs <= this.nowMs()) {
      this.entries.delete(key);
      return undefined;
    }
    return JSON.parse(entry.value) as T;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    // Stored as JSON, as in Redis: a caller never shares a mutable object through the cache.
    this.entries.set(key, { value: JSON.stringify(value), expiresMs: this.nowMs() + ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
}

/** The namespace of the cache's keys, after the deployment's REDIS_KEY_PREFIX. */
export const CACHE_KEY_PREFIX = 'cache:';

export class RedisCache implements Cache {
  /** Every key is `prefix` + the entry's key (the app passes REDIS_KEY_PREFIX + CACHE_KEY_PREFIX). */
  constructor(
    private readonly redis: Redis,
    private readonly prefix = CACHE_KEY_PREFIX,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const value = await this.redis.get(this.prefix + key);
    return value === null ? undefined : (JSON.parse(value) as T);
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, JSON.stringify(value), 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
