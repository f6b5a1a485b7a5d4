import { randomUUID } from 'node:crypto';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { Redis } from 'ioredis';

/** One slot taken: give it back when the work ends (a slot not given back lapses at its lease's end). */
export interface SlotLease {
  release(): Promise<void>;
}

/**
 * Bounds how many pieces of work of one kind run at once per key (e.g. the imports of an API key): memory in
 * embedded mode, Redis in distributed mode, so that the bound holds across every replica. Each slot is leased
 * for at most `leaseMs`: the slots of a process that died lapse then, instead of being held for ever.
 */
export interface ConcurrencySlots {
  /** Takes one of the `limit` slots of `key`; null when all are taken (nothing was taken). */
  acquire(key: string, limit: number, leaseMs: number): Promise<SlotLease | null>;
}
export const CONCURRENCY_SLOTS = Symbol('ConcurrencySlots');

/** The slots of one process: a count per key, each slot with its own lease timer. */
export class MemoryConcurrencySlots implements ConcurrencySlots {
  private readonly taken = new Map<string, Set<symbol>>();

  acquire(key: string, limit: number, leaseMs: number): Promise<SlotLease | null> {
    const slots = this.taken.get(key) ?? new Set<symbol>();
    if (slots.size >= limit) return Promise.resolve(null);
    const slot = Symbol(key);
    slots.add(slot);
    this.taken.set(key, slots);
    const free = (): void => {
      clearTimeout(lapse);
      slots.delete(slot);
      if (slots.size === 0 && this.taken.get(key) === slots) this.taken.delete(key);
    };
    const lapse = setTimeout(free, leaseMs);
    lapse.unref();
    return Promise.resolve({ release: () => Promise.resolve(free()) });
  }
}

/**
 * Takes a slot atomically: the key is a sorted set of slot ids scored by their lease's end (the Redis
 * server's clock, so processes with skewed clocks agree); lapsed ones are dropped first, then a slot is added
 * only while fewer than the limit remain. Returns 1 when taken.
 */
const ACQUIRE = `
local limit = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= limit then
  return 0
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
if redis.call('PTTL', KEYS[1]) < lease then
  redis.call('PEXPIRE', KEYS[1], lease)
end
return 1
`;

/** The namespace of the slots' keys, after the deployment's REDIS_KEY_PREFIX. */
export const CONCURRENCY_KEY_PREFIX = 'slots:';

/** Without its store the bound cannot tell: the work is refused rather than let through (as rate limits). */
const unavailable = (): DomainError =>
  new DomainError(BusinessCode.TemporarilyUnavailable, 'server.unavailable', {}, { 'retry-after': '1' });

/** The slots of a fleet, in Redis: every key is `prefix` + the key given. */
export class RedisConcurrencySlots implements ConcurrencySlots {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = CONCURRENCY_KEY_PREFIX,
  ) {
    this.redis.defineCommand('acquireSlot', { numberOfKeys: 1, lua: ACQUIRE });
  }

  async acquire(key: string, limit: number, leaseMs: number): Promise<SlotLease | null> {
    const name = `${this.prefix}${key}`;
    const slot = randomUUID();
    let taken: number;
    try {
      const command = (
        this.redis as unknown as {
          acquireSlot(k: string, limit: number, lease: number, slot: string): Promise<number>;
        }
      ).acquireSlot;
      taken = await command.call(this.redis, name, limit, leaseMs, slot);
    } catch {
      throw unavailable();
    }
    if (taken !== 1) return null;
    return {
      // A release that fails leaves the slot to lapse at its lease's end: never worth failing the work for.
      release: () =>
        this.redis.zrem(name, slot).then(
          () => undefined,
          () => undefined,
        ),
    };
  }
}
